import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { Clock } from '../clock.ts';

/**
 * The bot check in front of sign-in, OTP and the public forms. Pluggable:
 *
 * - `altcha` (default): a self-hosted proof of work, no outside service. The server hands out
 *   a signed ALTCHA v2 challenge; the browser spends CPU finding the counter that produces a
 *   given SHA-256 prefix (app/lib/bot-check-client.ts) and sends the solution back with the
 *   form. A solution is bound to one action, expires after 10 minutes and is accepted once
 *   (spent solutions are recorded in bot_check_spent, shared by every instance).
 * - `recaptcha` (v3) and `turnstile`: the vendor script produces a token in the page; the
 *   server asks the vendor whether it is good for this action.
 */

export const botActions = ['LOGIN', 'GOOGLE_LOGIN', 'SEND_OTP', 'REQUEST_FORM', 'SELL_FORM'] as const;
export type BotAction = (typeof botActions)[number];

export function isBotAction(value: unknown): value is BotAction {
  return typeof value === 'string' && (botActions as readonly string[]).includes(value);
}

/**
 * Proof-of-work difficulty. In ALTCHA v2's deterministic mode the server picks the secret
 * counter and publishes a 16-byte prefix of SHA-256(salt || nonce || counter); the solver
 * tries counters from 0 upwards, so the work is exactly counter + 1 hashes, never more than
 * the maximum (unlike prefix-of-zeros puzzles, which have a long unlucky tail).
 *
 * 5 000–50 000 SHA-256 hashes, about 27 500 on average. Batched Web Crypto runs at roughly
 * 250–700 k hashes/s on a desktop and, allowing for a ~5x slower mid-range Android phone,
 * at 50–150 k/s there: the worst case is well under a second on such a phone and the
 * average a few hundred milliseconds. It does not stop a determined attacker (nothing
 * client-side does); it makes each form submission cost CPU, which together with the
 * database-backed rate limits makes bulk abuse expensive.
 */
export const altchaDifficulty = { minCounter: 5_000, maxCounter: 50_000 } as const;

/**
 * BOT_CHECK_WORK=light-for-tests (refused in production): the same challenge, solution and
 * checks with a hundredth of the work. The suite solves hundreds of challenges in its own
 * process and in Chromium, each taking 30–130 ms at the standard difficulty (decision 034).
 */
export const lightAltchaDifficulty = { minCounter: 50, maxCounter: 500 } as const;

/** How long a challenge may be solved and used. */
export const altchaChallengeTtlMs = 10 * 60_000;

const verifyTimeoutMs = 5_000;
/** Longer than any real token (ALTCHA payloads are ~700 bytes, vendor tokens ~2 KB). */
const maxTokenLength = 8_192;

export const defaultVerifyUrls = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
} as const;

type LogFn = (details: Record<string, unknown>, message: string) => void;
/** The part of the pino logger this module uses. */
export type BotCheckLogger = { warn: LogFn; error: LogFn };

/** What the client needs to run the check: the challenge to solve, or which widget to run. */
export type BotCheckChallenge = Challenge | { provider: 'recaptcha' | 'turnstile'; siteKey: string; action: BotAction };

export type BotCheck = {
  provider: Config['botCheck']['provider'];
  /** Public: the site key the recaptcha/turnstile script needs (empty for altcha). */
  siteKey: string;
  challenge: (action: BotAction) => Promise<BotCheckChallenge>;
  verify: (token: string | null | undefined, action: BotAction, remoteIp?: string) => Promise<boolean>;
};

export function createBotCheck(options: {
  config: Pick<Config, 'botCheck' | 'authSecret'>;
  database: Database;
  logger: BotCheckLogger;
  clock: Clock;
  /** reCAPTCHA v3 score needed to pass (0 = bot, 1 = human). */
  minScore?: number;
}): BotCheck {
  const { config, database, logger, clock } = options;
  const { provider, siteKey } = config.botCheck;
  if (provider === 'altcha') {
    const difficulty = config.botCheck.work === 'light-for-tests' ? lightAltchaDifficulty : altchaDifficulty;
    return { provider, siteKey: '', ...createAltcha(config.authSecret, database, logger, difficulty, clock) };
  }
  const verifyUrl = config.botCheck.verifyUrl ?? defaultVerifyUrls[provider];
  const secretKey = config.botCheck.secretKey;
  const minScore = options.minScore ?? 0.5;
  return {
    provider,
    siteKey,
    challenge: async (action) => ({ provider, siteKey, action }),
    verify: async (token, action, remoteIp) => {
      if (!isUsableToken(token)) return false;
      const answer = await askVendor(provider, verifyUrl, { secret: secretKey, response: token, remoteip: remoteIp }, logger);
      if (!answer || answer.success !== true) return false;
      if (provider === 'recaptcha') {
        // v3 always reports the action and a score; a token made for another form is refused.
        return answer.action === action && typeof answer.score === 'number' && answer.score >= minScore;
      }
      // Turnstile reports the action the widget was rendered with, when it had one.
      return answer.action === undefined || answer.action === null || answer.action === '' || answer.action === action;
    },
  };
}

