import { createCookie } from 'react-router';
import type { Toast } from '../../app/lib/toast.ts';

/** The flash message's cookie: a page asked with it is rendered for that request (shared-pages.ts). */
export const FLASH_COOKIE_NAME = 'gb_flash';

function flashCookie(secret: string) {
  return createCookie(FLASH_COOKIE_NAME, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 60, secrets: [secret] });
}

/** Headers that set the toast for the next page. */
export async function flashHeaders(secret: string, toast: Toast, headers = new Headers()): Promise<Headers> {
  headers.append('Set-Cookie', await flashCookie(secret).serialize(toast));
  return headers;
}

/** The toast waiting for this request, and the header that clears it. */
export async function takeFlash(secret: string, request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const cookie = flashCookie(secret);
  const value = (await cookie.parse(request.headers.get('cookie'))) as Toast | null;
  const headers = new Headers();
  if (value) headers.append('Set-Cookie', await cookie.serialize('', { maxAge: 0 }));
  const valid = value && (value.tone === 'success' || value.tone === 'error') && typeof value.text === 'string';
  return { toast: valid ? { tone: value.tone, text: value.text.slice(0, 300) } : null, headers };
}
