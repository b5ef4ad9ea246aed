import { SmsError, assertE164, postForJson, type SmsSender } from './sms-provider.ts';

/**
 * MSG91 (control.msg91.com), the common SMS gateway for Indian numbers. Indian rules (DLT)
 * allow only pre-registered templates, so we do not send free text: the Flow API fills the
 * template (whose text carries the variable `##otp##`) with the code.
 *
 *   POST {apiUrl}/api/v5/flow
 *   authkey: <key>
 *   { "template_id": "...", "short_url": "0", "recipients": [{ "mobiles": "919876543210", "otp": "123456" }] }
 *
 * MSG91 answers JSON: {"type":"success","message":"<request id>"} or
 * {"type":"error","message":"...","code":"..."}; errors may come with HTTP 200 as well as 4xx,
 * so the body's `type` decides, not the status.
 */

export type Msg91Options = {
  authKey: string;
  templateId: string;
  /** https://control.msg91.com; tests point it at a local stand-in. */
  apiUrl: string;
  timeoutMs?: number;
};

const PROVIDER = 'MSG91';

// MSG91's documented error codes: 207 invalid authentication key, 418 IP not whitelisted (the
// key is refused from this server), 301 insufficient balance, 202 invalid mobile number.
const CREDENTIAL_CODES = new Set(['207', '401', '418']);
const QUOTA_CODES = new Set(['301']);
const NUMBER_CODES = new Set(['202']);

type Msg91Answer = { type?: unknown; message?: unknown; code?: unknown };

/** Sorts a refusal into the categories the phone verification screen words differently. */
export function classifyMsg91Error(status: number, answer: Msg91Answer): SmsError {
  const message = typeof answer.message === 'string' && answer.message.trim() ? answer.message.trim() : `MSG91 refused the message (HTTP ${status}).`;
  const code = answer.code === undefined || answer.code === null ? '' : String(answer.code);
  const options = { provider: PROVIDER, status };
  if (status === 401 || status === 403 || CREDENTIAL_CODES.has(code) || /authenticat|auth ?key|whitelist/i.test(message)) {
    return new SmsError('invalid-credential', message, options);
  }
  if (status === 429 || QUOTA_CODES.has(code) || /insufficient|balance|quota|credit|limit (exceeded|reached)|too many/i.test(message)) {
    return new SmsError('quota-exceeded', message, options);
  }
  if (NUMBER_CODES.has(code) || /(invalid|valid) (mobile|number|phone)/i.test(message)) {
    return new SmsError('invalid-number', message, options);
  }
  return new SmsError('provider', message, options);
}

export function createMsg91Sender(options: Msg91Options): SmsSender {
  const url = `${options.apiUrl.replace(/\/+$/, '')}/api/v5/flow`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    async send(toE164, _text, meta) {
      assertE164(toE164, PROVIDER);
      // The template holds the words; without a code there is nothing to fill it with.
      if (!meta?.otp) throw new SmsError('provider', 'MSG91 sends verification codes only: no code was given.', { provider: PROVIDER });
      const body = {
        template_id: options.templateId,
        // "0": do not let MSG91 rewrite links in the text into its own short links.
        short_url: '0',
        // International format without the plus: 91 and the ten digits for India.
        recipients: [{ mobiles: toE164.slice(1), otp: meta.otp }],
      };

      const { response, answer } = await postForJson<Msg91Answer>(
        PROVIDER,
        url,
        { headers: { authkey: options.authKey, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) },
        timeoutMs,
      );
      if (response.ok && answer?.type === 'success') return;
      throw classifyMsg91Error(response.status, answer ?? {});
    },
  };
}
