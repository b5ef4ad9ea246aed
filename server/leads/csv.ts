/**
 * CSV for the admins' lead exports (RFC 4180: comma-separated, CRLF line ends, fields with a
 * comma, quote or line break quoted and their quotes doubled), opened in Excel or Google Sheets.
 *
 * Leads are typed by strangers, so a cell is never allowed to become a formula: a value that
 * starts with =, +, - or @ (or a tab or carriage return, which some spreadsheets strip before
 * looking) is prefixed with a single quote, the usual guard against CSV formula injection
 * (OWASP). A phone number '+91 98765 43210' therefore shows as typed, with the quote in front.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain amount ('-1234.50'): a number, never a formula, so a credit note's negative stays a number the sheet can add. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole file: a byte-order mark so Excel reads UTF-8 (Devanagari, ₹), the header row, then the rows. */
export function toCsv(headers: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const lines = [headers, ...rows].map((row) => row.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
