import type { IncomingMessage, Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { createLogger } from '../../server/logger.ts';
import { createBotCheck, isBotAction, type BotCheckLogger } from '../../server/security/bot-check.ts';
import { botCheckConfig, listen, recordingLogger } from '../support/bot-check.ts';
import { openTestDatabase } from '../support/database.ts';
import { systemClock } from '../../server/clock.ts';

async function readBody(request: IncomingMessage) {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
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
      clock: systemClock,
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
