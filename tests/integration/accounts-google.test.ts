import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { completeProfile, HttpClient, logIn, mainText, parseSetCookie, signUp, uniqueEmail, uniqueMobile, type FollowResult } from '../support/http-client.ts';
import { googleIdentity, startOidcProvider, type GoogleIdentity, type OidcProvider } from '../support/oidc.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Google sign-in (SPEC 2 Sign Up and Login, SPEC 8 Social-account login) through the
 * production code path: the page's form post, the server's redirect to the provider's
 * /authorize, the provider's redirect back to /api/auth/callback/google, the code exchange
 * with PKCE and a signed ID token, /auth/continue and the page the person lands on. A local
 * OpenID Connect server stands in for Google; every redirect is followed by hand with a
 * cookie jar, as a browser would. On SQLite and on PostgreSQL.
 */

const { dialect, url: sharedUrl } = sharedServer();

const MESSAGES = {
  cancelled: 'Login was cancelled',
  failed: 'Failed to sign in with Google',
  botCheckFailed: 'reCAPTCHA verification failed',
} as const;
const PASSWORD = 'filter-coffee-99';

describe.skipIf(!sharedUrl)(`accounts: Google sign-in (${dialect})`, () => {
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

  const client = () => new HttpClient(server.url);

  /** Presses the Google button on `from` (/login needs a GOOGLE_LOGIN bot check; sign-up has none) as `identity`, and follows every redirect. */
  async function google(
    visitor: HttpClient,
    identity: GoogleIdentity | null,
    from: `/login${string}` | `/signup${string}` = '/login',
  ): Promise<FollowResult & { path: string; text: string }> {
    if (identity) oidc.identity = identity;
    const fields: Record<string, string> = { intent: 'google' };
    if (from.startsWith('/login')) fields.botCheck = await visitor.botToken('GOOGLE_LOGIN');
    const start = await visitor.postForm(from, fields);
    expect(start.status, `the ${from} form sends the browser to the provider`).toBe(302);
    expect(start.headers.get('location')).toMatch(new RegExp(`^${oidc.issuer}/authorize\\?`));
    const result = await visitor.follow(start, { from });
    const url = new URL(result.url);
    const text = result.response.headers.get('content-type')?.startsWith('text/html') ? mainText(await result.response.text()) : '';
    return { ...result, path: url.pathname + url.search, text };
  }

  /** The site paths the redirects went through (the provider's hop shown as 'provider'). */
  function route(result: FollowResult): string[] {
    return result.hops.map((hop) => (hop.url.startsWith(oidc.issuer) ? 'provider' : new URL(hop.url).pathname));
  }

  test('the Google button sends the browser to the provider with PKCE (S256), state and nonce, and a short-lived HttpOnly state cookie', async () => {
    const visitor = client();
    const start = await visitor.postForm('/login', { intent: 'google', botCheck: await visitor.botToken('GOOGLE_LOGIN') });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${oidc.issuer}/authorize`);
    const query = location.searchParams;
    expect(query.get('client_id')).toBe(oidc.clientId);
    expect(query.get('response_type')).toBe('code');
    expect(query.get('redirect_uri')).toBe(`${server.url}/api/auth/callback/google`);
    expect(query.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')?.length).toBeGreaterThanOrEqual(16);
    expect(query.get('nonce')?.length).toBeGreaterThanOrEqual(16);
    expect(query.get('client_secret'), 'the secret never travels through the browser').toBeNull();
    expect(start.headers.get('location')).not.toContain(oidc.clientSecret);

    const cookies = start.headers.getSetCookie().map(parseSetCookie);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie.attributes, cookie.name).toHaveProperty('httponly');
      expect(cookie.attributes.samesite?.toLowerCase(), cookie.name).toBe('lax');
    }
  });

  test('the Google button on /login needs a GOOGLE_LOGIN bot check', async () => {
    const visitor = client();
    for (const botCheck of [null, 'forged', await visitor.botToken('LOGIN')]) {
      const fields: Record<string, string> = { intent: 'google' };
      if (botCheck !== null) fields.botCheck = botCheck;
      const response = await visitor.postForm('/login', fields);
      expect(response.status, `token ${String(botCheck).slice(0, 10)}`).toBe(200);
      expect(mainText(await response.text())).toContain(MESSAGES.botCheckFailed);
    }
  });

  test('a new Google user lands on /profile-complete, signed in with the name and verified email Google gave', async () => {
    const visitor = client();
    const identity = googleIdentity(uniqueEmail('new.google'), 'Neha Sharma');
    const result = await google(visitor, identity);
    expect(route(result)).toEqual(['/login', 'provider', '/api/auth/callback/google', '/auth/continue', '/profile-complete']);
    expect(result.path).toBe('/profile-complete');
    expect(result.text).toContain('Complete your profile');

    const session = await visitor.session();
    expect(session?.user).toMatchObject({ email: identity.email.toLowerCase(), name: 'Neha Sharma', emailVerified: true });
    // The name is filled in for them.
    const page = await (await visitor.get('/profile-complete')).text();
    expect(page).toMatch(/id="name"[^>]*value="Neha Sharma"|value="Neha Sharma"[^>]*id="name"/);
    // The profile record was created from the account.
    const profile = mainText(await (await visitor.get('/profile')).text());
    expect(profile).toContain('Neha Sharma');
    expect(profile).toContain(identity.email.toLowerCase());
    expect(profile).toContain('Not set');
  });

  test('the Sign Up page’s Google button works the same way (no bot check there)', async () => {
    const visitor = client();
    const result = await google(visitor, googleIdentity(uniqueEmail('signup.google'), 'Arjun Mehta'), '/signup');
    expect(result.path).toBe('/profile-complete');
    expect((await visitor.session())?.user.name).toBe('Arjun Mehta');
  });

  test('a returning Google user whose profile has a name and a verified phone lands on /, as the same account', async () => {
    const identity = googleIdentity(uniqueEmail('returning'), 'Lakshmi Iyer');
    const first = client();
    expect((await google(first, identity)).path).toBe('/profile-complete');
    const userId = (await first.session())!.user.id;
    await completeProfile(first, 'Lakshmi Iyer', uniqueMobile());

    const later = client();
    const result = await google(later, identity);
    expect(route(result)).toEqual(['/login', 'provider', '/api/auth/callback/google', '/auth/continue', '/']);
    expect(result.path).toBe('/');
    expect((await later.session())?.user.id).toBe(userId);
  });

  test('a page that asked for sign-in gets its visitor back through Google: after the profile for a new user, at once for a returning one', async () => {
    const booking = '/rent/3/book?from=2026-12-01T10:00&to=2026-12-03T10:00';
    const identity = googleIdentity(uniqueEmail('booker.google'), 'Farah Khan');
    const first = client();
    const signedUp = await google(first, identity, `/signup?redirectTo=${encodeURIComponent(booking)}`);
    expect(signedUp.path).toBe(`/profile-complete?redirectTo=${encodeURIComponent(booking)}`);
    await completeProfile(first, 'Farah Khan', uniqueMobile());

    const returning = await google(client(), identity, `/login?redirectTo=${encodeURIComponent('/wishlist')}`);
    expect(route(returning)).toEqual(['/login', 'provider', '/api/auth/callback/google', '/auth/continue', '/wishlist']);

    // Another site, a protocol-relative path or a backslash trick is dropped: the usual page.
    for (const hostile of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const result = await google(client(), identity, `/login?redirectTo=${encodeURIComponent(hostile)}`);
      expect(result.path, hostile).toBe('/');
    }
  });

  test('signed in with a password, the Google button on /login links Google to that account; Google then signs in to it', async () => {
    const email = uniqueEmail('linker');
    const owner = client();
    await signUp(owner, email, PASSWORD);
    const userId = (await owner.session())!.user.id;

    const loginPage = mainText(await (await owner.get('/login')).text());
    expect(loginPage).toContain(`You are signed in as ${email}`);
    expect(loginPage).toContain('Link Google account');

    const identity = googleIdentity(email, 'Vikram Rao');
    const linked = await google(owner, identity);
    expect(route(linked)).toEqual(['/login', 'provider', '/api/auth/callback/google', '/profile']);
    expect(linked.path).toBe('/profile?linked=google');
    expect(linked.text).toContain('Your Google account is now linked.');
    expect((await owner.session())?.user.id).toBe(userId);

    // Elsewhere, "Continue with Google" now opens the same account.
    const phone = client();
    const viaGoogle = await google(phone, identity);
    expect(viaGoogle.path).toBe('/profile-complete');
    expect((await phone.session())?.user.id).toBe(userId);
    // And the password still works.
    expect((await logIn(client(), email, PASSWORD)).status).toBe(302);
  });

  test('linking a Google account with a different email is refused and links nothing', async () => {
    const email = uniqueEmail('mismatch');
    const owner = client();
    await signUp(owner, email, PASSWORD);
    const userId = (await owner.session())!.user.id;
    const other = googleIdentity(uniqueEmail('someone.else'), 'Someone Else');
    const result = await google(owner, other);
    expect(result.path).toMatch(/^\/login\?error=/);
    expect(result.text).toContain(MESSAGES.failed);
    expect((await owner.session())?.user.id, 'still signed in as before').toBe(userId);

    // That Google account did not get into the password account.
    const stranger = client();
    await google(stranger, other);
    expect((await stranger.session())?.user.id).not.toBe(userId);
  });

  test('the Google email is already registered with a password: the account-exists message (email and password), nobody is signed in', async () => {
    // better-auth logs the refused link as an error.
    server.expectErrorLog(/"msg":"auth: account_not_linked"/);
    const email = uniqueEmail('taken');
    await signUp(client(), email, PASSWORD);

    const visitor = client();
    const result = await google(visitor, googleIdentity(email, 'Impostor'));
    expect(route(result)).toEqual(['/login', 'provider', '/api/auth/callback/google', '/login']);
    expect(result.path).toMatch(/^\/login\?error=/);
    expect(result.text).toMatch(/already registered/i);
    expect(result.text).toMatch(/email and password/i);
    expect(result.text).toMatch(/log in with your email and password first/i);
    expect(result.text).toMatch(/link.*Google/i);
    expect(await visitor.session()).toBeNull();

    // The password account is untouched and Google was not linked to it.
    const owner = client();
    expect((await logIn(owner, email, PASSWORD)).status).toBe(302);
    expect((await owner.session())?.user.name).toBe('');
  });

  test('consent refused at Google (access_denied): "Login was cancelled", not signed in', async () => {
    const visitor = client();
    oidc.failNextAuthorization('access_denied', 'The user denied the request');
    const result = await google(visitor, null);
    expect(route(result)).toEqual(['/login', 'provider', '/api/auth/callback/google', '/login']);
    expect(result.text).toContain(MESSAGES.cancelled);
    expect(result.text).not.toContain(MESSAGES.failed);
    expect(await visitor.session()).toBeNull();
  });

  test('consent refused when signing up with Google: the sign-up page says "Login was cancelled"', async () => {
    const visitor = client();
    oidc.failNextAuthorization('access_denied');
    const result = await google(visitor, null, '/signup');
    expect(result.path).toMatch(/^\/signup\?error=access_denied/);
    expect(result.text).toContain(MESSAGES.cancelled);
    expect(await visitor.session()).toBeNull();
  });

  test.each([
    ['the provider reports an error (server_error)', (provider: OidcProvider) => provider.failNextAuthorization('server_error'), null],
    [
      'the code exchange is refused (invalid_grant)',
      (provider: OidcProvider) => provider.failNextTokenExchange(),
      /"msg":"auth: Failed to validate authorization code"/,
    ],
  ])('%s: "Failed to sign in with Google", not signed in', async (_label, arrange, expectedErrorLog) => {
    if (expectedErrorLog) server.expectErrorLog(expectedErrorLog);
    const visitor = client();
    arrange(oidc);
    const result = await google(visitor, googleIdentity(uniqueEmail('error'), 'Error Case'));
    expect(result.path).toMatch(/^\/login\?error=/);
    expect(result.text).toContain(MESSAGES.failed);
    expect(await visitor.session()).toBeNull();
  });

  test('a callback that did not start in this browser (state cookie missing) is refused', async () => {
    server.expectErrorLog(/"msg":"auth: Failed to parse state"/);
    const victim = client();
    const start = await victim.postForm('/login', { intent: 'google', botCheck: await victim.botToken('GOOGLE_LOGIN') });
    // An attacker hands the victim's half-finished sign-in to another browser (login CSRF).
    const attacker = client();
    oidc.identity = googleIdentity(uniqueEmail('csrf'), 'Attacker');
    const result = await attacker.follow(start, { from: '/login' });
    const url = new URL(result.url);
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBeTruthy();
    expect(mainText(await result.response.text())).toContain(MESSAGES.failed);
    expect(await attacker.session()).toBeNull();
  });
});
