import { randomInt } from 'node:crypto';
import { request } from 'node:http';
import { solveAltchaChallenge, type AltchaChallenge } from '../../app/lib/bot-check-client.ts';
import { decodeEntities, mainText, visibleText } from './html.ts';

/**
 * A tiny "browser without JavaScript" for integration tests: a cookie jar for one site, GET and
 * plain HTML form POSTs (with the Origin header a browser sends), redirects followed by hand so
 * each hop can be inspected, and the bot check solved the way the page's script solves it.
 *
 * Each client can carry its own client address in X-Forwarded-For. The server only believes
 * that header when it runs with TRUST_PROXY=true (as behind the production proxy); tests that
 * start their server that way give every simulated person their own address, so the
 * per-address rate limits (5 sign-ups an hour, 10 sign-ins per 15 minutes) count per person.
 */

export type StoredCookie = {
  name: string;
  value: string;
  /** Lower-cased attribute names, as sent: httponly, samesite, secure, path, max-age, expires … */
  attributes: Record<string, string>;
};

/** Parses one Set-Cookie header into name, value and attributes. */
export function parseSetCookie(header: string): StoredCookie {
  const [pair = '', ...rest] = header.split(';');
  const equals = pair.indexOf('=');
  const attributes: Record<string, string> = {};
  for (const part of rest) {
    const at = part.indexOf('=');
    const key = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase();
    if (key) attributes[key] = at === -1 ? '' : part.slice(at + 1).trim();
  }
  return { name: pair.slice(0, equals).trim(), value: pair.slice(equals + 1).trim(), attributes };
}

/** Cookies of one site. Expired or Max-Age=0 cookies are removed, as a browser does. */
export class CookieJar {
  readonly cookies = new Map<string, StoredCookie>();

  store(response: Response): StoredCookie[] {
    const set = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of set) {
      const maxAge = cookie.attributes['max-age'];
      const expires = cookie.attributes.expires;
      const expired = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie);
    }
    return set;
  }

  header(): string {
    return [...this.cookies.values()].map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  get(name: string): StoredCookie | undefined {
    return this.cookies.get(name);
  }

  clear() {
    this.cookies.clear();
  }
}

export type Hop = { url: string; status: number; location: string | null };

export type FollowResult = {
  /** The last response (not a redirect), body unread. */
  response: Response;
  /** The URL that answered last. */
  url: string;
  /** Every response on the way, redirects included. */
  hops: Hop[];
};

export type ClientOptions = {
  /** Sent as X-Forwarded-For (believed only by a server with TRUST_PROXY=true). Default: a random 10.x address. */
  address?: string | null;
};

