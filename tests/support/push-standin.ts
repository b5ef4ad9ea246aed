import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service of our own (what FCM, Mozilla's autopush or Apple's are to a real browser), on
 * loopback for the tests (decision 124). It takes the server's Web Push requests as a push service
 * does (RFC 8030), and checks what the browser's push service would:
 *
 * - the VAPID `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): the JWT's ES256 signature
 *   verified with `k`, its `aud` this stand-in's origin, `exp` within 24 hours, `sub` mailto:/https:;
 * - the payload, decrypted as the device would (RFC 8291 over RFC 8188's aes128gcm) with the
 *   device's private key and auth secret that the test made (`pushDevice()`): the server never
 *   sees them, so a payload that decrypts here was encrypted to that device and nobody else.
 *
 * Each device is a path (`/push/<id>`); the test tells the stand-in what to answer for it
 * (201 by default, a 410 for a device that is gone, a 500 for a failing service).
 */

export type PushDevice = {
  id: string;
  ecdh: ECDH;
  /** What the browser's `PushSubscription.toJSON()` would give. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
};

export type ReceivedPush = {
  deviceId: string;
  answered: number;
  headers: IncomingMessage['headers'];
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  /** The decrypted payload, parsed as JSON. */
  payload: { title: string; body: string; url: string; tag: string };
};

export type PushStandin = {
  origin: string;
  /** Makes a device: its key pair and auth secret, and a subscription whose endpoint is this stand-in. */
  device: (id?: string) => PushDevice;
  /** What the stand-in answers the next requests for `deviceId` (each used once, then 201). */
  answerNext: (deviceId: string, ...statuses: number[]) => void;
  /** Every request that got through the checks, oldest first. */
  received: ReceivedPush[];
  /** Requests refused by the checks (a wrong signature, a payload that did not decrypt), with the reason. */
  refused: string[];
  /** Waits until `count` pushes for `deviceId` arrived (any answer), or throws after `timeoutMs`. */
  waitFor: (deviceId: string, count?: number, timeoutMs?: number) => Promise<ReceivedPush[]>;
  forDevice: (deviceId: string) => ReceivedPush[];
  close: () => Promise<void>;
};

/** The aes128gcm body (RFC 8188 §2) decrypted for the device (RFC 8291 §3.4). */
export function decryptPush(body: Buffer, device: { ecdh: ECDH; auth: Buffer }): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + keyIdLength);
  const ciphertext = body.subarray(21 + keyIdLength);
  if (keyIdLength !== 65) throw new Error(`the key id is the sender's public key (65 bytes), not ${keyIdLength} bytes`);
  if (ciphertext.length > recordSize) throw new Error('more than one record: a notification fits in one');
  const ecdhSecret = device.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, device.auth, keyInfo, 32));
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record has no 0x02 delimiter');
  return padded.subarray(0, end);
}

/** The VAPID JWT checked as a push service checks it; the claims, or an error naming what is wrong. */
export function verifyVapid(authorization: string | undefined, audience: string): { aud: string; sub: string; exp: number; publicKey: string } {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`no VAPID Authorization header: ${authorization}`);
  const [, jwt, publicKey] = match as unknown as [string, string, string];
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) throw new Error('the JWT signature does not verify with k');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
  if (head.alg !== 'ES256') throw new Error(`the JWT is signed with ${head.alg}, not ES256`);
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; sub: string; exp: number };
  if (body.aud !== audience) throw new Error(`aud is ${body.aud}, not ${audience}`);
  const now = Date.now() / 1000;
  if (!(body.exp > now && body.exp <= now + 24 * 60 * 60 + 60)) throw new Error(`exp ${body.exp} is not within the next 24 hours`);
  if (!/^(mailto:|https:)/.test(body.sub)) throw new Error(`sub ${body.sub} is not mailto: or https:`);
  return { ...body, publicKey };
}

export async function startPushStandin(): Promise<PushStandin> {
  const devices = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const answers = new Map<string, number[]>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let origin = '';
  let counter = 0;

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const deviceId = /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '')?.[1] ?? '';
      const device = devices.get(deviceId);
      const refuse = (status: number, reason: string) => {
        refused.push(`${deviceId || request.url}: ${reason}`);
        response.writeHead(status).end(reason);
      };
      if (request.method !== 'POST' || !device) return refuse(404, 'no such subscription');
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding is ${request.headers['content-encoding']}`);
        if (!/^\d+$/.test(String(request.headers.ttl ?? ''))) throw new Error('no TTL header');
        const vapid = verifyVapid(request.headers.authorization, origin);
        const payload = JSON.parse(decryptPush(Buffer.concat(chunks), device).toString('utf8')) as ReceivedPush['payload'];
        const queued = answers.get(deviceId) ?? [];
        const answered = queued.shift() ?? 201;
        received.push({ deviceId, answered, headers: request.headers, vapid, payload });
        response.writeHead(answered, answered === 201 ? { location: `${origin}/message/${++counter}` } : {}).end();
      } catch (error) {
        refuse(400, error instanceof Error ? error.message : String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const forDevice = (deviceId: string) => received.filter((push) => push.deviceId === deviceId);

  return {
    origin,
    received,
    refused,
    forDevice,
    device(id = randomBytes(8).toString('hex')) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, auth });
      return {
        id,
        ecdh,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      };
    },
    answerNext(deviceId, ...statuses) {
      answers.set(deviceId, [...(answers.get(deviceId) ?? []), ...statuses]);
    },
    async waitFor(deviceId, count = 1, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (forDevice(deviceId).length < count) {
        if (refused.length > 0) throw new Error(`the push stand-in refused a request: ${refused.join('; ')}`);
        if (Date.now() > until) throw new Error(`${forDevice(deviceId).length} of ${count} pushes for device ${deviceId} arrived in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return forDevice(deviceId);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
