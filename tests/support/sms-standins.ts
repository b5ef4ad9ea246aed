import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeEach, expect } from 'vitest';
import { SmsError } from '../../server/notify/sms.ts';
import { readBody, sendJson } from './standin-http.ts';

/**
 * Local stand-ins for the SMS providers' HTTP APIs, answering as MSG91 and Twilio do (status
 * codes, JSON shapes, error codes and messages), so the adapters are tested over real HTTP
 * without an account, money or the network. Each checks credentials and the request shape,
 * records what it accepted, and can be switched to answer with the provider's refusals.
 */

/** Keeps one stand-in for a test file: each test starts with it answering OK and nothing received; closed after the file. */
export function resetBeforeEachTest(standIn: { setMode: (mode: 'ok') => void; messages: unknown[]; close: () => Promise<void> }): void {
  beforeEach(() => {
    standIn.setMode('ok');
    standIn.messages.length = 0;
  });
  afterAll(() => standIn.close());
}

/** The SmsError a send is expected to end in (a send that succeeds fails the test). */
export async function smsFailure(promise: Promise<unknown>): Promise<SmsError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SmsError);
  return error as SmsError;
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { message: String(error) });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}` };
}

function closer(server: Server) {
  return () =>
    new Promise<void>((resolve) => {
      // A 'hang' request would otherwise keep close() waiting for ever.
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

// ---------------------------------------------------------------------------------------------
// MSG91 Flow API: POST /api/v5/flow

export type Msg91Mode =
  /** Accept and record. */
  | 'ok'
  /** Refuse every key, as for a revoked key: 401 AuthenticationFailure. */
  | 'invalid-credential'
  /** The key is fine but this server's IP is not on its allow-list: 418. */
  | 'ip-not-whitelisted'
  /** Out of SMS credit: MSG91 says so with HTTP 200 and type "error". */
  | 'insufficient-balance'
  /** A proxy in front of the API failing: 502 with an HTML page. */
  | 'gateway-error'
  /** Never answer (for timeouts). */
  | 'hang';

export type Msg91Received = { templateId: string; shortUrl: unknown; mobiles: string; otp: string; authKey: string };

export type Msg91StandIn = {
  url: string;
  authKey: string;
  templateId: string;
  messages: Msg91Received[];
  setMode: (mode: Msg91Mode) => void;
  close: () => Promise<void>;
};

export async function startMsg91StandIn(options: { authKey?: string; templateId?: string } = {}): Promise<Msg91StandIn> {
  const authKey = options.authKey ?? `${randomBytes(12).toString('hex')}A1`;
  const templateId = options.templateId ?? randomBytes(12).toString('hex');
  const messages: Msg91Received[] = [];
  let mode: Msg91Mode = 'ok';

  const { server, url } = await listen(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    const body = await readBody(request);
    if (request.method !== 'POST' || path !== '/api/v5/flow') {
      return sendJson(response, 404, { type: 'error', message: 'Not Found' });
    }
    if (mode === 'hang') return; // leave the request open
    if (mode === 'gateway-error') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    const key = request.headers.authkey;
    if (mode === 'invalid-credential' || typeof key !== 'string' || key !== authKey) {
      return sendJson(response, 401, { type: 'error', message: 'AuthenticationFailure', code: '401' });
    }
    if (mode === 'ip-not-whitelisted') {
      return sendJson(response, 418, { type: 'error', message: 'IP not whitelisted', code: '418' });
    }
    let payload: { template_id?: unknown; short_url?: unknown; recipients?: unknown };
    try {
      payload = JSON.parse(body) as typeof payload;
    } catch {
      return sendJson(response, 400, { type: 'error', message: 'Invalid JSON' });
    }
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return sendJson(response, 400, { type: 'error', message: 'Content-Type must be application/json' });
    }
    if (typeof payload.template_id !== 'string' || payload.template_id !== templateId) {
      return sendJson(response, 400, { type: 'error', message: 'Template ID Missing or Invalid Template' });
    }
    if (!Array.isArray(payload.recipients) || payload.recipients.length === 0) {
      return sendJson(response, 400, { type: 'error', message: 'Missing mobile no.', code: '101' });
    }
    const recipients = payload.recipients as Array<{ mobiles?: unknown; otp?: unknown }>;
    for (const recipient of recipients) {
      // International format, digits only: 91 and ten digits for India.
      if (typeof recipient.mobiles !== 'string' || !/^[1-9][0-9]{9,14}$/.test(recipient.mobiles)) {
        return sendJson(response, 400, { type: 'error', message: 'Invalid mobile number', code: '202' });
      }
      if (typeof recipient.otp !== 'string' || recipient.otp === '') {
        return sendJson(response, 400, { type: 'error', message: 'Variable otp is missing in the recipient' });
      }
    }
    if (mode === 'insufficient-balance') {
      return sendJson(response, 200, { type: 'error', message: 'Insufficient balance', code: '301' });
    }
    for (const recipient of recipients) {
      messages.push({ templateId, shortUrl: payload.short_url, mobiles: String(recipient.mobiles), otp: String(recipient.otp), authKey: key });
    }
    // MSG91's request id: 24 hex characters.
    return sendJson(response, 200, { type: 'success', message: randomBytes(12).toString('hex') });
  });

  return { url, authKey, templateId, messages, setMode: (next) => (mode = next), close: closer(server) };
}

// ---------------------------------------------------------------------------------------------
// Twilio Messages API: POST /2010-04-01/Accounts/{AccountSid}/Messages.json

export type TwilioMode =
  /** Accept and record. */
  | 'ok'
  /** Refuse every credential: 401, code 20003. */
  | 'invalid-credential'
  /** API concurrency limit: 429, code 20429. */
  | 'too-many-requests'
  /** The From number's queue is full: 400, code 21611. */
  | 'queue-full'
  /** Twilio having a bad day: 500. */
  | 'server-error'
  /** Never answer (for timeouts). */
  | 'hang';

export type TwilioReceived = { sid: string; to: string; from: string; body: string; messagingServiceSid: string | null };

export type TwilioStandIn = {
  url: string;
  accountSid: string;
  authToken: string;
  from: string;
  messages: TwilioReceived[];
  setMode: (mode: TwilioMode) => void;
  close: () => Promise<void>;
};

function twilioError(response: ServerResponse, status: number, code: number, message: string) {
  sendJson(response, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

export async function startTwilioStandIn(options: { accountSid?: string; authToken?: string; from?: string } = {}): Promise<TwilioStandIn> {
  const accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const from = options.from ?? '+15005550006';
  const messages: TwilioReceived[] = [];
  let mode: TwilioMode = 'ok';

  const { server, url } = await listen(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const body = await readBody(request);
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
    if (mode === 'hang') return;
    if (mode === 'server-error') return twilioError(response, 500, 20500, 'Internal Server Error');

    // Authentication comes before routing, as on the real API.
    const header = request.headers.authorization ?? '';
    const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
    const [user, ...rest] = decoded.split(':');
    if (mode === 'invalid-credential' || user !== accountSid || rest.join(':') !== authToken) {
      return twilioError(response, 401, 20003, 'Authenticate');
    }
    if (!match || request.method !== 'POST') {
      return twilioError(response, 404, 20404, `The requested resource ${path} was not found`);
    }
    if (decodeURIComponent(match[1] ?? '') !== accountSid) {
      return twilioError(response, 403, 20003, 'Authenticate');
    }
    // Twilio reads only form fields: a JSON body leaves them all missing.
    if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return twilioError(response, 400, 21604, "A 'To' phone number is required.");
    }
    const form = new URLSearchParams(body);
    const to = form.get('To') ?? '';
    const sender = form.get('From');
    const messagingServiceSid = form.get('MessagingServiceSid');
    const text = form.get('Body') ?? '';
    if (!to) return twilioError(response, 400, 21604, "A 'To' phone number is required.");
    if (!sender && !messagingServiceSid) return twilioError(response, 400, 21603, "A 'From' phone number is required.");
    if (!text) return twilioError(response, 400, 21602, 'Message body is required.');
    if (!/^\+[1-9][0-9]{7,14}$/.test(to)) return twilioError(response, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (sender && sender !== from) {
      return twilioError(
        response,
        400,
        21606,
        "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination/account.",
      );
    }
    if (mode === 'too-many-requests') return twilioError(response, 429, 20429, 'Too Many Requests');
    if (mode === 'queue-full') return twilioError(response, 400, 21611, "This 'From' number has exceeded the maximum number of queued messages");

    const sid = `SM${randomBytes(16).toString('hex')}`;
    messages.push({ sid, to, from: sender ?? '', body: text, messagingServiceSid });
    const now = new Date().toUTCString().replace('GMT', '+0000');
    return sendJson(response, 201, {
      account_sid: accountSid,
      api_version: '2010-04-01',
      body: text,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: sender,
      messaging_service_sid: messagingServiceSid,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      sid,
      status: messagingServiceSid ? 'accepted' : 'queued',
      subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      to,
      uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    });
  });

  return { url, accountSid, authToken, from, messages, setMode: (next) => (mode = next), close: closer(server) };
}

/** An http:// address on 127.0.0.1 where nothing listens (a port just freed), for "unreachable" tests. */
export async function unusedLocalUrl(): Promise<string> {
  const { server, url } = await listen(async () => {});
  await closer(server)();
  return url;
}
