import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { maskPersonalText } from '../../server/observability/log-masking.ts';
import { currentRequestId, withinRequest } from '../../server/request-context.ts';
import { carriesToken } from '../../server/http/metrics-endpoint.ts';
import { requestIdFor } from '../../server/http/request-id.ts';
import { createRouteLabeller } from '../../server/http/route-label.ts';
import type { ServerBuild } from 'react-router';

/** The lines a logger writes, parsed. */
function capture(level = 'trace') {
  const lines: string[] = [];
  const logger = createLogger(level, 'json', { write: (line) => lines.push(line) });
  return { logger, text: () => lines.join(''), records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('free text in the log is masked (decision 111)', () => {
  it.each([
    ['Mail to ravi.kumar@example.in was refused', 'Mail to r***@example.in was refused', 'ravi.kumar@example.in'],
    ['SMS to +919876543210 failed', 'SMS to +******10 failed', '9876543210'],
    ['number 98765 43210 and 09876543210 and 919876543210', 'number ******10 and ******10 and ******10', '9876543210'],
    ['Your verification code is 482913.', 'Your verification code is ******.', '482913'],
    ['OTP: 4829', 'OTP: ******', '4829'],
    ['GET /verify-email?token=abc.def-ghi&x=1', 'GET /verify-email?token=[redacted]&x=1', 'abc.def-ghi'],
    ['Authorization: Bearer s3cr3t-t0ken', 'Authorization: Bearer [redacted]', 's3cr3t-t0ken'],
    ['licence MH12 20110012345 refused', 'licence MH********** refused', '20110012345'],
    ['licence dl-1420110012345', 'licence DL**********', '1420110012345'],
  ])('%s', (text, masked, raw) => {
    expect(maskPersonalText(text)).toBe(masked);
    expect(maskPersonalText(text)).not.toContain(raw);
  });

  it('leaves times, ids, amounts and error codes alone', () => {
    const line = '{"level":30,"time":1764344000123,"job":1234,"amountPaise":4500000,"code":"INVALID_EMAIL_OR_PASSWORD","msg":"jobs: failed, will retry"}';
    expect(maskPersonalText(line)).toBe(line);
  });
});

describe('the logger', () => {
  it('masks personal fields by name, wherever a call site puts them, and free text in messages and errors', () => {
    const { logger, text } = capture();
    logger.info({ email: 'asha@example.in', phone: '+919812345678', otp: '123456', token: 'tok-abc', licenceNumber: 'MH1220110012345' }, 'top level');
    logger.info({ person: { email: 'asha@example.in', phone: '9812345678', password: 'hunter22' } }, 'one level down');
    logger.warn({ err: new Error('550 mailbox asha@example.in unavailable') }, 'SMTP refused asha@example.in');
    const written = text();
    for (const raw of ['asha@example.in', '9812345678', '123456', 'tok-abc', '20110012345', 'hunter22']) expect(written).not.toContain(raw);
    expect(written).toContain('a***@example.in');
  });

  it('keeps what is not personal: an error code, an address already masked', () => {
    const { logger, records } = capture();
    logger.warn({ code: 'INVALID_EMAIL_OR_PASSWORD', to: 'a***@example.in' }, 'sign-in refused');
    expect(records()[0]).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD', to: 'a***@example.in' });
  });

  it('names the request on every line written within it, and none outside', async () => {
    const { logger, records } = capture();
    await withinRequest({ requestId: 'req-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info('inside');
      logger.child({ part: 'child' }).info('in a child logger');
    });
    logger.info('outside');
    expect(records().map((record) => record.requestId)).toEqual(['req-1', 'req-1', undefined]);
    expect(currentRequestId()).toBeNull();
  });
});

describe('X-Request-Id', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it('keeps a well-formed id behind a trusted proxy', () => {
    expect(requestIdFor('lb-7f3a.12', true)).toBe('lb-7f3a.12');
    expect(requestIdFor('x'.repeat(128), true)).toBe('x'.repeat(128));
  });
  it('makes its own for an untrusted sender, or an id too long, empty, repeated or not printable', () => {
    expect(requestIdFor('lb-7f3a.12', false)).toMatch(uuid);
    for (const bad of ['x'.repeat(129), '', 'two words', 'line\nbreak', 'ünïcode', ['a', 'b']]) expect(requestIdFor(bad, true)).toMatch(uuid);
    expect(requestIdFor(undefined, true)).toMatch(uuid);
  });
});

describe('the metrics token', () => {
  const token = 'a'.repeat(40);
  it('opens with Authorization: Bearer <token> only', () => {
    expect(carriesToken(`Bearer ${token}`, token)).toBe(true);
    expect(carriesToken(`bearer ${token}`, token)).toBe(true);
    expect(carriesToken(`Bearer ${token}x`, token)).toBe(false);
    expect(carriesToken(`Basic ${token}`, token)).toBe(false);
    expect(carriesToken(undefined, token)).toBe(false);
    expect(carriesToken('Bearer ', token)).toBe(false);
  });
});

describe('route labels are patterns, never paths', () => {
  const pages = {
    root: { id: 'root', path: '' },
    layout: { id: 'layout', parentId: 'root' },
    home: { id: 'home', parentId: 'layout', index: true },
    vehicle: { id: 'vehicle', parentId: 'layout', path: 'vehicle/:id' },
    missing: { id: 'missing', parentId: 'layout', path: '*' },
  } as unknown as ServerBuild['routes'];
  const label = createRouteLabeller({ exact: ['/healthz', '/metrics'], apiRoutes: ['/api/v1/vehicles/:id', '/api/v1/vehicles/compare'], pages });
  it.each([
    ['/', '/'],
    ['/vehicle/42', '/vehicle/:id'],
    ['/hi/vehicle/42', '/vehicle/:id'],
    ['/api/v1/vehicles/42', '/api/v1/vehicles/:id'],
    ['/api/v1/vehicles/compare', '/api/v1/vehicles/compare'],
    ['/api/v1/nothing/here', 'other'],
    ['/media/abc-320.webp', '/media/*'],
    ['/assets/entry-abc.js', '/assets/*'],
    ['/api/auth/get-session', '/api/auth/*'],
    ['/healthz', '/healthz'],
    ['/no/such/page', 'other'],
    ['/favicon.svg', 'static'],
  ])('%s -> %s', (path, expected) => {
    expect(label(path)).toBe(expected);
  });
});

describe('METRICS_PORT and METRICS_TOKEN', () => {
  const refused = (env: Record<string, string>) => {
    try {
      parseConfig({ APP_MODE: 'test', ...env });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };
  it('are off unless set', () => {
    expect(parseConfig({ APP_MODE: 'test' }).metrics).toEqual({ port: null, token: null });
    expect(parseConfig({ APP_MODE: 'test', METRICS_PORT: '9464', METRICS_TOKEN: 'f'.repeat(64) }).metrics).toEqual({ port: 9464, token: 'f'.repeat(64) });
  });
  it('refuse a port that is no port, or the site’s own, and a short or spaced token, saying why', () => {
    expect(refused({ METRICS_PORT: 'abc' })).toContain('METRICS_PORT: must be a port number (1-65535) for /metrics alone');
    expect(refused({ METRICS_PORT: '70000' })).toContain('METRICS_PORT: must be a port number (1-65535) for /metrics alone');
    expect(refused({ PORT: '3000', METRICS_PORT: '3000' })).toContain('METRICS_PORT: must differ from PORT (3000)');
    expect(refused({ METRICS_PORT: '3000' })).toContain('METRICS_PORT: must differ from PORT (3000)');
    expect(refused({ METRICS_TOKEN: 'short' })).toContain('METRICS_TOKEN: must be at least 32 characters of random text');
    expect(refused({ METRICS_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` })).toContain('METRICS_TOKEN: must be printable characters without spaces');
  });
});
