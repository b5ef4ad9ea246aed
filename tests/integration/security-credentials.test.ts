import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import {
  HttpClient,
  logIn,
  mainText,
  parseSetCookie,
  randomAddress,
  requestOtp,
  signUp,
  uniqueEmail,
  uniqueMobile,
  waitForOutbox,
} from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { SESSION_COOKIE_NAME as SESSION_COOKIE } from '../../server/auth/session-cookie.ts';

/**
 * The credential endpoints and the sign-in limits (issue 8; docs/decisions/009 and 010), on
 * SQLite and PostgreSQL: which better-auth endpoints answer over HTTP, what get-session shows,
 * brute force through every sign-in path, a stranger trying to lock an owner out, a staff
 * account slowed for unknown devices under guessing from many addresses (decision 094), field
 * lengths, squatting an admin address, and where an admin lands after signing in.
 *
 * The server trusts X-Forwarded-For (TRUST_PROXY=true, as behind the production proxy), so
 * each HttpClient is a person at an address of its own.
 */

const { dialect, url: sharedUrl } = sharedServer();

const ADMIN = 'admin@gaadibazaar.in';
const MANAGER = 'manager@gaadibazaar.in';
const OWNER = 'owner@gaadibazaar.in';
const PASSWORD = 'secret123';
const USER_PASSWORD = 'idli-vada-2026';
const KNOWN_DEVICE_COOKIE = 'gb.known_device';

const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  invalidEmail: 'Please enter a valid email address.',
  tooManyAttempts: 'Too many attempts. Please try again later or reset your password.',
  adminTooMany: 'Too many failed login attempts. Please try again later or reset your password.',
  adminWrongPassword: 'Incorrect email or password. Please try again or reset your password.',
  adminAccountSlowed: 'Too many failed sign-ins on this account. Please try again in',
  adminBothRequired: 'Please enter both email and password.',
  botCheckFailed: 'reCAPTCHA verification failed',
  staffAddress: "This email address belongs to the dealer's staff. Staff accounts are created from the admin panel; please sign up with your own email.",
  adminCreated: 'Admin account created! Please verify your email before logging in.',
  alreadyRegistered: 'This email is already registered. Please log in instead.',
  nameTooLong: 'Please keep your name to 100 characters.',
} as const;

