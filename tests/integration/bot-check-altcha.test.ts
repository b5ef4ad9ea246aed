import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { solveAltchaChallenge, solveBotCheck, type AltchaChallenge } from '../../app/lib/bot-check-client.ts';
import type { Database } from '../../server/db/connection.ts';
import { altchaChallengeTtlMs, altchaDifficulty, lightAltchaDifficulty, createBotCheck, isBotAction, type BotAction } from '../../server/security/bot-check.ts';
import { authSecret, botCheckConfig, listen, recordingLogger } from '../support/bot-check.ts';
import { openTestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';
import { systemClock } from '../../server/clock.ts';

/** Changes one field of a token's JSON and encodes it again. */
function tamper(token: string, change: (payload: { challenge: AltchaChallenge; solution: { counter: number; derivedKey: string } }) => void) {
  const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  change(payload);
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

// This project's database: SQLite in integration-sqlite, PostgreSQL in integration-postgres
// (its url is '' when PostgreSQL is unreachable outside CI; under CI that fails the run).
const shared = sharedServer();
const dialect = { name: shared.dialect, open: () => openTestDatabase(shared.dialect), skip: shared.url === '' };

describe.skipIf(dialect.skip)(`ALTCHA proof of work on ${dialect.name}`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  const log = recordingLogger();
  let botCheck: ReturnType<typeof createBotCheck>;

  beforeAll(async () => {
    ({ database, cleanup } = await dialect.open());
    botCheck = createBotCheck({ config: botCheckConfig(), database, logger: log.logger, clock: systemClock });
  }, 60_000);
  afterAll(async () => {
    await cleanup?.();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function solvedToken(action: BotAction) {
    return solveAltchaChallenge((await botCheck.challenge(action)) as AltchaChallenge);
  }

  it('issues a signed, expiring SHA-256 challenge bound to the action', async () => {
    const challenge = (await botCheck.challenge('LOGIN')) as AltchaChallenge;
    expect(botCheck.provider).toBe('altcha');
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, data: { action: 'LOGIN' } });
    const expiresAt = challenge.parameters.expiresAt as number;
    expect(expiresAt * 1000).toBeGreaterThan(Date.now() + altchaChallengeTtlMs - 5_000);
    expect(expiresAt * 1000).toBeLessThanOrEqual(Date.now() + altchaChallengeTtlMs);
  });

  it('accepts a real solution once and refuses its replay', async () => {
    const token = await solvedToken('LOGIN');
    const { solution } = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    expect(solution.counter).toBeGreaterThanOrEqual(altchaDifficulty.minCounter);
    expect(solution.counter).toBeLessThanOrEqual(altchaDifficulty.maxCounter);

    expect(await botCheck.verify(token, 'LOGIN')).toBe(true);
    expect(await botCheck.verify(token, 'LOGIN')).toBe(false);
  });

  it('with BOT_CHECK_WORK=light-for-tests (the test servers’ setting) issues the same challenge for less work, checked the same', async () => {
    const light = createBotCheck({ config: botCheckConfig({ work: 'light-for-tests' }), database, logger: log.logger, clock: systemClock });
    const challenge = (await light.challenge('LOGIN')) as AltchaChallenge;
    expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, data: { action: 'LOGIN' } });
    const token = await solveAltchaChallenge(challenge);
    const { solution } = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    expect(solution.counter).toBeGreaterThanOrEqual(lightAltchaDifficulty.minCounter);
    expect(solution.counter).toBeLessThanOrEqual(lightAltchaDifficulty.maxCounter);
    expect(await light.verify(token, 'REQUEST_FORM')).toBe(false);
    expect(await light.verify(token, 'LOGIN')).toBe(true);
    expect(await light.verify(token, 'LOGIN')).toBe(false);
  });

  it('lets exactly one of several simultaneous uses of one solution through', async () => {
    const token = await solvedToken('SEND_OTP');
    const results = await Promise.all(Array.from({ length: 8 }, () => botCheck.verify(token, 'SEND_OTP')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuses a solution for another action', async () => {
    const token = await solvedToken('REQUEST_FORM');
    expect(await botCheck.verify(token, 'SELL_FORM')).toBe(false);
    // The refusal did not spend it: the form it was made for still accepts it.
    expect(await botCheck.verify(token, 'REQUEST_FORM')).toBe(true);
  });

  it('refuses tampered payloads', async () => {
    const token = await solvedToken('LOGIN');
    const wrongKey = tamper(token, (payload) => {
      const key = payload.solution.derivedKey;
      payload.solution.derivedKey = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    });
    const otherAction = tamper(token, (payload) => {
      (payload.challenge.parameters.data as Record<string, string>).action = 'SELL_FORM';
    });
    const longerExpiry = tamper(token, (payload) => {
      payload.challenge.parameters.expiresAt = (payload.challenge.parameters.expiresAt as number) + 3600;
    });
    const easierPrefix = tamper(token, (payload) => {
      payload.challenge.parameters.keyPrefix = '00';
    });
    const otherSignature = tamper(token, (payload) => {
      payload.challenge.signature = '0'.repeat(64);
    });
    const noSignature = tamper(token, (payload) => {
      delete payload.challenge.signature;
    });
    expect(await botCheck.verify(wrongKey, 'LOGIN')).toBe(false);
    expect(await botCheck.verify(otherAction, 'SELL_FORM')).toBe(false);
    expect(await botCheck.verify(longerExpiry, 'LOGIN')).toBe(false);
    expect(await botCheck.verify(easierPrefix, 'LOGIN')).toBe(false);
    expect(await botCheck.verify(otherSignature, 'LOGIN')).toBe(false);
    expect(await botCheck.verify(noSignature, 'LOGIN')).toBe(false);
    // None of those spent the genuine token.
    expect(await botCheck.verify(token, 'LOGIN')).toBe(true);
  });

  it('refuses a solution signed with another secret', async () => {
    const other = createBotCheck({ config: { ...botCheckConfig(), authSecret: `${authSecret}-other` }, database, logger: log.logger, clock: systemClock });
    const token = await solveAltchaChallenge((await other.challenge('LOGIN')) as AltchaChallenge);
    expect(await botCheck.verify(token, 'LOGIN')).toBe(false);
  });

  it('refuses missing and malformed tokens', async () => {
    for (const token of [undefined, null, '', 'not base64 !!', Buffer.from('{"challenge":1}').toString('base64'), 'A'.repeat(20_000)]) {
      expect(await botCheck.verify(token, 'LOGIN')).toBe(false);
    }
    const badHex = tamper(await solvedToken('LOGIN'), (payload) => {
      payload.solution.derivedKey = 'zz';
    });
    expect(await botCheck.verify(badHex, 'LOGIN')).toBe(false);
  });

  it('refuses an expired solution', async () => {
    const token = await solvedToken('LOGIN');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + altchaChallengeTtlMs + 1_000);
    expect(await botCheck.verify(token, 'LOGIN')).toBe(false);
  });

  it('prunes spent solutions that have expired', async () => {
    await database.db
      .insertInto('bot_check_spent')
      .values({ signature: 'long-expired', expires_at: Date.now() - 1_000 })
      .execute();
    expect(await botCheck.verify(await solvedToken('GOOGLE_LOGIN'), 'GOOGLE_LOGIN')).toBe(true);
    const signatures = (await database.db.selectFrom('bot_check_spent').select('signature').execute()).map((row) => row.signature);
    expect(signatures).not.toContain('long-expired');
    expect(signatures.length).toBeGreaterThan(0);
    expect(log.errors).toEqual([]);
  });

  it('solves through the browser entry point against a challenge endpoint', async () => {
    const requested: string[] = [];
    const { url, server } = await listen(async (request, response) => {
      requested.push(request.url ?? '');
      const action = new URL(request.url ?? '/', 'http://localhost').searchParams.get('action');
      if (!isBotAction(action)) {
        response.writeHead(400).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await botCheck.challenge(action)));
    });
    try {
      const token = await solveBotCheck('SELL_FORM', { provider: 'altcha', challengeUrl: `${url}/api/bot-check/challenge` });
      expect(requested).toEqual(['/api/bot-check/challenge?action=SELL_FORM']);
      expect(await botCheck.verify(token, 'SELL_FORM')).toBe(true);
      await expect(solveBotCheck('NOPE', { provider: 'altcha', challengeUrl: `${url}/x` })).rejects.toThrow(/HTTP 400/);
    } finally {
      server.close();
    }
  });
});
