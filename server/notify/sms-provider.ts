/**
 * What the SMS provider adapters (sms-msg91.ts, sms-twilio.ts) and the sender that picks one
 * (sms.ts) share: the interface, the error with its categories and the number check. In a
 * module of its own so the adapters need not import sms.ts, which imports them.
 */

export interface SmsSender {
  /**
   * Sends `text` to `toE164` (`+` and digits). `meta.otp` is the bare code, for providers that
   * fill a pre-registered template instead of sending free text (MSG91).
   */
  send(toE164: string, text: string, meta?: { otp?: string }): Promise<void>;
}

/**
 * Why a message was not sent, in the categories the phone verification screen distinguishes
 * (SPEC 8, Phone verification):
 * - invalid-credential: our key, token or IP allow-list is wrong ("Authentication configuration error")
 * - quota-exceeded: balance, rate or queue limit ("SMS quota exceeded")
 * - invalid-number: the provider rejects the destination number
 * - provider: anything else; `message` is the provider's own words, shown as they are
 */
export type SmsErrorCode = 'invalid-credential' | 'quota-exceeded' | 'invalid-number' | 'provider';

export class SmsError extends Error {
  override name = 'SmsError';
  readonly code: SmsErrorCode;
  /** Which adapter failed and the HTTP status it saw, for the logs. */
  readonly provider: string;
  readonly status: number | undefined;

  constructor(code: SmsErrorCode, message: string, options: { provider: string; status?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.provider = options.provider;
    this.status = options.status;
  }
}

const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Rejects anything that is not `+` and 7 to 15 digits before a request is made. */
export function assertE164(toE164: string, provider: string): string {
  if (!E164.test(toE164)) throw new SmsError('invalid-number', `Not a phone number in international format (+ and digits): ${toE164}`, { provider });
  return toE164;
}

/** Turns a fetch failure (refused, DNS, timeout) into an SmsError that says which service and why. */
export function unreachableError(provider: string, url: string, error: unknown, timeoutMs: number): SmsError {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new SmsError('provider', `${provider} did not answer within ${timeoutMs / 1000} s (${host}).`, { provider, cause: error });
  }
  // fetch() reports "fetch failed" and puts the system error (ECONNREFUSED, ENOTFOUND) in cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return new SmsError('provider', `${provider} could not be reached (${host}): ${cause}`, { provider, cause: error });
}

/**
 * Posts to a provider's HTTP API and reads its JSON answer, whatever its status. A network
 * failure or timeout, or a page that is not JSON (a proxy's 502, an HTML error), becomes an
 * SmsError naming the provider.
 */
export async function postForJson<T>(
  provider: string,
  url: string,
  request: { headers: Record<string, string>; body: string | URLSearchParams },
  timeoutMs: number,
): Promise<{ response: Response; answer: T }> {
  let response: Response;
  let raw: string;
  try {
    response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs) });
    raw = await response.text();
  } catch (error) {
    throw unreachableError(provider, url, error, timeoutMs);
  }
  try {
    return { response, answer: JSON.parse(raw) as T };
  } catch {
    throw new SmsError('provider', `${provider} answered HTTP ${response.status} with something other than JSON.`, { provider, status: response.status });
  }
}
