/**
 * What comes in from outside (URL parameters, query strings, form fields) becomes the product's
 * own types here, once, at the edge. Safe on both sides: the browser and the server share it.
 *
 * Ids: every table's id is a 32-bit INTEGER on PostgreSQL (serial), so an id above 2^31 − 1 is
 * not merely absent, it makes PostgreSQL refuse the query. One parser with one rule for every
 * id keeps such values from ever reaching the database (docs/decisions/012).
 */

/** The largest id the database can hold (PostgreSQL `integer`, SQLite keeps to it too). */
export const MAX_DATABASE_ID = 2_147_483_647;

/**
 * A database id: plain decimal digits, no sign, no leading zero, no exponent, no hex, within
 * the 32-bit range. Anything else is null, which callers answer with 400 (form field) or 404
 * (URL: an id that cannot exist is simply not found).
 */
export function parseId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_DATABASE_ID ? id : null;
}

/**
 * A count from a query string (page, items per page): plain decimal digits, brought into
 * [min, max]; null for anything else (sign, fraction, exponent, hex, words), which callers
 * replace by their default. Lists forgive an odd page number; ids are never guessed.
 */
export function parseWholeNumber(value: unknown, range: { min: number; max: number }): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  return Math.min(range.max, Math.max(range.min, Number(value)));
}

/** A page number from a query string: a positive whole number, or 1 for anything else. */
export function parsePage(value: unknown): number {
  return parseWholeNumber(value, { min: 1, max: MAX_DATABASE_ID }) ?? 1;
}

/**
 * The one control-character rule: C0 controls and DEL. Invisible, they break CSV and logs, and
 * PostgreSQL refuses NUL in text. Tab and line breaks are layout: multi-line text keeps them.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const LAYOUT = new Set(['\t', '\n', '\r']);

export type CleanTextOptions = {
  /** Keep line breaks (normalised to \n) and tabs; otherwise they become a single space. */
  multiline?: boolean;
  /**
   * Cut to this many UTF-16 code units (what `maxLength` counts). Leave unset where the field's
   * schema gives a 'too long' message instead; the cut then only bounds work on hostile input.
   */
  maxLength?: number;
};

/**
 * The one text cleaner for free text from outside: not a string -> '', control characters
 * removed (NUL included), ends trimmed, optionally length-bound.
 */
export function cleanText(value: unknown, options: CleanTextOptions = {}): string {
  if (typeof value !== 'string') return '';
  let text = value.replace(/\r\n?/g, '\n').replace(CONTROL, (character) => (LAYOUT.has(character) ? character : ''));
  if (!options.multiline) text = text.replace(/[\n\t]+/g, ' ');
  text = text.trim();
  return options.maxLength === undefined ? text : text.slice(0, options.maxLength).trim();
}

/** The longest email address (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/** Something, an @, something with a dot: the shape of an email address, for every form and service that takes one. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Shaped like an email address and no longer than one can be. */
export function isPlausibleEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}

/**
 * A password's length: 6 at least (SPEC 2, Sign Up), 128 at most (better-auth's limit, and a
 * bound on what a sign-in hashes). Sign-up, sign-in, the admin's own forms and the inputs' hints
 * all read it from here.
 */
export const PASSWORD_LENGTH = { min: 6, max: 128 } as const;

/** One line of text (names, emails, titles): cleanText without line breaks. */
export function cleanLine(value: unknown, maxLength?: number): string {
  return cleanText(value, maxLength === undefined ? {} : { maxLength });
}

/**
 * Whether text holds a control character, for refusing rather than cleaning. Tab and line
 * breaks count only with `layout: false` (one line: a search word, a redirect path).
 */
export function hasControlCharacters(value: string, options: { layout?: boolean } = {}): boolean {
  const allowLayout = options.layout ?? true;
  for (const [character] of value.matchAll(CONTROL)) if (!allowLayout || !LAYOUT.has(character)) return true;
  return false;
}

/**
 * Whether a parsed JSON body holds a string with a control character, at any depth, in a
 * value or a key. Passwords are left alone: they are only ever hashed, never stored as text,
 * and are the person's to choose.
 */
export function hasControlText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasControlCharacters(value);
  if (depth > 4 || typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => hasControlCharacters(key) || (!/password/i.test(key) && hasControlText(item, depth + 1)));
}
