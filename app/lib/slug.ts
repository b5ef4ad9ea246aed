/**
 * The one slug rule: what a name becomes in a URL ('Maruti Suzuki' -> 'maruti-suzuki'), for
 * category pages and the make and model filters alike, and the shape a slug in a URL must have.
 */

/** At most this many characters: a slug is a readable key, never the whole text. */
const MAX_SLUG_LENGTH = 60;

/** Lower-case letters and digits joined by single hyphens; `fallback` when nothing is left. */
export function slugify(text: string, fallback = ''): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH);
  return slug || fallback;
}

/** Whether text from a URL can be a slug (so no query runs for one that cannot). */
export function isSlug(text: string, maxLength = MAX_SLUG_LENGTH): boolean {
  return text.length <= maxLength && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(text);
}