/** A random private IPv4 address, one per simulated visitor. */
export function randomAddress(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export class HttpClient {
  readonly base: string;
  readonly jar = new CookieJar();
  readonly address: string | null;

  constructor(base: string, options: ClientOptions = {}) {
    this.base = base.replace(/\/+$/, '');
    this.address = options.address === undefined ? randomAddress() : options.address;
  }

  /** Absolute URL for a path on the site (absolute URLs are kept). */
  url(path: string): string {
    return new URL(path, `${this.base}/`).href;
  }

  private isOwn(url: string): boolean {
    return new URL(url).origin === new URL(this.base).origin;
  }

  /** One request, no redirect followed. Cookies are sent to and stored from our own site only. */
  async request(path: string, init: RequestInit & { origin?: string | null } = {}): Promise<Response> {
    const url = this.url(path);
    const own = this.isOwn(url);
    const headers = new Headers(init.headers);
    if (own) {
      const cookie = this.jar.header();
      if (cookie) headers.set('cookie', cookie);
      if (this.address) headers.set('x-forwarded-for', this.address);
    }
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD' && init.origin !== null) headers.set('origin', init.origin ?? new URL(this.base).origin);
    const { origin: _origin, ...rest } = init;
    const response = await fetch(url, { ...rest, headers, redirect: 'manual' });
    if (own) this.jar.store(response);
    return response;
  }

  get(path: string, init: RequestInit = {}): Promise<Response> {
    return this.request(path, { ...init, method: 'GET' });
  }

  /** A plain HTML form POST (application/x-www-form-urlencoded) with the site's Origin unless told otherwise. */
  postForm(path: string, fields: Record<string, string>, options: { origin?: string | null; headers?: HeadersInit } = {}): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...Object.fromEntries(new Headers(options.headers)) },
      ...(options.origin !== undefined ? { origin: options.origin } : {}),
    });
  }

  /**
   * Follows Location headers (GET, cookies kept for our site) from `response` until something
   * that is not a redirect answers. `onHop` may stop early by returning false.
   */
  async follow(response: Response, options: { from?: string; maxHops?: number; onHop?: (hop: Hop) => boolean | void } = {}): Promise<FollowResult> {
    const hops: Hop[] = [];
    let current = response;
    let currentUrl = options.from ? this.url(options.from) : response.url || this.base;
    for (let count = 0; count <= (options.maxHops ?? 10); count++) {
      const location = current.headers.get('location');
      const hop = { url: currentUrl, status: current.status, location };
      hops.push(hop);
      if (current.status < 300 || current.status >= 400 || !location) return { response: current, url: currentUrl, hops };
      if (options.onHop?.(hop) === false) return { response: current, url: currentUrl, hops };
      await current.body?.cancel();
      currentUrl = new URL(location, currentUrl).href;
      current = await this.get(currentUrl);
    }
    throw new Error(`Too many redirects: ${hops.map((hop) => `${hop.status} ${hop.url}`).join(' -> ')}`);
  }

  /** GET and follow redirects. */
  async open(path: string): Promise<FollowResult> {
    return this.follow(await this.get(path), { from: path });
  }

  /** A bot-check token for `action`, solved like the page's script does. */
  async botToken(action: string): Promise<string> {
    const response = await this.get(`/api/bot-check/challenge?action=${encodeURIComponent(action)}`, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`bot-check challenge for ${action}: HTTP ${response.status} ${await response.text()}`);
    return solveAltchaChallenge((await response.json()) as AltchaChallenge);
  }

  /** better-auth's view of the session for this jar: null when signed out. */
  async session(): Promise<SessionInfo | null> {
    const response = await this.get('/api/auth/get-session', { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`get-session: HTTP ${response.status}`);
    return (await response.json()) as SessionInfo | null;
  }
}

export type SessionInfo = {
  user: { id: string; email: string; name: string; emailVerified: boolean; image?: string | null };
  session: { id: string; userId: string; expiresAt: string };
};

// ----------------------------------------------------------------------------------- HTML

export { decodeEntities, mainText, visibleText };

// ----------------------------------------------------------------------------------- outbox

export type OutboxEntry = { channel: 'email' | 'sms' | 'whatsapp' | 'push'; recipient: string; subject: string; body: string; links: string[] };

/**
 * The messages listed on /dev/outbox (demo and test mode), newest first, read as the machine
 * itself reads it: straight from this host, with no X-Forwarded-For (a forwarded request is
 * never local, decision 061), whoever `client` is.
 */
