import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../services.ts';
import type { LeadKind } from './leads.ts';
import { consumeRateLimit, rateLimits, type RateLimitPolicy } from '../security/rate-limit.ts';

/**
 * What stands between the public lead forms and a flood of junk leads: a per-address rate
 * limit (checked before the body is read), and the bot check, with a fallback for browsers without JavaScript.
 */

/** Counts the hit for this form and this visitor's address (rateLimits.publicForm: 10 an hour). */
export function consumeLeadFormLimit(services: Pick<RequestContext, 'database' | 'clientAddress' | 'clock'>, kind: LeadKind) {
  return consumeRateLimit(services.database, { key: `publicForm:${kind}:${services.clientAddress}`, ...rateLimits.publicForm, now: services.clock.now() });
}

// ------------------------------------------------------------------------- bot check

/** The bot-check action of each form (server/security/bot-check.ts). */
export const botActionFor = { request: 'REQUEST_FORM', sell: 'SELL_FORM' } as const;

/**
 * Without JavaScript no proof of work can be solved, yet the forms must still work (the sell
 * form ends in a plain redirect to the chat). Such a submission carries instead a signed
 * token from when the page was rendered: it must be at least a few seconds old (people read
 * and type; scripts post at once), at most two hours, and is accepted once. Because this is
 * weaker than the proof of work, these submissions get a tighter limit of their own.
 */
export const MIN_FILL_MS = 3_000;
export const MAX_FORM_AGE_MS = 2 * 60 * 60_000;
export const noScriptLimit: RateLimitPolicy = { limit: 3, windowMs: 60 * 60_000 };

function signature(secret: string, kind: LeadKind, issuedAt: string): string {
  const key = createHmac('sha256', secret).update('gaadi-bazaar/leads/form-token/v1').digest();
  return createHmac('sha256', key).update(`${kind}:${issuedAt}`).digest('base64url');
}

/** `now`: the services' clock (AppServices.clock), so a test can age a token without waiting. */
export function issueFormToken(secret: string, kind: LeadKind, now: number): string {
  const issuedAt = String(Math.floor(now));
  return `${issuedAt}.${signature(secret, kind, issuedAt)}`;
}

/** Whether a form token is genuine and of an age a person could have filled the form in. */
export function formTokenAge(secret: string, kind: LeadKind, token: unknown, now: number): 'ok' | 'too-fast' | 'expired' | 'invalid' {
  if (typeof token !== 'string' || token.length > 200) return 'invalid';
  const [issuedAt = '', given = ''] = token.split('.');
  if (!/^\d{1,15}$/.test(issuedAt)) return 'invalid';
  const expected = Buffer.from(signature(secret, kind, issuedAt));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'invalid';
  const age = now - Number(issuedAt);
  if (age < MIN_FILL_MS) return 'too-fast';
  if (age > MAX_FORM_AGE_MS) return 'expired';
  return 'ok';
}

/** What a lead form sent to show a person sent it: the solved bot check, or the page's form token. */
export type LeadProof = { botCheck: string | null; formToken: string | null };

/**
 * The bot check of a lead form: the solved proof of work (or vendor token) in `botCheck`, or,
 * when the browser ran no script and sent none, the page's form token (see above).
 */
export async function passesLeadBotCheck(
  services: Pick<RequestContext, 'botCheck' | 'database' | 'clientAddress' | 'config' | 'logger' | 'clock'>,
  proof: LeadProof,
  kind: LeadKind,
): Promise<boolean> {
  const token = proof.botCheck;
  if (token) return services.botCheck.verify(token, botActionFor[kind], services.clientAddress);

  const formToken = proof.formToken;
  const now = services.clock.now();
  if (formTokenAge(services.config.authSecret, kind, formToken, now) !== 'ok') return false;
  const limit = await consumeRateLimit(services.database, { key: `publicFormNoScript:${kind}:${services.clientAddress}`, ...noScriptLimit, now });
  if (!limit.allowed) return false;
  // Spent once, like an ALTCHA solution, whichever instance sees it.
  try {
    const spent = await services.database.db
      .insertInto('bot_check_spent')
      .values({ signature: `lead-form:${String(formToken)}`, expires_at: now + MAX_FORM_AGE_MS })
      .onConflict((conflict) => conflict.column('signature').doNothing())
      .returning('signature')
      .executeTakeFirst();
    return Boolean(spent);
  } catch (error) {
    services.logger.error({ err: error }, 'lead form: could not record a spent form token');
    return false;
  }
}