// ---------------------------------------------------------------------------------------
// ALTCHA

/** Secrets for this purpose only, derived from AUTH_SECRET so no extra setting is needed. */
function deriveSecret(authSecret: string, purpose: string) {
  return createHmac('sha256', authSecret).update(`gaadi-bazaar/bot-check/altcha/${purpose}/v1`).digest('hex');
}

type AltchaPayload = {
  challenge: { parameters: Challenge['parameters']; signature: string };
  solution: { counter: number; derivedKey: string; time?: number };
};

function createAltcha(authSecret: string, database: Database, logger: BotCheckLogger, difficulty: { minCounter: number; maxCounter: number }, clock: Clock) {
  const hmacSignatureSecret = deriveSecret(authSecret, 'challenge-signature');
  const hmacKeySignatureSecret = deriveSecret(authSecret, 'key-signature');

  const challenge = async (action: BotAction): Promise<Challenge> =>
    createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(difficulty.maxCounter, difficulty.minCounter),
      deriveKey,
      // Signed with the rest of the parameters: a solution for one form is useless for another.
      data: { action },
      expiresAt: new Date(clock.now() + altchaChallengeTtlMs),
      hmacSignatureSecret,
      hmacKeySignatureSecret,
    });

  const verify = async (token: string | null | undefined, action: BotAction): Promise<boolean> => {
    const payload = decodePayload(token);
    if (!payload) return false;
    const { parameters, signature } = payload.challenge;
    // Every challenge we issue has these; refusing anything else keeps odd shapes away from
    // the key derivation (the signature check below would refuse them too).
    if (parameters.algorithm !== 'SHA-256' || parameters.cost !== 1 || typeof parameters.expiresAt !== 'number') return false;

    const verified = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret,
      hmacKeySignatureSecret,
    }).then(
      (result) => result.verified,
      () => false, // a malformed payload (bad hex and the like), not a server fault
    );
    // The action is covered by the signature just checked, so it can be trusted now.
    if (!verified || parameters.data?.action !== action) return false;

    // Spend it: the insert succeeds exactly once per challenge, whichever instance gets it.
    const now = clock.now();
    try {
      const inserted = await database.db
        .insertInto('bot_check_spent')
        .values({ signature, expires_at: parameters.expiresAt * 1000 })
        .onConflict((conflict) => conflict.column('signature').doNothing())
        .returning('signature')
        .executeTakeFirst();
      if (!inserted) return false; // replayed
      await database.db.deleteFrom('bot_check_spent').where('expires_at', '<', now).execute();
    } catch (error) {
      logger.error({ err: error }, 'bot check: could not record a spent ALTCHA solution');
      return false;
    }
    return true;
  };

  return { challenge, verify };
}

function decodePayload(token: string | null | undefined): AltchaPayload | null {
  if (!isUsableToken(token)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.solution)) return null;
  const { challenge, solution } = value;
  if (!isRecord(challenge.parameters) || typeof challenge.signature !== 'string') return null;
  if (typeof solution.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
  return value as AltchaPayload;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUsableToken(token: string | null | undefined): token is string {
  return typeof token === 'string' && token.length > 0 && token.length <= maxTokenLength;
}

// ---------------------------------------------------------------------------------------
// reCAPTCHA v3 and Turnstile

type VendorAnswer = { success?: unknown; score?: unknown; action?: unknown; 'error-codes'?: unknown };

/** Posts the token to the vendor's siteverify endpoint; null when it cannot be asked. */
async function askVendor(
  provider: 'recaptcha' | 'turnstile',
  url: string,
  fields: { secret: string; response: string; remoteip: string | undefined },
  logger: BotCheckLogger,
): Promise<VendorAnswer | null> {
  const body = new URLSearchParams({ secret: fields.secret, response: fields.response });
  if (fields.remoteip) body.set('remoteip', fields.remoteip);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(verifyTimeoutMs),
      redirect: 'error',
    });
    if (!response.ok) {
      logger.warn({ provider, status: response.status }, 'bot check: verification service answered with an error status');
      return null;
    }
    const answer: unknown = await response.json();
    if (!isRecord(answer)) {
      logger.warn({ provider }, 'bot check: verification service answered with something other than a JSON object');
      return null;
    }
    return answer;
  } catch (error) {
    // Fail closed: a visitor can retry, a bot gets nothing for free while the vendor is down.
    logger.warn({ provider, err: error instanceof Error ? error.message : String(error) }, 'bot check: verification service unreachable');
    return null;
  }
}