export async function readOutbox(client: HttpClient): Promise<OutboxEntry[]> {
  const response = await new HttpClient(client.base, { address: null }).get('/dev/outbox');
  if (response.status !== 200) throw new Error(`/dev/outbox answered ${response.status}`);
  const html = await response.text();
  const entries: OutboxEntry[] = [];
  for (const match of html.matchAll(/<li\b[^>]*data-channel="(email|sms|whatsapp|push)"[^>]*>([\s\S]*?)<\/li>/g)) {
    const [, channel, inner = ''] = match;
    const recipient = decodeEntities(/<strong\b[^>]*>([\s\S]*?)<\/strong>/.exec(inner)?.[1] ?? '');
    // A WhatsApp message's subject is its template's name, shown as code.
    const subject = visibleText(/<(?:h2|code)\b[^>]*>([\s\S]*?)<\/(?:h2|code)>/.exec(inner)?.[1] ?? '');
    const body = visibleText(/<p\b[^>]*whitespace-pre-wrap[^>]*>([\s\S]*?)<\/p>/.exec(inner)?.[1] ?? '');
    const links = [...inner.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((link) => decodeEntities(link[1] ?? ''));
    entries.push({ channel: channel as OutboxEntry['channel'], recipient, subject, body, links });
  }
  return entries;
}

/** Polls /dev/outbox for the newest message to `recipient` that `match` accepts. */
export async function waitForOutbox(
  client: HttpClient,
  channel: OutboxEntry['channel'],
  recipient: string,
  match: (entry: OutboxEntry) => boolean = () => true,
  timeoutMs = 5000,
): Promise<OutboxEntry> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox(client)).find((entry) => entry.channel === channel && entry.recipient === recipient.toLowerCase() && match(entry));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No ${channel} to ${recipient} in /dev/outbox within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit code in an OTP SMS body. */
export function otpFrom(body: string): string {
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`No 6-digit code in: ${body}`);
  return code;
}

// ----------------------------------------------------------------------------------- flows

let counter = 0;
/** A fresh address on the example domain for each account a test creates. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}.${Date.now().toString(36)}${counter}${randomInt(1000, 9999)}@example.in`;
}

/** A fresh Indian mobile number (10 digits starting 9), without the country code. */
export function uniqueMobile(): string {
  return `9${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/** Signs up through the page's form; throws unless the server answers with a redirect. */
export async function signUp(client: HttpClient, email: string, password = 'correct-horse-7'): Promise<Response> {
  const response = await client.postForm('/signup', { intent: 'email', email, password });
  if (response.status !== 302 && response.status !== 303) {
    throw new Error(`sign-up of ${email} answered ${response.status}: ${mainText(await response.text()).slice(0, 300)}`);
  }
  return response;
}

/** Logs in through the page's form with a solved bot check; returns the raw response. */
export async function logIn(client: HttpClient, email: string, password: string): Promise<Response> {
  return client.postForm('/login', { intent: 'email', email, password, botCheck: await client.botToken('LOGIN') });
}

/** Sends the phone OTP through /profile-complete (bot check solved) and returns the 6-digit code from /dev/outbox. */
export async function requestOtp(client: HttpClient, mobile: string, name = '', extra: Record<string, string> = {}): Promise<Response> {
  return client.postForm('/profile-complete', {
    ...extra,
    intent: 'send',
    name,
    countryCode: '+91',
    phone: mobile,
    botCheck: await client.botToken('SEND_OTP'),
  });
}

/**
 * Completes the profile: OTP sent, read from /dev/outbox, verified with the name. Ends with the
 * redirect to /. `extra` fields are added to both posts (to show they change nothing).
 */
export async function completeProfile(client: HttpClient, name: string, mobile: string, extra: Record<string, string> = {}): Promise<void> {
  const sent = await requestOtp(client, mobile, name, extra);
  if (sent.status !== 200) throw new Error(`send OTP answered ${sent.status}`);
  const page = mainText(await sent.text());
  if (!page.includes('We sent a 6-digit code')) throw new Error(`send OTP did not succeed: ${page.slice(0, 300)}`);
  const sms = await waitForOutbox(client, 'sms', `+91${mobile}`);
  const verified = await client.postForm('/profile-complete', { ...extra, intent: 'verify', name, countryCode: '+91', phone: mobile, otp: otpFrom(sms.body) });
  if (verified.status !== 302 || verified.headers.get('location') !== '/') {
    throw new Error(`verify OTP answered ${verified.status} ${verified.headers.get('location')}: ${mainText(await verified.text()).slice(0, 300)}`);
  }
}

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/**
 * A GET over node:http to `baseUrl`: the path sent exactly as written (fetch() would resolve
 * '..' segments itself), only the headers given, and the body's bytes exactly as they came.
 */
export function rawGet(baseUrl: string, rawPath: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path: rawPath, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
