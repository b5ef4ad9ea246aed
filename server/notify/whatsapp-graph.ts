import type { Config } from '../config.ts';

/**
 * The WhatsApp Cloud API's one call this site makes: `POST /{version}/{phone-number-id}/messages`
 * with a template (decision 123), or a plain text within 24 hours of the person's own message
 * (the answer to a STOP, decision 125). Meta answers a message id (`wamid`) once it has taken the
 * message; delivery is reported later to the webhook (server/notify/http/whatsapp-webhook.ts).
 */

export type WhatsAppCredentials = NonNullable<Config['whatsapp']>;

/** One template message: the approved template's name and language, its body's variables in order. */
export type TemplateRequest = {
  /** E.164 (`+919876543210`); the Graph API takes the digits. */
  to: string;
  template: string;
  language: string;
  variables: readonly string[];
  /** An authentication template's one-time code, for its copy-code button. */
  copyCode?: string;
};

/**
 * Why Meta refused, and whether asking again later can help. Retryable: Meta's own trouble and
 * its rate limits (throttling, "temporarily unavailable", 5xx), and our token or permissions,
 * which the operator can mend while the job waits. Permanent: this message can never go (not a
 * WhatsApp number, outside the 24-hour window, a template or parameter Meta does not know).
 */
export class WhatsAppError extends Error {
  override name = 'WhatsAppError';
  readonly code: number | null;
  readonly retryable: boolean;
  readonly status: number | null;

  constructor(message: string, options: { code: number | null; retryable: boolean; status: number | null; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.retryable = options.retryable;
    this.status = options.status;
  }
}

/**
 * Graph API error codes worth another try (Meta's "WhatsApp Cloud API error codes"): API
 * unknown/service (1, 2), rate limits (4, 17, 341, 80007, 130429, 131048, 131056), token and
 * permission (0, 10, 190, 200-299: the operator mends them), Meta's trouble (131000, 131016,
 * 133004). Every other code is about this message and stays as it is.
 */
const RETRYABLE_CODES = new Set([0, 1, 2, 4, 10, 17, 190, 341, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);

export function isRetryableCode(code: number | null, status: number | null): boolean {
  if (code !== null) return RETRYABLE_CODES.has(code) || (code >= 200 && code <= 299);
  return status === null || status >= 500 || status === 429;
}

const TIMEOUT_MS = 15_000;

type GraphAnswer = {
  messages?: Array<{ id?: unknown }>;
  error?: { message?: unknown; code?: unknown; error_data?: { details?: unknown } };
};

/** Where Meta posts delivery statuses and the messages people send (the Meta app's webhook callback URL is SITE_ORIGIN + this). */
export const WHATSAPP_WEBHOOK_PATH = '/webhooks/whatsapp';

export function messagesUrl(credentials: WhatsAppCredentials): string {
  return `${credentials.graphUrl}/${credentials.graphVersion}/${encodeURIComponent(credentials.phoneNumberId)}/messages`;
}

/** The request body Meta documents for a template message (body parameters, and the copy-code button of an authentication template). */
export function templateBody(request: TemplateRequest): Record<string, unknown> {
  const components: Array<Record<string, unknown>> = [];
  if (request.variables.length > 0) components.push({ type: 'body', parameters: request.variables.map((text) => ({ type: 'text', text })) });
  if (request.copyCode !== undefined) {
    components.push({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: request.copyCode }] });
  }
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: request.to.replace(/^\+/, ''),
    type: 'template',
    template: { name: request.template, language: { code: request.language }, components },
  };
}

/**
 * A plain text message (`type: text`): Meta takes one only within 24 hours of the person's own
 * message to the business (the "customer service window"), so it answers a reply, such as STOP.
 */
export function textBody(to: string, text: string): Record<string, unknown> {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: to.replace(/^\+/, ''), type: 'text', text: { preview_url: false, body: text } };
}

/** Sends one template message; the wamid Meta gave it, or a WhatsAppError saying whether to try again. */
export function sendTemplate(credentials: WhatsAppCredentials, request: TemplateRequest): Promise<{ wamid: string }> {
  return postMessage(credentials, templateBody(request));
}

/** Sends one plain text message (within the 24-hour window); the wamid, or a WhatsAppError. */
export function sendText(credentials: WhatsAppCredentials, to: string, text: string): Promise<{ wamid: string }> {
  return postMessage(credentials, textBody(to, text));
}

async function postMessage(credentials: WhatsAppCredentials, body: Record<string, unknown>): Promise<{ wamid: string }> {
  const url = messagesUrl(credentials);
  let response: Response;
  let raw: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    raw = await response.text();
  } catch (error) {
    const why =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? `no answer within ${TIMEOUT_MS / 1000} s` : 'unreachable';
    throw new WhatsAppError(`WhatsApp (${new URL(url).host}): ${why}`, { code: null, retryable: true, status: null, cause: error });
  }
  let answer: GraphAnswer;
  try {
    answer = JSON.parse(raw) as GraphAnswer;
  } catch {
    throw new WhatsAppError(`WhatsApp answered HTTP ${response.status} with something other than JSON`, {
      code: null,
      retryable: isRetryableCode(null, response.status),
      status: response.status,
    });
  }
  const wamid = answer.messages?.[0]?.id;
  if (response.ok && typeof wamid === 'string' && wamid.length > 0) return { wamid };
  const code = typeof answer.error?.code === 'number' ? answer.error.code : null;
  const details = typeof answer.error?.error_data?.details === 'string' ? ` (${answer.error.error_data.details})` : '';
  const message = typeof answer.error?.message === 'string' ? answer.error.message : `HTTP ${response.status} without a message id`;
  throw new WhatsAppError(`WhatsApp refused${code === null ? '' : ` (${code})`}: ${message}${details}`.slice(0, 500), {
    code,
    retryable: isRetryableCode(code, response.status),
    status: response.status,
  });
}
