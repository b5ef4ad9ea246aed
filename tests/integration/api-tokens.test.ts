import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient, logIn, mainText, signUp, uniqueEmail, waitForOutbox } from '../support/http-client.ts';
import { googleIdentity, startOidcProvider, type OidcProvider } from '../support/oidc.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The Android app's sign-in with bearer tokens (decision 074), through the built server on
 * SQLite and PostgreSQL: sign-up, the verification mail, sign-in, Google by an ID token from
 * the phone (a local OpenID server stands in for Google, with its JWKS), the token on /api/v1
 * and nowhere else, the Origin check it skips, sign-out, devices and revocation at once, and
 * what hostile or concurrent requests get.
 */

const { dialect, url: sharedUrl } = sharedServer();
const PASSWORD = 'masala-dosa-42';

type Json = Record<string, unknown>;

describe.skipIf(!sharedUrl)(`API: app sign-in with tokens (${dialect})`, () => {
  let server: TestServer;
  let oidc: OidcProvider;

  beforeAll(async () => {
    oidc = await startOidcProvider();
    server = await startTestServer({ dialect, seed: false, env: { ...oidc.env, TRUST_PROXY: 'true', AUTH_SECRET: randomBytes(32).toString('hex') } });
  });
  afterAll(async () => {
    await server?.stop();
    await oidc?.stop();
  });

  /** A phone: its own address, no cookies kept unless a test sends them, the site's Origin on writes (before it has a token). */
  const phone = () => new HttpClient(server.url);

  async function api(
    client: HttpClient,
    method: string,
    path: string,
    options: { body?: unknown; token?: string; origin?: string | null; raw?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined || options.raw !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        ...headers,
        ...(client.address ? { 'x-forwarded-for': client.address } : {}),
        ...(method !== 'GET' && options.origin !== null ? { origin: options.origin ?? server.url } : {}),
      },
      ...(options.raw !== undefined ? { body: options.raw } : options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const type = response.headers.get('content-type') ?? '';
    const body = (type.includes('json') ? await response.json() : await response.text()) as Json;
    return { status: response.status, type, body, headers: response.headers };
  }

  async function signInForToken(client: HttpClient, email: string, password = PASSWORD): Promise<string> {
    const answer = await api(client, 'POST', '/auth/sign-in', { body: { email, password, botCheck: await client.botToken('LOGIN') } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.token as string;
  }

  async function newAccount(label: string): Promise<{ client: HttpClient; email: string; token: string }> {
    const client = phone();
    const email = uniqueEmail(label);
    const answer = await api(client, 'POST', '/auth/sign-up', { body: { name: 'Asha Verma', email, password: PASSWORD } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return { client, email, token: answer.body.token as string };
  }

  const expectProblem = (answer: { status: number; type: string; body: Json }, status: number) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.type).toContain('application/problem+json');
    expect(answer.body.status).toBe(status);
    expect(typeof answer.body.detail).toBe('string');
  };

  test('sign up, verify the email from the mail, sign in: each answers a token the API takes; pages never show it', async () => {
    const client = phone();
    const email = uniqueEmail('app');
    const signedUp = await api(client, 'POST', '/auth/sign-up', { body: { name: 'Asha Verma', email, password: PASSWORD } });
    expect(signedUp.status).toBe(201);
    expect(signedUp.headers.getSetCookie(), 'the app gets a token, not a cookie').toEqual([]);
    expect(signedUp.body).toMatchObject({
      token: expect.any(String),
      expiresAt: expect.stringMatching(/\+05:30$/),
      user: { email, name: 'Asha Verma', emailVerified: false },
    });
    // 30 days from now, give or take the request.
    const days = (Date.parse(signedUp.body.expiresAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    const mail = await waitForOutbox(client, 'email', email);
    const link = mail.links.find((href) => href.includes('/api/auth/verify-email'));
    const token = new URL(link!).searchParams.get('token')!;
    const verified = await api(client, 'POST', '/auth/verify-email', { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ verified: true, token: expect.any(String), user: { email, emailVerified: true } });
    const again = await api(client, 'POST', '/auth/verify-email', { body: { token }, token: signedUp.body.token as string });
    expect(again.body, 'an address already verified makes no new session').toEqual({ verified: true });

    const bearer = await signInForToken(client, email);
    const data = await api(client, 'GET', '/me/data', { token: bearer });
    expect(data.status).toBe(200);
    const devices = await api(client, 'GET', '/me/devices', { token: bearer });
    expect(devices.status).toBe(200);
    const items = devices.body.items as Json[];
    expect(items).toHaveLength(3);
    expect(items.filter((item) => item.current)).toHaveLength(1);
    for (const item of items) {
      expect(item).toMatchObject({ kind: 'app', label: 'Android app', id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
      expect(bearer).not.toContain(item.id as string);
    }
  });

  test('the token is taken by the other signed-in endpoints too (profile, wishlist), which read it through currentUser', async () => {
    const { client, token } = await newAccount('others');
    for (const path of ['/me/profile', '/me/wishlist', '/me/bookings', '/me/test-drives', '/me/licence']) {
      expect((await api(client, 'GET', path, { token })).status, path).toBe(200);
      expect((await api(client, 'GET', path)).status, `${path} without the token`).toBe(401);
    }
  });

  test('a device id cannot sign in, and the session cookie endpoint never hands out a token header', async () => {
    const { client, token } = await newAccount('opaque');
    const items = (await api(client, 'GET', '/me/devices', { token })).body.items as Json[];
    const asToken = await api(client, 'GET', '/me/devices', { token: items[0]!.id as string });
    expectProblem(asToken, 401);
    const withCookie = await fetch(`${server.url}/api/auth/get-session`, { headers: { authorization: `Bearer ${token}` } });
    expect(withCookie.status, 'better-auth’s own routes refuse a bearer token').toBe(401);
  });

  test('the app signs up and signs in as itself: no Origin, no cookie', async () => {
    const client = phone();
    const email = uniqueEmail('native');
    const signedUp = await api(client, 'POST', '/auth/sign-up', { origin: null, body: { name: 'Asha Verma', email, password: PASSWORD } });
    expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(201);
    expect(signedUp.body.token).toEqual(expect.any(String));
    const signedIn = await api(client, 'POST', '/auth/sign-in', {
      origin: null,
      body: { email, password: PASSWORD, botCheck: await client.botToken('LOGIN') },
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.headers.getSetCookie(), 'the app gets its token in the body, no cookie').toEqual([]);
    // A browser page on another site posting the same is refused, cookie or not.
    expect((await api(client, 'POST', '/auth/sign-in', { origin: 'https://evil.example', body: { email, password: PASSWORD } })).status).toBe(403);
  });

  test('a bearer token with no cookie skips the Origin check on /api/v1 only; with a cookie it does not', async () => {
    const { client, token } = await newAccount('csrf');
    const noOrigin = await api(client, 'POST', '/me/phone/code', { token, origin: null, body: { phone: '12' } });
    expect(noOrigin.status, 'past the Origin check: the body is what is refused').toBe(400);
    const withCookie = await api(client, 'POST', '/me/phone/code', { token, origin: null, body: { phone: '12' }, headers: { cookie: 'theme=dark' } });
    expect(withCookie.status).toBe(403);
    // No token, no cookie, no Origin: an app's request, past the check, and not signed in.
    const noToken = await api(client, 'POST', '/auth/sign-out', { origin: null });
    expectProblem(noToken, 401);
    // The same from a browser page on another site (its Origin) is refused.
    const crossSite = await api(client, 'POST', '/auth/sign-out', { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const forged = await api(client, 'POST', '/auth/sign-out', { origin: null, token: `${token.slice(0, -4)}AAAA` });
    expectProblem(forged, 401);
  });

  test('sign-out and revoking a device refuse that token at once; another person’s device is not found', async () => {
    const { client, email, token: first } = await newAccount('revoke');
    const second = await signInForToken(client, email);
    const third = await signInForToken(client, email);

    const signedOut = await api(client, 'POST', '/auth/sign-out', { token: first, origin: null });
    expect(signedOut.status).toBe(200);
    expectProblem(await api(client, 'GET', '/me/devices', { token: first }), 401);

    const devices = (await api(client, 'GET', '/me/devices', { token: second })).body.items as Json[];
    expect(devices).toHaveLength(2);
    const other = devices.find((device) => !device.current)!;

    const stranger = await newAccount('stranger');
    expectProblem(await api(stranger.client, 'DELETE', `/me/devices/${other.id as string}`, { token: stranger.token }), 404);
    expect((await api(client, 'GET', '/me/devices', { token: third })).status, 'a stranger revoked nothing').toBe(200);

    for (const id of ['1', 'x'.repeat(5000), '99999999999999999999999999', '%00', 'AAAAAAAAAAAAAAAAAAAAAA']) {
      const answer = await api(client, 'DELETE', `/me/devices/${encodeURIComponent(id)}`, { token: second });
      expect([404, 414], id.slice(0, 20)).toContain(answer.status);
      if (answer.status === 404) expectProblem(answer, 404);
    }

    const revoked = await api(client, 'DELETE', `/me/devices/${other.id as string}`, { token: second });
    expect(revoked.status).toBe(200);
    expectProblem(await api(client, 'GET', '/me/devices', { token: third }), 401);
    expect((await api(client, 'GET', '/me/devices', { token: second })).status).toBe(200);
  });

  test('a deleted account’s token is refused at once', async () => {
    const { client, token } = await newAccount('deleted');
    const deleted = await api(client, 'POST', '/me/delete', { token, origin: null, body: { password: PASSWORD } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expectProblem(await api(client, 'GET', '/me/devices', { token }), 401);
    expect((await api(client, 'GET', '/me/data', { token })).status).toBe(401);
  });

  test('sign-in refuses as the login page does: wrong password, bad address, missing bot check', async () => {
    const { client, email } = await newAccount('refusals');
    const wrong = await api(client, 'POST', '/auth/sign-in', { body: { email, password: 'not-it-at-all', botCheck: await client.botToken('LOGIN') } });
    expectProblem(wrong, 401);
    expect(wrong.body.detail).toBe('Invalid email or password');
    const badAddress = await api(client, 'POST', '/auth/sign-in', { body: { email: 'nobody', password: PASSWORD } });
    expectProblem(badAddress, 400);
    expect(badAddress.body.detail).toBe('Please enter a valid email address.');
    const noCheck = await api(client, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    expectProblem(noCheck, 400);
    expect(noCheck.body.detail).toBe('reCAPTCHA verification failed');
    const taken = await api(phone(), 'POST', '/auth/sign-up', { body: { name: '', email, password: PASSWORD } });
    expectProblem(taken, 409);
    expect(taken.body.detail).toBe('This email is already registered. Please log in instead.');
    const bad = await api(phone(), 'POST', '/auth/verify-email', { body: { token: 'eyJhbGciOiJIUzI1NiJ9.e30.forged' } });
    expectProblem(bad, 400);
  });

  test('hostile bodies on every new endpoint answer problem+json 4xx, never 5xx', async () => {
    const { client, token } = await newAccount('hostile');
    const paths = ['/auth/sign-up', '/auth/sign-in', '/auth/verify-email', '/auth/google'];
    const bodies: Array<{ raw?: string; body?: unknown }> = [
      { raw: '{"email": ' },
      { raw: 'null' },
      { raw: '[1,2,3]' },
      { body: { email: 42, password: ['x'], name: { a: 1 }, token: 7, idToken: false } },
      { body: { email: 'a\u0000@example.in', password: 'x\u0000y', name: 'A\u0000', token: 'a\u0000b', idToken: 'a\u0000b' } },
      { body: { email: `${'a'.repeat(100_000)}@example.in`, password: 'p'.repeat(100_000), token: 't'.repeat(100_000), idToken: 'i'.repeat(100_000) } },
    ];
    for (const path of paths) {
      for (const input of bodies) {
        const answer = await api(phone(), 'POST', path, input);
        expect(answer.status, `${path} ${JSON.stringify(input).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path} ${JSON.stringify(input).slice(0, 60)}`).toBeLessThan(500);
        // NUL bytes are refused by the edge's control-character check for all of /api/v1 before the
        // route runs; that shared refusal's shape is the edge's (JSON), every other one here is the route's.
        // The same for a body over the edge's size limit (413, decision 011).
        if (JSON.stringify(input).includes('\\u0000')) expect(answer.type, path).toMatch(/json/);
        else if (answer.status === 413) expect(answer.type, path).toMatch(/text\/plain|problem\+json/);
        else expectProblem(answer, answer.status);
      }
    }
    for (const [method, path] of [
      ['POST', '/auth/sign-out'],
      ['GET', '/me/devices'],
      ['DELETE', '/me/devices/AAAAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      for (const forged of ['', 'abc', 'abc.def', `${token}x`, 'a'.repeat(10_000), `${token.split('.')[0]}.${'A'.repeat(43)}`]) {
        const answer = await api(client, method, path, { origin: server.url, headers: { authorization: `Bearer ${forged}` } });
        expectProblem(answer, 401);
      }
    }
  });

  test('Google: an ID token from the phone signs in, checked against the JWKS, issuer, audience and expiry', async () => {
    const client = phone();
    const identity = googleIdentity(uniqueEmail('google'), 'Ravi Kumar');
    const signedIn = await api(client, 'POST', '/auth/google', { body: { idToken: await oidc.idToken(identity) } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body).toMatchObject({ token: expect.any(String), user: { email: identity.email, name: 'Ravi Kumar', emailVerified: true } });
    expect((await api(client, 'GET', '/me/devices', { token: signedIn.body.token as string })).status).toBe(200);
    const again = await api(client, 'POST', '/auth/google', { body: { idToken: await oidc.idToken(identity) } });
    expect((again.body.user as Json).id, 'the same person signs in again').toBe((signedIn.body.user as Json).id);

    const refused = [
      await oidc.idToken(identity, (claims) => (claims.aud = 'someone-else.apps.googleusercontent.com')),
      await oidc.idToken(identity, (claims) => (claims.iss = 'https://accounts.example.com')),
      await oidc.idToken(identity, (claims) => {
        claims.iat = Math.floor(Date.now() / 1000) - 7200;
        claims.exp = Math.floor(Date.now() / 1000) - 3600;
      }),
      oidc.forgedIdToken(identity),
      'not-a-jwt',
    ];
    for (const idToken of refused) {
      const answer = await api(client, 'POST', '/auth/google', { body: { idToken } });
      expectProblem(answer, 401);
      expect(answer.body.detail).toBe('Failed to sign in with Google');
    }

    const { email } = await newAccount('linked');
    const passwordAccount = await api(client, 'POST', '/auth/google', { body: { idToken: await oidc.idToken(googleIdentity(email)) } });
    expectProblem(passwordAccount, 409);
    expect(passwordAccount.body.reason).toBe('account-not-linked');
  });

  test('twenty identical sign-ups at once make one account', async () => {
    const client = phone();
    const email = uniqueEmail('race');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api(client, 'POST', '/auth/sign-up', { body: { name: 'Race', email, password: PASSWORD } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(
      statuses.every((status) => status === 201 || status === 409 || status === 429),
      statuses.join(','),
    ).toBe(true);
    for (const answer of answers.filter((each) => each.status !== 201)) expect(answer.type).toContain('application/problem+json');
    expect(answers.filter((answer) => answer.status === 429).every((answer) => Number(answer.headers.get('retry-after')) > 0)).toBe(true);
  });

  test('twenty sign-ins at once past the limit answer 429 with Retry-After', async () => {
    const { email } = await newAccount('limit');
    const client = phone();
    const tokens = await Promise.all(Array.from({ length: 20 }, () => client.botToken('LOGIN')));
    const answers = await Promise.all(
      tokens.map((botCheck) => api(client, 'POST', '/auth/sign-in', { body: { email, password: 'wrong-password-1', botCheck } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    for (const answer of answers.filter((each) => each.status === 429)) {
      expectProblem(answer, 429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.detail).toBe('Too many attempts. Please try again later or reset your password.');
    }
  });

  test('the profile page lists the site’s and the app’s devices, and Revoke signs one out at once', async () => {
    const browser = new HttpClient(server.url);
    const email = uniqueEmail('profile');
    await signUp(browser, email, PASSWORD);
    const app = phone();
    const token = await signInForToken(app, email);
    const page = await browser.get('/profile');
    const html = await page.text();
    expect(html).toContain('Signed-in devices');
    expect(html).toContain('Android app');
    expect(html).toContain('This device');
    expect(html, 'the token is never on the page').not.toContain(token.split('.')[0]);
    const appDevice = ((await api(app, 'GET', '/me/devices', { token })).body.items as Json[]).find((device) => device.current)!;
    // The profile's buttons are read by its schema (decision 109): a wrong device or booking is one not found, never a 500.
    for (const [fields, notice] of [
      [{ intent: 'revoke-device', deviceId: '' }, 'This device was not found.'],
      [{ intent: 'cancel-booking', bookingId: 'first' }, 'This booking was not found.'],
      [{ intent: 'explode' }, 'This booking was not found.'],
    ] as const) {
      const refused = await browser.postForm('/profile', fields);
      expect(refused.status, JSON.stringify(fields)).toBe(404);
      expect(mainText(await refused.text())).toContain(notice);
    }
    const revoked = await browser.postForm('/profile', { intent: 'revoke-device', deviceId: appDevice.id as string });
    expect(revoked.status).toBe(200);
    expectProblem(await api(app, 'GET', '/me/devices', { token }), 401);
    const logInAgain = await logIn(browser, email, PASSWORD);
    expect([302, 303]).toContain(logInAgain.status);
  });
});
