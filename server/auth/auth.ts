import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { cleanLine, hasControlText, PASSWORD_LENGTH } from '../../app/lib/input.ts';
import { bearer } from 'better-auth/plugins/bearer';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { Config } from '../config.ts';
import { isDatabaseConnectionLoss, type Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import type { Clock } from '../clock.ts';
import type { JobSignal } from '../jobs/worker.ts';
import { changeAndQueue, queueMail } from '../notify/outgoing.ts';
import { verificationEmail } from '../notify/mail.ts';
import type { Mailer } from '../notify/mail.ts';
import { paths } from '../../app/lib/paths.ts';
import { AUTH_COOKIE_PREFIX } from './session-cookie.ts';
import { fastPasswordHashing } from './password-hashing.ts';
import { authText as t } from '../../app/features/auth/auth-texts.ts';

/** Where a visitor lands after following the link in the verification mail. */
export const EMAIL_VERIFIED_PATH = `${paths.profile}?verified=1`;
/** Every sign-in that leaves the site (Google) comes back here to be routed by profile completeness. */
export const AFTER_SIGN_IN_PATH = paths.authContinue;
/** Internal request header carrying the resolved client address to better-auth's limiter. */
export const CLIENT_ADDRESS_HEADER = 'x-gaadi-client-address';

/**
 * better-auth owns passwords, sessions, email verification and Google sign-in; we never hash a
 * password or mint a session ourselves. Sessions live in the database (several instances can
 * share them) behind an httpOnly, SameSite=Lax cookie that is Secure in production.
 */
export function createAuth({
  config,
  database,
  mailer,
  logger,
  clock,
  jobs,
}: {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: Logger;
  clock: Clock;
  jobs: JobSignal;
}) {
  const google = config.google;
  return betterAuth({
    appName: config.siteName,
    baseURL: config.siteOrigin,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.acceptedOrigins,
    database: { db: database.db, type: database.dialect === 'postgres' ? 'postgres' : 'sqlite' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_LENGTH.min,
      maxPasswordLength: PASSWORD_LENGTH.max,
      autoSignIn: true,
      // Buyers may browse and wishlist before clicking the mail; the admin panel insists on it.
      requireEmailVerification: false,
      // better-auth's own scrypt unless the test suite asked for cheap hashing (never in production).
      ...(config.passwordHashing === 'fast-for-tests' ? { password: fastPasswordHashing } : {}),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, url }) {
        // Through the job queue like every mail (decision 069): a slow or refusing mail server
        // delays it and the worker retries, the sign-up never waits for it. better-auth writes
        // the account in its own transaction, so this one holds only the mail. A database that
        // refuses even that is logged: the person can ask for the mail again.
        try {
          await changeAndQueue({ database, jobs }, (trx) =>
            queueMail(trx, { config, clock, mailer, logger }, { to: user.email, ...verificationEmail({ siteName: config.siteName, name: user.name, url }) }),
          );
        } catch (error) {
          logger.error({ err: error }, 'verification mail could not be queued');
        }
      },
    },
    account: {
      accountLinking: {
        enabled: true,
        // Google never takes over an account that signed up with a password: the person signs
        // in with the password first and links Google from /login (an explicit link).
        disableImplicitLinking: true,
        allowDifferentEmails: false,
      },
    },
    session: {
      expiresIn: SESSION_LIFETIME_SECONDS,
      updateAge: SESSION_RENEWAL_SECONDS,
      // Which front door made the session: the site (cookie) or the Android app (bearer token,
      // marked by server/auth/tokens.ts right after sign-in). Shown in the list of devices.
      additionalFields: { kind: { type: 'string', required: false, defaultValue: 'site', input: false } },
    },
    // The first line of defence is our own database-backed limiter: the pages call better-auth's
    // API directly (its HTTP limiter never sees them), and only a few endpoints are reachable
    // over HTTP at all (server/auth/http/auth-routes.ts). better-auth's limiter is a second layer on
    // those, in the database so every instance shares it (docs/decisions/009).
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        // A little above our own limits (rateLimits.sessionRead and authLink), so it only
        // acts if those were ever bypassed or loosened by mistake.
        '/get-session': { window: 60, max: 700 },
        '/verify-email': { window: 900, max: 40 },
        '/callback/*': { window: 900, max: 40 },
      },
    },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: config.mode === 'production',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // The client address as our own limiter resolved it (trusting X-Forwarded-For only behind
      // our proxy); server/auth/http/auth-routes.ts sets this header and drops any copy a client sent.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      database: { generateId: 'uuid' },
    },
    // The JSON endpoints under /api/auth take text straight from the visitor: a control
    // character (NUL above all, which PostgreSQL refuses) is a 400, never a database error.
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (hasControlText(ctx.body)) throw new APIError('BAD_REQUEST', { message: t('noControlCharacters') });
      }),
    },
    // Names also arrive from Google's profile: stored cleaned and bounded like every other name.
    databaseHooks: {
      user: {
        create: { before: async (user) => ({ data: { ...user, name: cleanLine(user.name, MAX_NAME_LENGTH) } }) },
        update: { before: async (user) => (typeof user.name === 'string' ? { data: { ...user, name: cleanLine(user.name, MAX_NAME_LENGTH) } } : undefined) },
      },
    },
    logger: {
      // What a visitor's own request causes is a warning, not an error of ours (errors alert staff).
      log: (level, message, ...args) => logger[level === 'error' && causedByVisitor(message, args) ? 'warn' : level]({ args }, `auth: ${message}`),
    },
    plugins: [
      // The app sends the session token as `Authorization: Bearer`; only the signed form
      // (token.signature, as /api/v1/auth/sign-in hands it out) is accepted. Where a bearer
      // token counts at all is decided at the edge: /api/v1 only (decision 074).
      bearer({ requireSignature: true }),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  // Google through its OpenID discovery document, so a local OpenID server can
                  // stand in for Google in tests with the same code path (docs/decisions/006).
                  providerId: 'google',
                  name: 'Google',
                  discoveryUrl: `${google.issuer}/.well-known/openid-configuration`,
                  clientId: google.clientId,
                  clientSecret: google.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                  prompt: 'select_account',
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** A session (cookie or app token) lasts 30 days from its last renewal (decision 074). */
export const SESSION_LIFETIME_SECONDS = 60 * 60 * 24 * 30;
/** A session in use is renewed (its expiry moved 30 days on) at most once a day. */
export const SESSION_RENEWAL_SECONDS = 60 * 60 * 24;

const MAX_NAME_LENGTH = 100;

/** The better-auth tables (user, session, account, verification), created or updated at start. */
export async function migrateAuth(auth: Auth) {
  const { getMigrations } = await import('better-auth/db/migration');
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
}

/**
 * better-auth errors that a visitor's request causes: a Google callback with a forged or stale
 * state, and two simultaneous sign-ups of one address, where the unique index on the email
 * (SQLite or PostgreSQL) refuses the second and the sign-up flow says the address is in use.
 * Also no fault of ours: a lost database connection (the request is answered 503), and the
 * adapter's note that a query failed, logged without its error before the error is thrown on to
 * whoever answers it (and logs it as what it is).
 */
function causedByVisitor(message: string, args: unknown[]): boolean {
  if (args.some(isDatabaseConnectionLoss) || message.startsWith('Failed to query fallback join')) return true;
  if (message === 'Failed to parse state') return true;
  if (message !== 'Failed to create user') return false;
  const cause = args[0] as { errcode?: number; code?: string } | undefined;
  return cause?.errcode === 2067 || cause?.code === '23505';
}
