import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { googleIdTokenSchema, signInSchema, signUpSchema, verifyEmailSchema } from '../../../app/features/auth/schemas.ts';
import { appTokenSchema, deviceListSchema, deviceRevokedSchema, emailVerifiedSchema, signedOutSchema } from '../../http/api-answers.ts';
import { recordLogin } from '../../accounts/profiles.ts';
import { readFormOrJson } from '../../http/forms.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { consumeRateLimit, rateLimits, type RateLimitPolicy } from '../../security/rate-limit.ts';
import type { AppServices } from '../../services.ts';
import { keepFirstSessionOfLink, listDevices, markAppSession, revokeDevice } from '../devices.ts';
import { messages, signInWithPassword, signUpWithEmail } from '../flows.ts';
import { API_V1_PREFIX, currentSession, forwardCookies, type SessionUser } from '../session.ts';
import { SESSION_COOKIE_NAME } from '../session-cookie.ts';
import { authText as t } from '../../../app/features/auth/auth-texts.ts';
import { indiaIso } from '../../../app/lib/india-time.ts';
import { networkMessages } from '../../../app/lib/network.ts';

/**
 * The Android app's sign-in (decision 074): sign-up, email verification, password and Google
 * sign-in answer a bearer token (better-auth's session token, signed), sign-out revokes it, and
 * the devices list shows and revokes every session of the person, the site's and the app's.
 * The limits, bot check and messages are the sign-up and login pages' own (server/auth/flows.ts,
 * server/auth/sign-in-limits.ts); every refusal is problem+json.
 */

const NO_STORE = { 'Cache-Control': 'no-store' };
const SIGN_IN_FIRST = () => t('signInFirst');
const VERIFY_FAILED = () => t('verifyFailed');

type Issued = z.input<typeof appTokenSchema>;

/** The signed session token in better-auth's Set-Cookie, as the bearer plugin takes it back. */
function sessionTokenIn(headers: Headers): string | null {
  for (const cookie of headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if ((name === SESSION_COOKIE_NAME || name === `__Secure-${SESSION_COOKIE_NAME}`) && value) return decodeURIComponent(value);
  }
  return null;
}

const userAnswer = (user: SessionUser) => ({ id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified, image: user.image });