describe.skipIf(!sharedUrl)(`security: credential endpoints and sign-in limits (${dialect})`, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      seed: false,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true', ADMIN_EMAILS: [ADMIN, MANAGER, OWNER].join(',') },
    });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  const client = (address?: string) => new HttpClient(server.url, address ? { address } : {});

  /** The page's text after a form post that was refused (the page again, no session cookie). */
  async function refusal(response: Response): Promise<string> {
    expect(response.status, 'a refused form answers with the page again').toBe(200);
    expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`) && !cookie.startsWith(`${SESSION_COOKIE}=;`))).toEqual(
      [],
    );
    return mainText(await response.text());
  }

  async function adminLogIn(visitor: HttpClient, email: string, password: string, redirectTo?: string): Promise<Response> {
    const path = redirectTo === undefined ? '/admin-login' : `/admin-login?redirectTo=${encodeURIComponent(redirectTo)}`;
    return visitor.postForm(path, { email, password, botCheck: await visitor.botToken('LOGIN') });
  }

  async function newAccount(): Promise<{ email: string; owner: HttpClient }> {
    const owner = client();
    const email = uniqueEmail('cred');
    await signUp(owner, email, USER_PASSWORD);
    return { email, owner };
  }

  // ------------------------------------------------------------------------------ /api/auth surface

  describe('better-auth over HTTP', () => {
    test.each([
      ['POST', '/api/auth/sign-up/email', { email: 'victim@example.in', password: 'password-1', name: 'x' }],
      ['POST', '/api/auth/sign-in/email', { email: ADMIN, password: PASSWORD }],
      ['POST', '/api/auth/send-verification-email', { email: 'victim@example.in' }],
      ['POST', '/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'another-1' }],
      ['POST', '/api/auth/request-password-reset', { email: ADMIN }],
      ['POST', '/api/auth/update-user', { name: 'Hacker' }],
      ['POST', '/api/auth/sign-out', {}],
      ['POST', '/api/auth/sign-in/social', { provider: 'google' }],
      ['GET', '/api/auth/list-sessions', null],
      ['GET', '/api/auth/ok', null],
      ['POST', '/api/auth/get-session', {}],
      ['POST', '/api/auth/verify-email', {}],
    ] as const)('%s %s answers a 404 problem and does nothing', async (method, path, body) => {
      const visitor = client();
      const response = await visitor.request(path, {
        method,
        ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Not found',
        instance: expect.stringMatching(/^urn:request:/),
      });
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    test('a raw sign-up created no account: its address can sign up on the page afterwards', async () => {
      const email = uniqueEmail('raw');
      // Five million characters are far over the edge's body limit for /api: refused unread.
      // Sent on a connection of its own that waits for the early answer, as a careful client
      // does: a connection answered mid-body is not fit for reuse by the next test.
      const body = JSON.stringify({ email, password: 'password-1', name: 'x'.repeat(5_000_000) });
      const status = await new Promise<number>((resolve, reject) => {
        const { hostname, port } = new URL(server.url);
        const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), origin: server.url };
        const outgoing = httpRequest({ host: hostname, port, path: '/api/auth/sign-up/email', method: 'POST', headers, agent: false }, (response) => {
          response.resume();
          outgoing.destroy();
          resolve(response.statusCode ?? 0);
        });
        outgoing.on('error', reject);
        outgoing.flushHeaders();
        setTimeout(() => outgoing.end(body), 300);
      });
      expect(status).toBe(413);
      await signUp(client(), email, USER_PASSWORD);
    });

    test('get-session shows the user and the session, never the session token', async () => {
      const { email, owner } = await newAccount();
      const response = await owner.get('/api/auth/get-session');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.text();
      const body = JSON.parse(text) as { user: { email: string }; session: Record<string, unknown> };
      expect(body.user.email).toBe(email);
      expect(body.session.userId).toBeTruthy();
      expect(body.session).not.toHaveProperty('token');
      const token = decodeURIComponent(owner.jar.get(SESSION_COOKIE)!.value).split('.')[0]!;
      expect(token.length).toBeGreaterThan(10);
      expect(text).not.toContain(token);

      expect(await client().session(), 'signed out: null').toBeNull();
    });

    test('verify-email is limited per address (30 in 15 minutes), and another address is not affected', async () => {
      const prober = client();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 32; attempt++) {
        const response = await prober.get(`/api/auth/verify-email?token=forged-${attempt}&callbackURL=%2F`);
        statuses.push(response.status);
        await response.body?.cancel();
      }
      expect(
        statuses.slice(0, 30).every((status) => status !== 429 && status < 500),
        statuses.join(','),
      ).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429]);
      const other = await client().get('/api/auth/verify-email?token=forged&callbackURL=%2F');
      expect(other.status).not.toBe(429);
      await other.body?.cancel();
    });

    test('the Google callback is limited per address too (Google is off on this server: it answers, never 500)', async () => {
      const prober = client();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 31; attempt++) {
        const response = await prober.get(`/api/auth/callback/google?code=x${attempt}&state=y`);
        statuses.push(response.status);
        await response.body?.cancel();
      }
      expect(
        statuses.slice(0, 30).every((status) => status < 500 && status !== 429),
        statuses.join(','),
      ).toBe(true);
      expect(statuses[30]).toBe(429);
    });

    test("better-auth's own limiter keeps its counters in the database, and never sees the pages' sign-ins", async () => {
      const { email } = await newAccount();
      // Five sign-ins in a row from one address: better-auth's built-in rule for sign-in (3 in
      // 10 seconds) would refuse the fourth if its HTTP limiter saw the pages' API calls.
      const visitor = client();
      for (let round = 1; round <= 5; round++) {
        const response = await logIn(visitor, email, USER_PASSWORD);
        expect(response.status, `sign-in ${round}`).toBe(302);
      }
      await visitor.session();
      const database = openServerDatabase(server);
      try {
        // The table is better-auth's own (created with the others at start); not in our typed schema.
        const rows = (await (
          database.db as unknown as { selectFrom: (table: string) => { selectAll: () => { execute: () => Promise<Array<{ key: string }>> } } }
        )
          .selectFrom('rateLimit')
          .selectAll()
          .execute()) as Array<{ key: string }>;
        expect(
          rows.some((row) => row.key === `${visitor.address}|/get-session`),
          rows.map((row) => row.key).join(', '),
        ).toBe(true);
        expect(rows.some((row) => row.key.includes('/sign-in'))).toBe(false);
      } finally {
        await database.close();
      }
    });
  });

  // ------------------------------------------------------------------------------ brute force

  describe('password guessing', () => {
    test('/login: 30 guesses from one address get 10 answers, then "Too many attempts", even for the right password', async () => {
      const { email } = await newAccount();
      const attacker = client();
      const answers: string[] = [];
      for (let attempt = 1; attempt <= 30; attempt++) {
        const text = await refusal(await logIn(attacker, email, `guess-${attempt}`));
        answers.push(text.includes(MESSAGES.tooManyAttempts) ? 'too-many' : text.includes(MESSAGES.invalidCredentials) ? 'invalid' : text);
      }
      expect(answers.slice(0, 10)).toEqual(Array(10).fill('invalid'));
      expect(answers.slice(10)).toEqual(Array(20).fill('too-many'));
      expect(await refusal(await logIn(attacker, email, USER_PASSWORD))).toContain(MESSAGES.tooManyAttempts);
    });

    test('/login: guesses sent all at once cannot slip past the limit', async () => {
      const { email } = await newAccount();
      const attacker = client();
      const tokens = await Promise.all(Array.from({ length: 20 }, () => attacker.botToken('LOGIN')));
      const responses = await Promise.all(
        tokens.map((botCheck, index) => attacker.postForm('/login', { intent: 'email', email, password: `burst-${index}`, botCheck })),
      );
      const texts = await Promise.all(responses.map((response) => refusal(response)));
      expect(texts.filter((text) => text.includes(MESSAGES.invalidCredentials))).toHaveLength(10);
      expect(texts.filter((text) => text.includes(MESSAGES.tooManyAttempts))).toHaveLength(10);
    });

    test('/admin-login: 5 guesses on the admin from one address, then the spec\'s "Too many failed login attempts"', async () => {
      const attacker = client();
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(await refusal(await adminLogIn(attacker, ADMIN, `guess-${attempt}`)), `attempt ${attempt}`).toContain(MESSAGES.adminWrongPassword);
      }
      for (let attempt = 6; attempt <= 12; attempt++) {
        expect(await refusal(await adminLogIn(attacker, ADMIN, `guess-${attempt}`)), `attempt ${attempt}`).toContain(MESSAGES.adminTooMany);
      }
      expect(await refusal(await adminLogIn(attacker, ADMIN, PASSWORD))).toContain(MESSAGES.adminTooMany);
    });

    test('one address has 10 tries over /login and /admin-login together, whatever the accounts', async () => {
      const { email } = await newAccount();
      const attacker = client();
      for (let attempt = 1; attempt <= 6; attempt++) {
        expect(await refusal(await logIn(attacker, uniqueEmail('stuffed'), 'password1')), `login ${attempt}`).toContain(MESSAGES.invalidCredentials);
      }
      for (const target of [MANAGER, OWNER, ADMIN, ADMIN]) {
        const text = await refusal(await adminLogIn(attacker, target, 'password1'));
        expect(text, target).not.toContain('Too many');
      }
      expect(await refusal(await adminLogIn(attacker, ADMIN, PASSWORD))).toContain(MESSAGES.adminTooMany);
      expect(await refusal(await logIn(attacker, email, USER_PASSWORD))).toContain(MESSAGES.tooManyAttempts);
    });

    test('/signup: the sixth sign-up from one address within the hour is refused', async () => {
      const visitor = client();
      for (let round = 1; round <= 5; round++) {
        const response = await visitor.postForm('/signup', { intent: 'email', email: uniqueEmail('bulk'), password: USER_PASSWORD });
        expect(response.status, `sign-up ${round}`).toBe(302);
        visitor.jar.clear();
      }
      const sixth = await visitor.postForm('/signup', { intent: 'email', email: uniqueEmail('bulk'), password: USER_PASSWORD });
      expect(await refusal(sixth)).toContain(MESSAGES.tooManyAttempts);
    });

    test('/admin-login needs the bot check: without a solved one the right password opens nothing', async () => {
      const visitor = client();
      const missing = await visitor.postForm('/admin-login', { email: ADMIN, password: PASSWORD });
      expect(await refusal(missing)).toContain(MESSAGES.botCheckFailed);
      const wrongAction = await visitor.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await visitor.botToken('SEND_OTP') });
      expect(await refusal(wrongAction)).toContain(MESSAGES.botCheckFailed);
      expect(await visitor.session()).toBeNull();
      expect((await adminLogIn(visitor, ADMIN, PASSWORD)).status).toBe(302);
    });

    test('successful sign-ins and empty or malformed forms do not count: staff sharing one address keep working', async () => {
      const office = randomAddress();
      const { email } = await newAccount();
      for (let round = 1; round <= 12; round++) {
        expect((await logIn(client(office), email, USER_PASSWORD)).status, `user sign-in ${round}`).toBe(302);
      }
      for (let round = 1; round <= 7; round++) {
        expect((await adminLogIn(client(office), ADMIN, PASSWORD)).status, `admin sign-in ${round}`).toBe(302);
      }
      const someone = client(office);
      for (let round = 1; round <= 12; round++) {
        expect(await refusal(await someone.postForm('/admin-login', { email: '', password: '' }))).toContain(MESSAGES.adminBothRequired);
        expect(await refusal(await logIn(someone, 'not-an-email', 'x'))).toContain(MESSAGES.invalidEmail);
      }
      // Every real try is still there to be had (and counted).
      for (let attempt = 1; attempt <= 10; attempt++) {
        expect(await refusal(await logIn(someone, email, `typo-${attempt}`)), `typo ${attempt}`).toContain(MESSAGES.invalidCredentials);
      }
      expect(await refusal(await logIn(someone, email, USER_PASSWORD))).toContain(MESSAGES.tooManyAttempts);
    });
  });

  // ------------------------------------------------------------------------------ lock-out

  describe('nobody can lock an owner out', () => {
    test("a buyer signs in from elsewhere after a stranger's 50 failures from 5 addresses; unknown devices are slowed, the owner's own device is not", async () => {
      const { email, owner } = await newAccount();
      // The owner signed in on this phone before: it holds the known-device cookie.
      const phone = client();
      const first = await logIn(phone, email, USER_PASSWORD);
      expect(first.status).toBe(302);
      const known = first.headers
        .getSetCookie()
        .map(parseSetCookie)
        .find((cookie) => cookie.name === KNOWN_DEVICE_COOKIE);
      expect(known?.attributes).toHaveProperty('httponly');
      expect(known?.attributes.samesite?.toLowerCase()).toBe('lax');
      await owner.postForm('/logout', {});

      // A stranger with many addresses: 10 tries from the first, then only 3 from each new one
      // (the account is "under attack"), until 50 wrong passwords have been tried.
      let failures = 0;
      const perAddress: number[] = [];
      while (failures < 50) {
        const stranger = client();
        let here = 0;
        for (let attempt = 0; attempt < 12 && failures < 50; attempt++) {
          const text = await refusal(await logIn(stranger, email, `stranger-${perAddress.length}-${attempt}`));
          if (text.includes(MESSAGES.invalidCredentials)) {
            failures += 1;
            here += 1;
          } else {
            expect(text).toContain(MESSAGES.tooManyAttempts);
            break;
          }
        }
        perAddress.push(here);
      }
      expect(perAddress[0]).toBe(10);
      expect(
        perAddress.slice(1, -1).every((count) => count === 3),
        perAddress.join(','),
      ).toBe(true);

      // The owner, at a new address on a new device, types the right password: in.
      expect((await logIn(client(), email, USER_PASSWORD)).status).toBe(302);

      // A new device at a new address now gets 3 tries on this account, not 10.
      const fresh = client();
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(await refusal(await logIn(fresh, email, `fresh-${attempt}`))).toContain(MESSAGES.invalidCredentials);
      }
      expect(await refusal(await logIn(fresh, email, USER_PASSWORD))).toContain(MESSAGES.tooManyAttempts);

      // The owner's phone, moved to a new network, keeps its full allowance.
      const travelling = new HttpClient(server.url, { address: randomAddress() });
      travelling.jar.cookies.set(KNOWN_DEVICE_COOKIE, phone.jar.get(KNOWN_DEVICE_COOKIE)!);
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(await refusal(await logIn(travelling, email, `typo-${attempt}`))).toContain(MESSAGES.invalidCredentials);
      }
      expect((await logIn(travelling, email, USER_PASSWORD)).status).toBe(302);

      // A made-up cookie is no known device.
      const forger = client();
      forger.jar.cookies.set(KNOWN_DEVICE_COOKIE, { name: KNOWN_DEVICE_COOKIE, value: 'A'.repeat(22), attributes: {} });
      for (let attempt = 1; attempt <= 3; attempt++) await refusal(await logIn(forger, email, `forged-${attempt}`));
      expect(await refusal(await logIn(forger, email, USER_PASSWORD))).toContain(MESSAGES.tooManyAttempts);
    });
  });

  // ------------------------------------------------------------------------------ field limits

  describe('field lengths', () => {
    test.each([
      ['a 10,000-character email', `${'a'.repeat(9_990)}@example.in`],
      ['a 255-character email', `${'a'.repeat(244)}@example.in`],
    ])('/signup refuses %s with the valid-email message and creates nothing', async (_label, email) => {
      const visitor = client();
      const response = await visitor.postForm('/signup', { intent: 'email', email, password: USER_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.headers.getSetCookie()).toEqual([]);
      const html = await response.text();
      expect(mainText(html)).toContain(MESSAGES.invalidEmail);
      expect(html, 'the address is not echoed back in full').not.toContain('a'.repeat(300));
      expect(await visitor.session()).toBeNull();
    });

    test('a 254-character email is still a valid one', async () => {
      const email = `${'b'.repeat(64)}@${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(58)}.in`;
      expect(email).toHaveLength(254);
      const response = await client().postForm('/signup', { intent: 'email', email, password: USER_PASSWORD });
      expect(response.status).toBe(302);
    });

    test('/profile-complete refuses a name over 100 characters instead of cutting it', async () => {
      const { owner } = await newAccount();
      const mobile = uniqueMobile();
      const sent = await requestOtp(owner, mobile, 'Asha');
      expect(sent.status).toBe(200);
      await sent.body?.cancel();
      await waitForOutbox(owner, 'sms', `+91${mobile}`);
      const response = await owner.postForm('/profile-complete', { intent: 'verify', name: 'A'.repeat(101), countryCode: '+91', phone: mobile, otp: '000000' });
      expect(response.status).toBe(400);
      expect(mainText(await response.text())).toContain(MESSAGES.nameTooLong);
    });
  });

  // ------------------------------------------------------------------------------ squatting

  describe('admin addresses', () => {
    test('/admin-login answers an unknown address, one off the allow-list and a wrong password alike', async () => {
      const { email: buyer } = await newAccount();
      const answers: string[] = [];
      for (const email of [uniqueEmail('nobody'), buyer, MANAGER, ADMIN]) {
        const text = await refusal(await adminLogIn(client(), email, 'not-the-password'));
        answers.push(text.includes(MESSAGES.adminWrongPassword) ? 'same' : text.slice(0, 200));
        expect(text).not.toMatch(/No account found|not authorized/i);
      }
      // An unknown address, a buyer's (off the allow-list), an allow-listed one with no account, the admin's with a wrong password.
      expect(answers).toEqual(['same', 'same', 'same', 'same']);
    });

    test('public sign-up with an allow-listed address is refused in any letter case', async () => {
      for (const email of [MANAGER, MANAGER.toUpperCase(), ` ${MANAGER} `]) {
        const visitor = client();
        expect(await refusal(await visitor.postForm('/signup', { intent: 'email', email, password: USER_PASSWORD }))).toContain(MESSAGES.staffAddress);
        expect(await visitor.session()).toBeNull();
      }
    });

    test('an unverified account squatting an admin address (left from before the rule) is taken over by register-admin', async () => {
      // The squat as it could happen before public sign-up refused staff addresses: an
      // account of the stranger's, its address then set to the manager's in the database.
      const stranger = client();
      const strangerEmail = uniqueEmail('squatter');
      await signUp(stranger, strangerEmail, 'squatter-pass-1');
      const strangerId = (await stranger.session())!.user.id;
      const database = openServerDatabase(server);
      try {
        await database.db.updateTable('user').set({ email: OWNER }).where('id', '=', strangerId).execute();
      } finally {
        await database.close();
      }
      expect((await stranger.session())?.user.email).toBe(OWNER);

      const admin = client();
      expect((await adminLogIn(admin, ADMIN, PASSWORD)).status).toBe(302);
      const created = await admin.postForm('/admin/register-admin', { email: OWNER, password: 'owner-pass-1' });
      expect(created.status).toBe(200);
      expect(mainText(await created.text())).toContain(MESSAGES.adminCreated);

      // The stranger's account and its sessions are gone; their password opens nothing.
      expect(await stranger.session()).toBeNull();
      expect(await refusal(await logIn(client(), OWNER, 'squatter-pass-1'))).toContain(MESSAGES.invalidCredentials);

      // The real owner follows the mail and lands in the admin panel.
      const mail = await waitForOutbox(admin, 'email', OWNER);
      const link = mail.links.find((candidate) => candidate.includes('verify-email'))!;
      const owner = client();
      const opened = await owner.open(link);
      expect(new URL(opened.url).pathname).toBe('/admin-panel');
      await opened.response.body?.cancel();
      expect((await adminLogIn(client(), OWNER, 'owner-pass-1')).status).toBe(302);

      // A verified account is never taken over.
      const again = await admin.postForm('/admin/register-admin', { email: OWNER, password: 'another-pass-1' });
      expect(mainText(await again.text())).toContain(MESSAGES.alreadyRegistered);
      expect((await adminLogIn(client(), OWNER, 'owner-pass-1')).status).toBe(302);
    });
  });

  // ------------------------------------------------------------------------------ redirectTo

  describe('where an admin lands', () => {
    test('a signed-out data request sends the admin to the page itself after sign-in, never to a .data URL', async () => {
      const visitor = client();
      const dataRequest = await visitor.get('/admin/settings.data?_routes=routes%2Fadmin%2Fsettings');
      const body = await dataRequest.text();
      const location =
        dataRequest.headers.get('location') ?? dataRequest.headers.get('x-remix-redirect') ?? /"(\/admin-login\?redirectTo=[^"]+)"/.exec(body)?.[1];
      expect(location, `${dataRequest.status} ${body.slice(0, 200)}`).toMatch(/^\/admin-login\?redirectTo=/);
      const redirectTo = new URL(location!, server.url).searchParams.get('redirectTo');
      // The page's own address (pageAddress), never its data request's.
      expect(redirectTo).toBe('/admin/settings');

      const signedIn = await adminLogIn(visitor, ADMIN, PASSWORD, redirectTo!);
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get('location')).toBe('/admin/settings');
    });

    test.each([
      ['/admin/statistics', '/admin/statistics'],
      ['/admin/audit-log.data?page=2&_routes=routes%2Fadmin%2Faudit-log', '/admin/audit-log?page=2'],
      ['/admin-panel/_index.data?index', '/admin-panel'],
      ['//evil.example/admin', '/admin-panel'],
      ['https://evil.example/admin', '/admin-panel'],
      ['/\\evil.example/admin', '/admin-panel'],
      ['/profile', '/admin-panel'],
    ])('redirectTo %j lands on %j', async (redirectTo, expected) => {
      const signedIn = await adminLogIn(client(), ADMIN, PASSWORD, redirectTo);
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get('location')).toBe(expected);
    });
  });

  // ------------------------------------------------------------------------------ staff accounts (decision 094)

  // Last in the file: the admin's account stays slowed for unknown devices for the rest of the hour.
  describe('a staff account under a guessing attack', () => {
    test("fourteen addresses, each with a solved bot check, get at most the hour's ten failures on the admin; then every device the admin never used waits, the right password too, on every sign-in path; the admin's own device signs in at once", async () => {
      // The admin's laptop signed in before the attack, and signed out.
      const laptop = client();
      expect((await adminLogIn(laptop, ADMIN, PASSWORD)).status).toBe(302);
      const known = laptop.jar.get(KNOWN_DEVICE_COOKIE);
      expect(known).toBeTruthy();
      await laptop.postForm('/logout', {});

      // Earlier tests of this file failed some sign-ins on the admin within the hour too: the ten are shared.
      const answers: string[] = [];
      for (let address = 1; address <= 14; address++) {
        const text = await refusal(await adminLogIn(client(), ADMIN, `stranger-${address}`));
        answers.push(text.includes(MESSAGES.adminWrongPassword) ? 'tried' : text.includes(MESSAGES.adminAccountSlowed) ? 'wait' : text.slice(0, 200));
      }
      const firstWait = answers.indexOf('wait');
      expect(firstWait, answers.join(',')).toBeGreaterThanOrEqual(0);
      expect(firstWait).toBeLessThanOrEqual(10);
      expect(
        answers.slice(0, firstWait).every((answer) => answer === 'tried'),
        answers.join(','),
      ).toBe(true);
      expect(
        answers.slice(firstWait).every((answer) => answer === 'wait'),
        answers.join(','),
      ).toBe(true);

      // The right password from a fifteenth address opens nothing now, on the admin login (in
      // either language), the public login or the app's sign-in.
      const stranger = client();
      expect(await refusal(await adminLogIn(stranger, ADMIN, PASSWORD))).toContain(MESSAGES.adminAccountSlowed);
      expect(await stranger.session()).toBeNull();
      const hindi = client();
      const hindiAnswer = await hindi.postForm('/hi/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await hindi.botToken('LOGIN') });
      expect(await refusal(hindiAnswer)).toContain('इस खाते पर लॉग इन की बहुत सारी कोशिशें नाकाम रहीं');
      expect(await refusal(await logIn(client(), ADMIN, PASSWORD))).toContain(MESSAGES.tooManyAttempts);
      const app = client();
      const api = await app.request('/api/v1/auth/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN, password: PASSWORD, botCheck: await app.botToken('LOGIN') }),
      });
      expect(api.status).toBe(429);
      expect(Number(api.headers.get('retry-after'))).toBeGreaterThan(0);

      // The admin's own laptop, from a new network: in at once.
      const travelling = new HttpClient(server.url, { address: randomAddress() });
      travelling.jar.cookies.set(KNOWN_DEVICE_COOKIE, known!);
      const signedIn = await adminLogIn(travelling, ADMIN, PASSWORD);
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get('location')).toBe('/admin-panel');
    });
  });
});
