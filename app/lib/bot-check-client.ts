/**
 * The browser side of the bot check (server/security/bot-check.ts). Small on purpose: no
 * imports; a compact SHA-256 does the hashing (see solveAltchaChallenge for why not Web Crypto).
 *
 * ALTCHA (default): fetch a challenge for the action, find the counter whose
 * SHA-256(salt || nonce || counter as uint32 big-endian) starts with the published key
 * prefix, and return the base64 JSON payload the server's `verify` accepts.
 */

export type BotCheckProvider = 'altcha' | 'recaptcha' | 'turnstile';

export type BotCheckClientConfig = {
  provider: BotCheckProvider;
  /** The public site key (reCAPTCHA/Turnstile only). */
  siteKey?: string;
  /** Where ALTCHA challenges come from; `?action=` is appended. */
  challengeUrl?: string;
  signal?: AbortSignal;
};

/** An ALTCHA v2 challenge as the server issues it (the fields the solver reads). */
export type AltchaChallenge = {
  parameters: { algorithm: string; nonce: string; salt: string; keyPrefix: string; keyLength?: number; cost?: number; [key: string]: unknown };
  signature?: string;
};

type Grecaptcha = { ready: (callback: () => void) => void; execute: (siteKey: string, options: { action: string }) => Promise<string> };
type Turnstile = { render: (element: HTMLElement, options: Record<string, unknown>) => string | undefined; remove: (widgetId: string) => void };

/**
 * Produces the token to send with a form as `botCheck` for the given action. Rejects when
 * the check cannot run (network failure, vendor script missing).
 */
export async function solveBotCheck(action: string, config: BotCheckClientConfig = { provider: 'altcha' }): Promise<string> {
  if (config.provider === 'recaptcha') return recaptchaToken(action, config.siteKey ?? '');
  if (config.provider === 'turnstile') return turnstileToken(action, config.siteKey ?? '');
  const url = `${config.challengeUrl ?? '/api/bot-check/challenge'}?action=${encodeURIComponent(action)}`;
  const response = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin', signal: config.signal });
  if (!response.ok) throw new Error(`Could not get a bot-check challenge (HTTP ${response.status})`);
  return solveAltchaChallenge((await response.json()) as AltchaChallenge, { signal: config.signal });
}

/**
 * Solves an ALTCHA v2 SHA-256 challenge and returns the payload string for the server. Gives
 * up after `maxCounter` tries (far above the server's 50 000) or when `signal` aborts.
 *
 * The hashing is plain JavaScript rather than `crypto.subtle.digest`: Web Crypto is async per
 * hash, and in Chromium the round trip per 36-byte message costs more than the hash itself.
 * Measured in Chromium with 4x CPU throttling (Lighthouse's mid-range phone), this loop did
 * 50 000 hashes about 3x faster than Web Crypto batched by 500 (figures in
 * docs/decisions/014-newcomer-first-minutes.md). It also works outside a secure context, where
 * `crypto.subtle` does not exist (the site on plain http at a LAN address). tests/unit/
 * bot-check-sha256.test.ts checks it against node:crypto. It yields to the event loop every
 * few milliseconds so the page stays responsive.
 */
