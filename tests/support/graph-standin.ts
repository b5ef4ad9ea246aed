import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { readBody, sendJson } from './standin-http.ts';

/**
 * A local stand-in for the WhatsApp Cloud API (Graph API), answering as Meta does: the messages
 * endpoint checks the bearer token, the pinned version and the request's shape (a template, or
 * a plain text: the answer to a person's own message), answers a `wamid` or Meta's error object, and records what it took. It also plays Meta's side of the
 * webhook: `deliver` posts a status or an inbound message to the site, signed with the app
 * secret in `X-Hub-Signature-256` as Meta signs it.
 */

export type GraphTemplateRequest = {
  to: string;
  template: string;
  language: string;
  parameters: string[];
  button: string | null;
  wamid: string;
};

/** A plain text message (`type: text`), as the site answers a person's own message within 24 hours. */
export type GraphTextRequest = { to: string; body: string; wamid: string };

/** One answer Meta gives instead of a message id: its HTTP status and error object. */
export type GraphRefusal = { status: number; code: number; message: string };

export const GRAPH_REFUSALS = {
  /** Not a WhatsApp number: permanent. */
  undeliverable: { status: 400, code: 131026, message: 'Message undeliverable' },
  /** A template Meta does not have in this language: permanent. */
  noTemplate: { status: 404, code: 132001, message: 'Template name does not exist in the translation' },
  /** Meta's throttling: retryable. */
  rateLimited: { status: 429, code: 130429, message: 'Rate limit hit' },
  /** Meta's own trouble: retryable. */
  unavailable: { status: 503, code: 131016, message: 'Service unavailable' },
} as const satisfies Record<string, GraphRefusal>;

export type GraphStandIn = {
  /** The Graph API's address, for WHATSAPP_GRAPH_URL. */
  url: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  version: string;
  /** What the site must be started with to send here. */
  env: Record<string, string>;
  received: GraphTemplateRequest[];
  /** The plain texts it took. */
  receivedTexts: GraphTextRequest[];
  /** The next answers, in turn, before "accept" again: a refusal each. */
  refuseNext: (...refusals: GraphRefusal[]) => void;
  /** Posts a webhook body to the site as Meta does; `signature` overrides the header (null: none). */
  deliver: (siteOrigin: string, body: unknown, options?: { signature?: string | null; raw?: string }) => Promise<Response>;
  /** The webhook body Meta posts for one status of one message. */
  statusBody: (wamid: string, status: 'sent' | 'delivered' | 'read' | 'failed', options?: { to?: string; errorCode?: number }) => unknown;
  /** The webhook body Meta posts for a text a person sends the business. */
  inboundTextBody: (from: string, text: string, id?: string) => unknown;
  reset: () => void;
  close: () => Promise<void>;
};

