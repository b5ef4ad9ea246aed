/**
 * What keeps people's details out of the log (decision 111). Two layers, because neither alone
 * is enough: pino's redaction masks the fields whose names say what they hold (`email`, `phone`,
 * `otp`, `token`, `licenceNumber`…), wherever a call site puts them one level deep; and every
 * finished line is then searched for what still looks like an email address, an Indian or
 * international phone number, a code said to be an OTP, a token in a URL or header, or a driving
 * licence number, in free text such as an error's message (an SMTP server that names the
 * recipient, a provider that echoes the number). A masked value keeps enough to tell two apart
 * (an address's first letter and domain, a number's last two digits), never enough to reach the
 * person.
 */

/** Field names whose values are personal or secret, masked wherever they stand (top level or one object down). */
const PERSONAL_FIELDS = [
  'email',
  'phone',
  'phoneNumber',
  'mobile',
  'to',
  'recipient',
  'otp',
  'code',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'password',
  'newPassword',
  'licenceNumber',
  'number',
];

/** pino `redact.paths`: the fields above and the credentials of a logged request. */
export const REDACTED_PATHS = [
  ...PERSONAL_FIELDS.flatMap((field) => [field, `*.${field}`]),
  'req.headers.cookie',
  'req.headers.authorization',
  'headers.cookie',
  'headers.authorization',
  'headers["x-razorpay-signature"]',
];

/** Field names whose values are never kept in part: secrets and one-time codes. */
const SECRET_FIELDS = new Set([
  'otp',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'password',
  'newPassword',
  'cookie',
  'authorization',
  'x-razorpay-signature',
]);

/**
 * pino `redact.censor`: a secret becomes `[redacted]`; any other value is masked as free text, so
 * an address already masked by its call site (`r***@example.in`) and an error code that happens to
 * be called `code` (`INVALID_EMAIL_OR_PASSWORD`) stay readable.
 */
export function censorField(value: unknown, path: string[]): unknown {
  const field = path[path.length - 1] ?? '';
  if (value === undefined || value === null) return value;
  if (SECRET_FIELDS.has(field)) return '[redacted]';
  if (typeof value === 'number') return maskPersonalText(String(value));
  if (typeof value === 'string') return maskPersonalText(value);
  return '[redacted]';
}

const EMAIL = /[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}/g;
/** A number in international form (+ then 10 to 15 digits, spaces or dashes between). */
const INTERNATIONAL_PHONE = /\+\d(?:[ -]?\d){9,14}(?!\d)/g;
/** An Indian mobile without its +: 10 digits from 6, optionally after 91 or 0, optionally split 5 + 5. */
const INDIAN_MOBILE = /(?<![\d.])(?:91|0)?[6-9]\d{4}[ -]?\d{5}(?![\d.])/g;
/** A code the text itself calls an OTP, a code or a PIN (English and Hindi). */
const SAID_CODE = /((?:otp|code|pin|कोड|ओटीपी)\W{0,3}(?:is|was|:|=|है)?\W{0,3})\d{4,8}(?!\d)/gi;
/** A token or secret in a URL's query or a form: `token=…`, `otp=…`, `signature=…`. */
const QUERY_SECRET = /\b((?:token|otp|code|secret|signature|password|key)=)[^&\s"'\\]+/gi;
/** A credential in a header written out. */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
/** A JSON Web Token anywhere. */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
/**
 * An Indian driving licence number: state code, RTO, year, serial (`MH12 20110012345`,
 * `DL-1420110012345`), as app/features/rentals/licence.ts accepts it, in capitals or not.
 */
const LICENCE_NUMBER = /\b[A-Za-z]{2}[ -]?\d{2}[ -]?(?:19|20)\d{2}[ -]?\d{7}\b/g;

function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address[0]}***${address.slice(at)}`;
}

function maskDigits(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `${number.startsWith('+') ? '+' : ''}******${digits.slice(-2)}`;
}

/** `text` with every email, phone number, OTP, token and licence number in it masked. */
export function maskPersonalText(text: string): string {
  return text
    .replace(JWT, '[token]')
    .replace(BEARER, '$1 [redacted]')
    .replace(QUERY_SECRET, '$1[redacted]')
    .replace(EMAIL, maskEmail)
    .replace(LICENCE_NUMBER, (licence) => `${licence.slice(0, 2).toUpperCase()}**********`)
    .replace(INTERNATIONAL_PHONE, maskDigits)
    .replace(INDIAN_MOBILE, maskDigits)
    .replace(SAID_CODE, '$1******');
}