export async function solveAltchaChallenge(challenge: AltchaChallenge, options: { signal?: AbortSignal; maxCounter?: number } = {}): Promise<string> {
  const { algorithm, nonce, salt, keyPrefix, keyLength = 32, cost = 1 } = challenge.parameters;
  if (algorithm !== 'SHA-256' || cost !== 1 || keyLength > 32) throw new Error(`Unsupported bot-check challenge (${algorithm}, cost ${cost})`);
  const prefix = keyPrefix.toLowerCase();
  const prefixBytes = hexToBytes(prefix.slice(0, prefix.length - (prefix.length % 2)));
  const saltBytes = hexToBytes(salt);
  const nonceBytes = hexToBytes(nonce);
  const maxCounter = options.maxCounter ?? 1_000_000;
  const start = performance.now();

  // The message is salt || nonce || counter (uint32, big-endian); pad it once and rewrite
  // only the counter bytes on each try.
  const length = saltBytes.length + nonceBytes.length + 4;
  const message = new Uint8Array((((length + 8) >> 6) + 1) * 64);
  message.set(saltBytes, 0);
  message.set(nonceBytes, saltBytes.length);
  message[length] = 0x80;
  const bits = length * 8;
  message[message.length - 2] = bits >>> 8;
  message[message.length - 1] = bits & 0xff;
  const state = new Int32Array(8);
  const byteOf = (index: number) => (state[index >> 2]! >>> (24 - 8 * (index & 3))) & 0xff;

  let lastYield = start;
  for (let counter = 0; counter <= maxCounter; counter++) {
    if ((counter & 1023) === 0 && performance.now() - lastYield > 30) {
      options.signal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastYield = performance.now();
    }
    message[length - 4] = counter >>> 24;
    message[length - 3] = (counter >>> 16) & 0xff;
    message[length - 2] = (counter >>> 8) & 0xff;
    message[length - 1] = counter & 0xff;
    sha256(message, state);
    let matches = true;
    for (let index = 0; index < prefixBytes.length && matches; index++) matches = byteOf(index) === prefixBytes[index];
    if (!matches) continue;
    const key = new Uint8Array(keyLength).map((_, index) => byteOf(index));
    const derivedKey = bytesToHex(key);
    if (!derivedKey.startsWith(prefix)) continue; // an odd last prefix digit
    const solution = { counter, derivedKey, time: Math.round(performance.now() - start) };
    const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
    // All fields are ASCII (hex, digits, action names), so btoa is safe.
    return btoa(JSON.stringify(payload));
  }
  throw new Error('The bot-check challenge could not be solved');
}

const roundConstants = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const initialState = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const schedule = new Int32Array(64);

/** SHA-256 of any message as hex, through the same code the solver uses (for the unit tests). */
export function sha256Hex(message: Uint8Array): string {
  const padded = new Uint8Array((((message.length + 8) >> 6) + 1) * 64);
  padded.set(message, 0);
  padded[message.length] = 0x80;
  // The length in bits, big-endian, in the last 8 bytes (messages here stay far below 2^32 bits).
  const bits = message.length * 8;
  padded[padded.length - 4] = bits >>> 24;
  padded[padded.length - 3] = (bits >>> 16) & 0xff;
  padded[padded.length - 2] = (bits >>> 8) & 0xff;
  padded[padded.length - 1] = bits & 0xff;
  const state = new Int32Array(8);
  sha256(padded, state);
  return [...state].map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}

/** SHA-256 (FIPS 180-4) of an already padded message, written into `state` as eight words. */
function sha256(padded: Uint8Array, state: Int32Array) {
  const w = schedule;
  let [h0, h1, h2, h3, h4, h5, h6, h7] = initialState as [number, number, number, number, number, number, number, number];
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const at = offset + i * 4;
      w[i] = (padded[at]! << 24) | (padded[at + 1]! << 16) | (padded[at + 2]! << 8) | padded[at + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + roundConstants[i]! + w[i]!) | 0;
      const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state.set([h0, h1, h2, h3, h4, h5, h6, h7]);
}

async function recaptchaToken(action: string, siteKey: string): Promise<string> {
  const grecaptcha = (globalThis as { grecaptcha?: Grecaptcha }).grecaptcha;
  if (!grecaptcha) throw new Error('reCAPTCHA has not loaded');
  await new Promise<void>((resolve) => grecaptcha.ready(resolve));
  return grecaptcha.execute(siteKey, { action });
}

/** Renders an (invisible or managed) Turnstile widget off to the side and waits for its token. */
async function turnstileToken(action: string, siteKey: string): Promise<string> {
  const turnstile = (globalThis as { turnstile?: Turnstile }).turnstile;
  if (!turnstile) throw new Error('Turnstile has not loaded');
  const container = document.createElement('div');
  document.body.append(container);
  let widgetId: string | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      widgetId = turnstile.render(container, {
        sitekey: siteKey,
        action,
        callback: resolve,
        'error-callback': () => reject(new Error('Turnstile failed')),
        'expired-callback': () => reject(new Error('Turnstile token expired')),
      });
    });
  } finally {
    if (widgetId) turnstile.remove(widgetId);
    container.remove();
  }
}

function hexToBytes(hex: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error('Malformed bot-check challenge');
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