export function signWebhook(appSecret: string, raw: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

export async function startGraphStandIn(): Promise<GraphStandIn> {
  const phoneNumberId = String(100_000_000_000 + Math.floor(Math.random() * 1e9));
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const verifyToken = randomBytes(12).toString('hex');
  const version = 'v23.0';
  const received: GraphTemplateRequest[] = [];
  const receivedTexts: GraphTextRequest[] = [];
  const refusals: GraphRefusal[] = [];
  let counter = 0;

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://graph');
      if (request.method !== 'POST' || url.pathname !== `/${version}/${phoneNumberId}/messages`) {
        return sendJson(response, 400, {
          error: { message: `Unsupported request ${request.method} ${url.pathname}`, type: 'GraphMethodException', code: 100 },
        });
      }
      if (request.headers.authorization !== `Bearer ${accessToken}`) {
        return sendJson(response, 401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      }
      let parsed: {
        messaging_product?: string;
        to?: string;
        type?: string;
        text?: { body?: string };
        template?: { name?: string; language?: { code?: string }; components?: Array<{ type: string; parameters?: Array<{ text?: string }> }> };
      };
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        return sendJson(response, 400, { error: { message: 'Invalid JSON', type: 'OAuthException', code: 100 } });
      }
      if (parsed.messaging_product === 'whatsapp' && parsed.type === 'text' && /^[0-9]{8,15}$/.test(parsed.to ?? '')) {
        const text = parsed.text?.body;
        if (typeof text !== 'string' || text.length === 0 || text.length > 4096) {
          return sendJson(response, 400, { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } });
        }
        const refusal = refusals.shift();
        if (refusal)
          return sendJson(response, refusal.status, { error: { message: refusal.message, type: 'OAuthException', code: refusal.code, fbtrace_id: 'standin' } });
        counter += 1;
        const wamid = `wamid.STANDIN${counter}${randomBytes(6).toString('hex')}`;
        receivedTexts.push({ to: parsed.to!, body: text, wamid });
        return sendJson(response, 200, { messaging_product: 'whatsapp', contacts: [{ input: parsed.to, wa_id: parsed.to }], messages: [{ id: wamid }] });
      }
      const template = parsed.template;
      if (
        parsed.messaging_product !== 'whatsapp' ||
        parsed.type !== 'template' ||
        !template?.name ||
        !template.language?.code ||
        !/^[0-9]{8,15}$/.test(parsed.to ?? '')
      ) {
        return sendJson(response, 400, { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } });
      }
      const refusal = refusals.shift();
      if (refusal)
        return sendJson(response, refusal.status, { error: { message: refusal.message, type: 'OAuthException', code: refusal.code, fbtrace_id: 'standin' } });
      counter += 1;
      const wamid = `wamid.STANDIN${counter}${randomBytes(6).toString('hex')}`;
      const bodyComponent = template.components?.find((component) => component.type === 'body');
      const buttonComponent = template.components?.find((component) => component.type === 'button');
      received.push({
        to: parsed.to!,
        template: template.name,
        language: template.language.code,
        parameters: (bodyComponent?.parameters ?? []).map((parameter) => parameter.text ?? ''),
        button: buttonComponent?.parameters?.[0]?.text ?? null,
        wamid,
      });
      sendJson(response, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: parsed.to, wa_id: parsed.to }],
        messages: [{ id: wamid, message_status: 'accepted' }],
      });
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error), code: 1 } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const entry = (change: unknown) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '919876543210', phone_number_id: phoneNumberId }, ...(change as object) },
          },
        ],
      },
    ],
  });

  return {
    url,
    phoneNumberId,
    accessToken,
    appSecret,
    verifyToken,
    version,
    env: {
      WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: accessToken,
      WHATSAPP_APP_SECRET: appSecret,
      WHATSAPP_VERIFY_TOKEN: verifyToken,
      WHATSAPP_GRAPH_URL: url,
      WHATSAPP_GRAPH_VERSION: version,
    },
    received,
    receivedTexts,
    refuseNext: (...next) => void refusals.push(...next),
    deliver: async (siteOrigin, body, options = {}) => {
      const raw = options.raw ?? JSON.stringify(body);
      const signature = options.signature === undefined ? signWebhook(appSecret, raw) : options.signature;
      return fetch(new URL('/webhooks/whatsapp', siteOrigin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-hub-signature-256': signature }) },
        body: raw,
      });
    },
    statusBody: (wamid, status, options = {}) =>
      entry({
        statuses: [
          {
            id: wamid,
            status,
            timestamp: String(Math.floor(Date.now() / 1000)),
            recipient_id: options.to ?? '919820011223',
            ...(status === 'failed'
              ? {
                  errors: [
                    {
                      code: options.errorCode ?? 131026,
                      title: 'Message undeliverable',
                      message: 'Message undeliverable',
                      error_data: { details: 'The recipient is not on WhatsApp' },
                    },
                  ],
                }
              : {}),
          },
        ],
      }),
    inboundTextBody: (from, text, id) =>
      entry({
        contacts: [{ profile: { name: 'Customer' }, wa_id: from }],
        messages: [
          { from, id: id ?? `wamid.IN${randomBytes(8).toString('hex')}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } },
        ],
      }),
    reset: () => {
      received.length = 0;
      receivedTexts.length = 0;
      refusals.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
