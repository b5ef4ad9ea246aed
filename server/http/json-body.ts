/** A request's body when it is a JSON object, or null when it is anything else (absent, malformed, an array, a scalar). */
export async function jsonObjectBody(request: Request): Promise<Record<string, unknown> | null> {
  const parsed: unknown = await request.json().catch(() => null);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
}
