import { readFormOrJson } from '../../http/forms.ts';

/**
 * A body's fields as JSON or a form sends them, with JSON's booleans kept (the WhatsApp switch's
 * `optedIn`, the verification's `whatsappOptIn`): readFormOrJson reads the body (its size, a
 * malformed one, control characters) and keeps strings only; a copy gives the booleans back.
 */
export async function bodyFields(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return Object.fromEntries(await readFormOrJson(request));
  const copy = request.clone();
  const strings = Object.fromEntries(await readFormOrJson(request));
  const parsed: unknown = await copy.json().catch(() => null);
  const booleans =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed).filter(([, value]) => typeof value === 'boolean') : [];
  return { ...strings, ...Object.fromEntries(booleans) };
}
