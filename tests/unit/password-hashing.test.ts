import { hashPassword } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { fastPasswordHashing } from '../../server/auth/password-hashing.ts';
import { clockStartingAt } from '../../server/clock.ts';
import { parseConfig } from '../../server/config.ts';

/** The test suite's cheap password hashing (light bot-check work, a chosen clock): correct, and never available to production. */

const production = {
  APP_MODE: 'production',
  SITE_ORIGIN: 'https://www.example.in',
  AUTH_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtp://mail',
  SMS_PROVIDER: 'msg91',
  MSG91_AUTH_KEY: 'k',
  MSG91_TEMPLATE_ID: 't',
};

describe('password hashing', () => {
  it('is better-auth’s own by default; the fast kind is refused in production', () => {
    expect(parseConfig(production)).toMatchObject({ passwordHashing: 'standard' });
    expect(parseConfig({ APP_MODE: 'test' })).toMatchObject({ passwordHashing: 'standard' });
    expect(parseConfig({ APP_MODE: 'demo', PASSWORD_HASHING: 'fast-for-tests' })).toMatchObject({ passwordHashing: 'fast-for-tests' });
    expect(() => parseConfig({ ...production, PASSWORD_HASHING: 'fast-for-tests' })).toThrow(/PASSWORD_HASHING: fast-for-tests is for the test suite only/);
    expect(() => parseConfig({ APP_MODE: 'test', PASSWORD_HASHING: 'none' })).toThrow(/PASSWORD_HASHING/);
  });

  it('the bot check’s light proof of work is for tests only too: refused in production', () => {
    expect(parseConfig(production).botCheck.work).toBe('standard');
    expect(parseConfig({ APP_MODE: 'test' }).botCheck.work).toBe('standard');
    expect(parseConfig({ APP_MODE: 'test', BOT_CHECK_WORK: 'light-for-tests' }).botCheck.work).toBe('light-for-tests');
    expect(() => parseConfig({ ...production, BOT_CHECK_WORK: 'light-for-tests' })).toThrow(/BOT_CHECK_WORK: light-for-tests is for the test suite only/);
    expect(() => parseConfig({ APP_MODE: 'test', BOT_CHECK_WORK: 'none' })).toThrow(/BOT_CHECK_WORK/);
  });

  it('a chosen start for the clock is for tests only too: refused in production, and the clock runs on from it', () => {
    expect(parseConfig(production).testClockStartMs).toBeNull();
    expect(parseConfig({ APP_MODE: 'test', TEST_CLOCK_START: '2026-12-01T11:30:00+05:30' }).testClockStartMs).toBe(Date.parse('2026-12-01T06:00:00Z'));
    expect(() => parseConfig({ ...production, TEST_CLOCK_START: '2026-12-01T11:30:00+05:30' })).toThrow(/TEST_CLOCK_START: is for the test suite only/);
    expect(() => parseConfig({ APP_MODE: 'test', TEST_CLOCK_START: 'tomorrow' })).toThrow(/TEST_CLOCK_START/);
    const start = Date.parse('2026-12-01T06:00:00Z');
    const clock = clockStartingAt(start);
    const first = clock.now();
    expect(first - start).toBeGreaterThanOrEqual(0);
    expect(first - start).toBeLessThan(1_000);
  });

  it('accepts the right password only, salts each hash, and still checks a standard hash', async () => {
    const hash = await fastPasswordHashing.hash('secret-password');
    expect(hash).not.toContain('secret-password');
    expect(await fastPasswordHashing.hash('secret-password')).not.toBe(hash);
    expect(await fastPasswordHashing.verify({ hash, password: 'secret-password' })).toBe(true);
    expect(await fastPasswordHashing.verify({ hash, password: 'secret-passworD' })).toBe(false);
    const standard = await hashPassword('secret-password');
    expect(await fastPasswordHashing.verify({ hash: standard, password: 'secret-password' })).toBe(true);
    expect(await fastPasswordHashing.verify({ hash: standard, password: 'wrong' })).toBe(false);
  });
});
