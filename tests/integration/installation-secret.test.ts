import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { AUTH_SECRET_FILE } from '../../server/http/startup.ts';

/**
 * An installation without AUTH_SECRET (the README's demo, a first try) signs with a secret it
 * made for itself, never one written in the code. With the old fixed demo secret anyone could
 * sign an email-verification token that verified, and signed into, any unverified account.
 */

const { dialect, url: sharedUrl } = sharedServer();

/** Secrets an attacker would try: the ones the code once carried, and the obvious ones. */
const GUESSES = [
  'gaadi-bazaar-test-secret-not-for-production-use',
  'gaadi-bazaar-demo-secret-not-for-production-use',
  'gaadi-bazaar-production-secret-not-for-production-use',
  'better-auth-secret-12345678901234567890',
  'x'.repeat(32),
  'secret',
];

/** A verification token as better-auth signs one (a JWT, HS256 over the address), with `secret`. */
function forgedToken(email: string, secret: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256' })}.${part({ email, iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe.skipIf(!sharedUrl)(`an installation's own secret (${dialect})`, () => {
  let server: TestServer;
  let other: TestServer;
  let peer: SmtpPeer;

  beforeAll(async () => {
    peer = await startSmtpPeer();
    // No AUTH_SECRET, each on a data folder of its own, as two fresh installations.
    [server, other] = await Promise.all([
      startTestServer({ dialect, seed: false, env: { SMTP_URL: peer.url, TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } }),
      startTestServer({ dialect, seed: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), other?.stop()]);
    await peer?.close();
  });

  test('a fresh installation makes its secret, keeps it in its data folder, says so once, and differs from another', async () => {
    const [mine, theirs] = await Promise.all([server, other].map((installation) => readFile(path.join(installation.dataDir, AUTH_SECRET_FILE), 'utf8')));
    expect(mine!.trim().length).toBeGreaterThanOrEqual(32);
    expect(mine).not.toBe(theirs);
    expect(server.output().match(/AUTH_SECRET is not set: made a random secret/g)).toHaveLength(1);
  });

  test('a verification token signed with a guessed secret verifies nobody, through the API or the mail’s link', async () => {
    const email = uniqueEmail('forged');
    const owner = new HttpClient(server.url);
    await signUp(owner, email);
    await peer.waitForMessage((received) => received.envelopeTo.includes(email), 10_000);
    for (const secret of GUESSES) {
      const token = forgedToken(email, secret);
      const attacker = new HttpClient(server.url);
      const answer = await attacker.request('/api/v1/auth/verify-email', {
        method: 'POST',
        body: JSON.stringify({ token }),
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, `a token signed with ${secret}`).toBe(400);
      await answer.body?.cancel();
      await attacker.open(`/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=%2Fprofile`);
      expect(await attacker.session(), `the site's link with a token signed with ${secret}`).toBeNull();
    }
    expect((await owner.session())?.user.emailVerified).toBe(false);
    // The same token signed with the secret in the data folder does verify: the forgery above is
    // made right, and only the secret stood in its way.
    const real = forgedToken(email, (await readFile(path.join(server.dataDir, AUTH_SECRET_FILE), 'utf8')).trim());
    const answer = await new HttpClient(server.url).request('/api/v1/auth/verify-email', {
      method: 'POST',
      body: JSON.stringify({ token: real }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
    expect((await owner.session())?.user.emailVerified).toBe(true);
  });
});
