import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { solveAltchaChallenge, solveBotCheck, type AltchaChallenge } from '../../app/lib/bot-check-client.ts';
import type { Config } from '../../server/config.ts';
import type { Database } from '../../server/db/connection.ts';
import { createLogger } from '../../server/logger.ts';
import {
  altchaChallengeTtlMs,
  altchaDifficulty,
  createBotCheck,
  isBotAction,
  type BotAction,
  type BotCheckLogger,
} from '../../server/security/bot-check.ts';
import { openTestDatabase } from '../support/database.ts';
import { postgresAvailable } from '../support/server.ts';

const withPostgres = await postgresAvailable();
const authSecret = 'test-auth-secret-of-at-least-thirty-two-characters';

function recordingLogger() {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: BotCheckLogger = {
    warn: (_details, message) => warnings.push(message),
    error: (_details, message) => errors.push(message),
  };
  return { logger, warnings, errors };
}

function botCheckConfig(botCheck: Partial<Config['botCheck']> = {}): Pick<Config, 'botCheck' | 'authSecret'> {
  return { authSecret, botCheck: { provider: 'altcha', siteKey: '', secretKey: '', verifyUrl: undefined, ...botCheck } };
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function readBody(request: IncomingMessage) {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

/** Changes one field of a token's JSON and encodes it again. */
function tamper(token: string, change: (payload: { challenge: AltchaChallenge; solution: { counter: number; derivedKey: string } }) => void) {
  const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  change(payload);
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe('bot actions', () => {
  it('recognises exactly the known actions', () => {
    expect(isBotAction('LOGIN')).toBe(true);
    expect(isBotAction('SELL_FORM')).toBe(true);
    expect(isBotAction('login')).toBe(false);
    expect(isBotAction(undefined)).toBe(false);
  });

  it('takes the app logger', () => {
    const logger: BotCheckLogger = createLogger('silent');
    expect(typeof logger.warn).toBe('function');
  });
});

const dialects = [
  { name: 'sqlite', open: () => openTestDatabase('sqlite'), skip: false },
  { name: 'postgres', open: () => openTestDatabase('postgres'), skip: !withPostgres },
];

for (const dialect of dialects) {
  describe.skipIf(dialect.skip)(`ALTCHA proof of work on ${dialect.name}`, () => {
    let database: Database;
    let cleanup: () => Promise<void>;
    const log = recordingLogger();
    let botCheck: ReturnType<typeof createBotCheck>;

    beforeAll(async () => {
      ({ database, cleanup } = await dialect.open());
      botCheck = createBotCheck({ config: botCheckConfig(), database, logger: log.logger });
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
      const other = createBotCheck({ config: { ...botCheckConfig(), authSecret: `${authSecret}-other` }, database, logger: log.logger });
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
      await database.db.insertInto('bot_check_spent').values({ signature: 'long-expired', expires_at: Date.now() - 1_000 }).execute();
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
}

/**
 * A stand-in for Google's and Cloudflare's siteverify endpoints. The token decides the answer,
 * and every request is recorded so the test can check what the server sent.
 */
describe('reCAPTCHA v3 and Turnstile verification', () => {
  let url: string;
  let server: Server;
  let closedUrl: string;
  const received: URLSearchParams[] = [];
  let database: Database;
  let cleanup: (() => Promise<void>) | undefined;

  const answers: Record<string, { status?: number; body: unknown }> = {
    good: { body: { success: true, score: 0.9, action: 'LOGIN', hostname: 'gaadibazaar.in' } },
    borderline: { body: { success: true, score: 0.5, action: 'LOGIN' } },
    'low-score': { body: { success: true, score: 0.1, action: 'LOGIN' } },
    'wrong-action': { body: { success: true, score: 0.9, action: 'SELL_FORM' } },
    'no-action': { body: { success: true } },
    'no-score': { body: { success: true, action: 'LOGIN' } },
    failure: { body: { success: false, 'error-codes': ['invalid-input-response'] } },
    'server-error': { status: 500, body: { success: true, score: 1, action: 'LOGIN' } },
    'not-json': { body: 'success' },
  };

  beforeAll(async () => {
    ({ url, server } = await listen(async (request, response) => {
      const form = new URLSearchParams(await readBody(request));
      received.push(form);
      const answer = answers[form.get('response') ?? ''] ?? answers.failure!;
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(body);
    }));
    const closed = await listen(() => {});
    closedUrl = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    ({ database, cleanup } = await openTestDatabase('sqlite'));
  });
  afterAll(async () => {
    server?.close();
    await cleanup?.();
  });

  function vendor(provider: 'recaptcha' | 'turnstile', verifyUrl = `${url}/siteverify`) {
    const log = recordingLogger();
    const botCheck = createBotCheck({
      config: botCheckConfig({ provider, siteKey: 'site-key', secretKey: 'secret-key', verifyUrl }),
      database,
      logger: log.logger,
    });
    return { botCheck, ...log };
  }

  it('reCAPTCHA: passes a good token and sends secret, token and address', async () => {
    const { botCheck } = vendor('recaptcha');
    expect(botCheck.provider).toBe('recaptcha');
    expect(botCheck.siteKey).toBe('site-key');
    expect(await botCheck.challenge('LOGIN')).toEqual({ provider: 'recaptcha', siteKey: 'site-key', action: 'LOGIN' });
    expect(await botCheck.verify('good', 'LOGIN', '203.0.113.9')).toBe(true);
    expect(Object.fromEntries(received.at(-1)!)).toEqual({ secret: 'secret-key', response: 'good', remoteip: '203.0.113.9' });
    expect(await botCheck.verify('borderline', 'LOGIN')).toBe(true);
    expect(received.at(-1)!.has('remoteip')).toBe(false);
  });

  it('reCAPTCHA: refuses a low score, another action, a missing score and a failure', async () => {
    const { botCheck, warnings } = vendor('recaptcha');
    expect(await botCheck.verify('low-score', 'LOGIN')).toBe(false);
    expect(await botCheck.verify('good', 'SEND_OTP')).toBe(false);
    expect(await botCheck.verify('no-score', 'LOGIN')).toBe(false);
    expect(await botCheck.verify('no-action', 'LOGIN')).toBe(false);
    expect(await botCheck.verify('failure', 'LOGIN')).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('reCAPTCHA: refuses without asking when there is no token', async () => {
    const { botCheck } = vendor('recaptcha');
    const before = received.length;
    expect(await botCheck.verify(undefined, 'LOGIN')).toBe(false);
    expect(await botCheck.verify('', 'LOGIN')).toBe(false);
    expect(received.length).toBe(before);
  });

  it('reCAPTCHA: refuses and warns when Google cannot be asked', async () => {
    const unreachable = vendor('recaptcha', `${closedUrl}/siteverify`);
    expect(await unreachable.botCheck.verify('good', 'LOGIN')).toBe(false);
    expect(unreachable.warnings).toEqual(['bot check: verification service unreachable']);

    const broken = vendor('recaptcha');
    expect(await broken.botCheck.verify('server-error', 'LOGIN')).toBe(false);
    expect(await broken.botCheck.verify('not-json', 'LOGIN')).toBe(false);
    expect(broken.warnings).toHaveLength(2);
  });

  it('Turnstile: passes a good token and one without an action', async () => {
    const { botCheck } = vendor('turnstile');
    expect(await botCheck.verify('good', 'LOGIN', '2001:db8::1')).toBe(true);
    expect(Object.fromEntries(received.at(-1)!)).toEqual({ secret: 'secret-key', response: 'good', remoteip: '2001:db8::1' });
    // Turnstile has no score: a success without a score is a pass.
    expect(await botCheck.verify('no-score', 'LOGIN')).toBe(true);
    expect(await botCheck.verify('no-action', 'SELL_FORM')).toBe(true);
  });

  it('Turnstile: refuses another action and a failure', async () => {
    const { botCheck } = vendor('turnstile');
    expect(await botCheck.verify('wrong-action', 'LOGIN')).toBe(false);
    expect(await botCheck.verify('failure', 'LOGIN')).toBe(false);
  });

  it('Turnstile: refuses and warns when Cloudflare cannot be asked', async () => {
    const { botCheck, warnings } = vendor('turnstile', `${closedUrl}/siteverify`);
    expect(await botCheck.verify('good', 'LOGIN')).toBe(false);
    expect(warnings).toEqual(['bot check: verification service unreachable']);
  });
});
