import { SmsError, assertE164, postForJson, type SmsSender } from './sms-provider.ts';

/**
 * Twilio's Programmable Messaging REST API, for dealers who already have a Twilio account:
 *
 *   POST {apiUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json
 *   Authorization: Basic base64(AccountSid:AuthToken)
 *   To=+919876543210&From=+1...&Body=...          (application/x-www-form-urlencoded)
 *
 * Success is 201 with the Message resource (`sid`, `status: "queued"`); a refusal is
 * {"code": 21211, "message": "...", "more_info": "https://www.twilio.com/docs/errors/21211", "status": 400}.
 */

export type TwilioOptions = {
  accountSid: string;
  authToken: string;
  /** A Twilio number in E.164, or a Messaging Service SID (MG...) that picks the number itself. */
  from: string;
  /** https://api.twilio.com; tests point it at a local stand-in. */
  apiUrl: string;
  timeoutMs?: number;
};

const PROVIDER = 'Twilio';

// https://www.twilio.com/docs/api/errors
const CREDENTIAL_CODES = new Set([
  20003, // Authenticate: wrong Account SID or Auth Token
]);
const QUOTA_CODES = new Set([
  20429, // Too Many Requests (API concurrency)
  14107, // SMS send rate limit exceeded between two numbers
  21611, // the 'From' number has more than its queue limit of messages waiting
  30022, // US A2P 10DLC rate limits (normally reported later, on the message's status)
  63038, // account exceeded its daily message limit
]);
const NUMBER_CODES = new Set([
  21211, // invalid 'To' phone number
  21614, // 'To' is not a valid mobile number (a landline)
]);

type TwilioAnswer = { code?: unknown; message?: unknown; sid?: unknown };

export function classifyTwilioError(status: number, answer: TwilioAnswer): SmsError {
  const code = typeof answer.code === 'number' ? answer.code : Number(answer.code);
  const message = typeof answer.message === 'string' && answer.message.trim() ? answer.message.trim() : `Twilio refused the message (HTTP ${status}).`;
  const options = { provider: PROVIDER, status };
  if (CREDENTIAL_CODES.has(code) || status === 401) return new SmsError('invalid-credential', message, options);
  if (QUOTA_CODES.has(code) || status === 429) return new SmsError('quota-exceeded', message, options);
  if (NUMBER_CODES.has(code)) return new SmsError('invalid-number', message, options);
  return new SmsError('provider', message, options);
}

export function createTwilioSender(options: TwilioOptions): SmsSender {
  const base = options.apiUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fromField = /^MG[0-9a-f]{32}$/i.test(options.from) ? 'MessagingServiceSid' : 'From';

  return {
    async send(toE164, text) {
      assertE164(toE164, PROVIDER);
      const form = new URLSearchParams({ To: toE164, [fromField]: options.from, Body: text });

      const { response, answer } = await postForJson<TwilioAnswer>(
        PROVIDER,
        url,
        { headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form },
        timeoutMs,
      );
      if (response.ok && typeof answer?.sid === 'string') return;
      throw classifyTwilioError(response.status, answer ?? {});
    },
  };
}