export function authApi(api: Hono, services: AppServices, addressOf: (c: Context) => string) {
  const { database, logger } = services;
  const now = () => services.clock.now();

  /** One hit against the page's own limit key, or the 429 to answer. */
  const limited = async (c: Context, key: string, policy: RateLimitPolicy, detail: string) => {
    const limit = await consumeRateLimit(database, { key, ...policy, now: now() });
    return limit.allowed ? null : problem(c, 429, detail, { reason: 'rate-limited', headers: { 'Retry-After': String(limit.retryAfterSeconds), ...NO_STORE } });
  };

  /**
   * The session better-auth just made, handed to the app: marked as the app's, and read back
   * through the token itself (so the answer only ever carries a token that works).
   */
  const issue = async (c: Context, cookies: Headers): Promise<(Issued & { sessionUser: SessionUser }) | null> => {
    const token = sessionTokenIn(cookies);
    if (!token) return null;
    const marked = await markAppSession(database, token);
    if (!marked) return null;
    const probe = new Request(new URL(`${API_V1_PREFIX}me/devices`, c.req.url), { headers: { authorization: `Bearer ${token}` } });
    const session = await currentSession(services.auth, probe);
    if (!session) return null;
    return { token, expiresAt: indiaIso(marked.expiresAt.getTime()), user: userAnswer(session.user), sessionUser: session.user };
  };

  /** The body, checked against `schema`; a refusal (problem+json) otherwise. */
  const readBody = async <Schema extends z.ZodType>(
    c: Context,
    schema: Schema,
    log: string,
  ): Promise<{ ok: true; value: z.output<Schema> } | { ok: false; answer: Response }> => {
    try {
      const parsed = parseWith(schema, Object.fromEntries(await readFormOrJson(c.req.raw)));
      return parsed.ok ? parsed : { ok: false, answer: problem(c, 400, parsed.error, { fields: parsed.fields, headers: NO_STORE }) };
    } catch (error) {
      return { ok: false, answer: problemFromError(c, error, logger, { fallback: networkMessages.networkError, log }) };
    }
  };

  const signUp = describeRoute({
    tag: 'Account',
    summary: 'Create an account with email and password; answers a token',
    description:
      'The sign-up page’s rules and messages: five sign-ups an hour per address, a verification mail to the address (follow its link, or send its `token` to POST /auth/verify-email). Signed in at once, as on the site: the answer carries the token. JSON or a form; an app sends neither `Origin` nor a cookie (a browser sends its own `Origin`).',
    body: { kind: 'form', schema: signUpSchema },
    ok: { status: 201, schema: appTokenSchema, description: 'Created and signed in.' },
    refusals: { 400: 'Not a valid address, too weak a password, or a staff address.', 409: 'The address is already registered.', 429: '' },
  });
  api.post('/auth/sign-up', signUp, async (c) => {
    const body = await readBody(c, signUpSchema, 'app sign-up could not be read');
    if (!body.ok) return body.answer;
    const refused = await limited(c, `sign-up:${addressOf(c)}`, rateLimits.signUp, messages.tooManyAttempts);
    if (refused) return refused;
    try {
      const result = await signUpWithEmail(services, c.req.raw, body.value);
      if (!result.ok) return problem(c, result.message === messages.emailInUse ? 409 : 400, result.message, { headers: NO_STORE });
      const issued = await issue(c, result.headers);
      if (!issued) return problem(c, 500, messages.signUpFailed, { headers: NO_STORE });
      const { sessionUser: _user, ...answer } = issued;
      return c.json(answer satisfies Issued, 201, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: messages.signUpFailed, log: 'app sign-up failed' });
    }
  });

  const verifyEmail = describeRoute({
    tag: 'Account',
    summary: 'Verify the email address with the token from the verification mail',
    description:
      'The `token` query parameter of the link in the mail. Verifying signs the person in, as the link does on the site: without a token of theirs on the request, the answer carries a new one, once per link (the same link sent again, even at the same moment, answers `{ verified: true }` alone). 30 tries in 15 minutes per address.',
    body: { kind: 'form', schema: verifyEmailSchema },
    ok: { status: 200, schema: emailVerifiedSchema, description: 'The address is verified.' },
    refusals: { 400: 'The link’s token is invalid or has expired.', 429: '' },
  });
  api.post('/auth/verify-email', verifyEmail, async (c) => {
    const body = await readBody(c, verifyEmailSchema, 'app email verification could not be read');
    if (!body.ok) return body.answer;
    const refused = await limited(c, `auth-verify-email:${addressOf(c)}`, rateLimits.authLink, t('tooManyRequests'));
    if (refused) return refused;
    try {
      const response = await services.auth.api.verifyEmail({ query: { token: body.value.token }, headers: c.req.raw.headers, asResponse: true });
      if (!response.ok) return problem(c, 400, VERIFY_FAILED(), { reason: 'verification-invalid', headers: NO_STORE });
      // A new session when no token of this person came with the request (better-auth re-sets the same one otherwise).
      const made = sessionTokenIn(response.headers);
      const sent = /^bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
      // One sign-in per link, even when it is sent several times at once.
      const first =
        made && made !== sent
          ? await keepFirstSessionOfLink({ database, auth: services.auth, now: now() }, { linkToken: body.value.token, signedSessionToken: made })
          : false;
      const issued = first ? await issue(c, response.headers) : null;
      const answer = issued ? { token: issued.token, expiresAt: issued.expiresAt, user: issued.user } : {};
      return c.json({ verified: true, ...answer } satisfies z.input<typeof emailVerifiedSchema>, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: VERIFY_FAILED(), log: 'app email verification failed' });
    }
  });

  const signIn = describeRoute({
    tag: 'Account',
    summary: 'Sign in with email and password; answers a token',
    description:
      'The login page’s rules and messages: a solved bot check (`botCheck`, action LOGIN), failed tries limited per address and per address and account (429 with `Retry-After`). An unverified address may sign in, as on the site (`user.emailVerified` says). JSON or a form; an app sends neither `Origin` nor a cookie (a browser sends its own `Origin`).',
    body: { kind: 'form', schema: signInSchema },
    ok: { status: 200, schema: appTokenSchema, description: 'Signed in.' },
    refusals: { 400: 'Not a valid address, or the bot check failed (`reason` bot-check).', 401: 'Wrong email or password.', 429: '' },
  });
  api.post('/auth/sign-in', signIn, async (c) => {
    const body = await readBody(c, signInSchema, 'app sign-in could not be read');
    if (!body.ok) return body.answer;
    try {
      // The login page's own sign-in (server/auth/flows.ts), answered as problems.
      const result = await signInWithPassword(services, c.req.raw, { ...body.value, address: addressOf(c) });
      if (!result.ok) {
        if (result.reason === 'invalid-email') return problem(c, 400, result.message, { fields: { email: result.message }, headers: NO_STORE });
        if (result.reason === 'bot-check') return problem(c, 400, result.message, { reason: 'bot-check', headers: NO_STORE });
        if (result.reason === 'rate-limited')
          return problem(c, 429, result.message, { reason: 'rate-limited', headers: { 'Retry-After': String(result.retryAfterSeconds ?? 60), ...NO_STORE } });
        return problem(c, 401, result.message, { headers: NO_STORE });
      }
      const issued = await issue(c, result.headers);
      if (!issued) return problem(c, 401, messages.invalidCredentials, { headers: NO_STORE });
      const { sessionUser: _user, ...answer } = issued;
      return c.json(answer satisfies Issued, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: networkMessages.networkError, log: 'app sign-in failed' });
    }
  });

  const google = describeRoute({
    tag: 'Account',
    summary: 'Sign in with Google: an ID token from the phone; answers a token',
    description:
      'The ID token Google gave the app (Credential Manager, with the site’s web client id as `serverClientId`). Its signature is checked against Google’s keys (JWKS), and its issuer, audience (the site’s client id) and expiry. A new person gets an account; an address that signed up with a password must sign in with it and link Google on the site first (409), as on the login page. 30 tries in 15 minutes per address.',
    body: { kind: 'form', schema: googleIdTokenSchema },
    ok: { status: 200, schema: appTokenSchema, description: 'Signed in.' },
    refusals: {
      400: '',
      401: 'The ID token is not one Google signed for this site, or it has expired.',
      409: 'The address belongs to a password account (`reason` account-not-linked).',
      429: '',
      503: 'Google sign-in is not configured or Google’s keys could not be read.',
    },
  });
  api.post('/auth/google', google, async (c) => {
    const body = await readBody(c, googleIdTokenSchema, 'app Google sign-in could not be read');
    if (!body.ok) return body.answer;
    if (!services.config.google) return problem(c, 503, messages.googleUnavailable, { reason: 'google-unavailable', headers: NO_STORE });
    const refused = await limited(c, `google-start:${addressOf(c)}`, rateLimits.authLink, messages.tooManyAttempts);
    if (refused) return refused;
    try {
      const { idToken, nonce } = body.value;
      const response = await services.auth.api.signInSocial({
        body: { provider: 'google', idToken: { token: idToken, ...(nonce ? { nonce } : {}) } },
        headers: c.req.raw.headers,
        asResponse: true,
      });
      if (!response.ok) {
        const answer = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
        if (answer.code === 'OAUTH_LINK_ERROR' && answer.message === 'account not linked')
          return problem(c, 409, messages.accountExists, { reason: 'account-not-linked', headers: NO_STORE });
        if (answer.code === 'PROVIDER_NOT_FOUND' || answer.code === 'ID_TOKEN_NOT_SUPPORTED') {
          logger.warn({ code: answer.code }, 'Google sign-in from the app is unavailable: discovery failed');
          return problem(c, 503, messages.googleUnavailable, { reason: 'google-unavailable', headers: { 'Retry-After': '60', ...NO_STORE } });
        }
        return problem(c, 401, messages.googleFailed, { headers: NO_STORE });
      }
      const issued = await issue(c, response.headers);
      if (!issued) return problem(c, 401, messages.googleFailed, { headers: NO_STORE });
      const { sessionUser, ...answer } = issued;
      try {
        await recordLogin(database, sessionUser, now());
      } catch (error) {
        // As after the site's Google sign-in: the profile's record is not worth failing the sign-in for.
        logger.error({ err: error }, 'profile could not be updated after Google sign-in');
      }
      return c.json(answer satisfies Issued, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: messages.googleFailed, log: 'app Google sign-in failed' });
    }
  });

  const signOut = describeRoute({
    tag: 'Account',
    summary: 'Sign out: this token (or cookie) stops working at once',
    auth: true,
    ok: { status: 200, schema: signedOutSchema, description: 'Signed out.' },
  });
  api.post('/auth/sign-out', signOut, async (c) => {
    const session = await currentSession(services.auth, c.req.raw);
    if (!session) return problem(c, 401, SIGN_IN_FIRST(), { headers: NO_STORE });
    const response = await services.auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
    // A cookie session's cookie is cleared too; an app has none.
    const headers = forwardCookies(response.headers, new Headers({ 'Content-Type': 'application/json', ...NO_STORE }));
    return new Response(JSON.stringify({ signedOut: true } satisfies z.input<typeof signedOutSchema>), { status: 200, headers });
  });

  const devices = describeRoute({
    tag: 'Account',
    summary: 'My signed-in devices (the site’s and the app’s)',
    auth: true,
    ok: { status: 200, schema: deviceListSchema, description: 'Every device signed in to this account: this one first, then the most recently used.' },
  });
  api.get('/me/devices', devices, async (c) => {
    const session = await currentSession(services.auth, c.req.raw);
    if (!session) return problem(c, 401, SIGN_IN_FIRST(), { headers: NO_STORE });
    const items = await listDevices(
      { database, secret: services.config.authSecret, now: now() },
      { userId: session.user.id, currentSessionId: session.sessionId },
    );
    const answer = items.map((device) => ({ ...device, createdAt: indiaIso(device.createdAt.getTime()), lastSeenAt: indiaIso(device.lastSeenAt.getTime()) }));
    return c.json({ items: answer } satisfies z.input<typeof deviceListSchema>, 200, NO_STORE);
  });

  const revoke = describeRoute({
    tag: 'Account',
    summary: 'Sign a device out (revoke its token or cookie at once)',
    description: 'Revoking the current device signs this request’s token out too.',
    auth: true,
    params: { id: { description: 'The device’s `id` from GET /me/devices.', type: 'string' } },
    ok: { status: 200, schema: deviceRevokedSchema, description: 'Revoked.' },
    refusals: { 404: 'No such device of yours.' },
  });
  api.delete('/me/devices/:id', revoke, async (c) => {
    const session = await currentSession(services.auth, c.req.raw);
    if (!session) return problem(c, 401, SIGN_IN_FIRST(), { headers: NO_STORE });
    const revoked = await revokeDevice(
      { database, auth: services.auth, secret: services.config.authSecret, now: now() },
      { userId: session.user.id, id: c.req.param('id') },
    );
    if (!revoked) return problem(c, 404, t('deviceNotFound'), { headers: NO_STORE });
    return c.json({ revoked: true } satisfies z.input<typeof deviceRevokedSchema>, 200, NO_STORE);
  });
}
