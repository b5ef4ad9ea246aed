import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPathAfterSignIn } from '../../server/admin/admin-auth.ts';
import type { Database } from '../../server/db/connection.ts';
import { consumeRateLimit, peekRateLimit, refundRateLimit } from '../../server/security/rate-limit.ts';
import {
  isKnownDevice,
  KNOWN_DEVICE_COOKIE,
  knownDeviceCookie,
  openSignInGate,
  SLOWDOWN_LONGEST_WAIT_MS,
  staffSlowdownMs,
  type SignInLimitDeps,
} from '../../server/auth/sign-in-limits.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { postgresAvailable } from '../support/server.ts';

const secret = 'unit-test-secret-that-is-long-enough';
const NOW = Date.parse('2026-11-25T06:30:00.000Z');
const clock = { now: () => NOW };

/** The cookie header a browser would send back after `headers` set the known-device cookie. */
function sentBack(headers: Headers): string {
  return headers.getSetCookie()[0]!.split(';')[0]!;
}

describe('known-device cookie', () => {
  it('vouches for the account it was set for, and only that one', () => {
    const cookie = sentBack(knownDeviceCookie({ secret, secureCookies: false }, null, 'Asha@Example.in'));
    expect(cookie.startsWith(`${KNOWN_DEVICE_COOKIE}=`)).toBe(true);
    expect(isKnownDevice(secret, cookie, 'asha@example.in')).toBe(true);
    expect(isKnownDevice(secret, cookie, 'ravi@example.in')).toBe(false);
    expect(isKnownDevice('another-secret', cookie, 'asha@example.in'), 'made with another secret').toBe(false);
    expect(cookie, 'the address itself is not in the cookie').not.toMatch(/asha/i);
  });

  it('is httpOnly and SameSite=Lax, Secure in production', () => {
    const header = knownDeviceCookie({ secret, secureCookies: true }, null, 'a@example.in').getSetCookie()[0]!;
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Secure/);
    expect(knownDeviceCookie({ secret, secureCookies: false }, null, 'a@example.in').getSetCookie()[0]).not.toMatch(/Secure/);
  });

  it('remembers the last five accounts on one device', () => {
    let cookie: string | null = null;
    const emails = Array.from({ length: 6 }, (_, index) => `person${index}@example.in`);
    for (const email of emails) cookie = `other=1; ${sentBack(knownDeviceCookie({ secret, secureCookies: false }, cookie, email))}`;
    expect(emails.map((email) => isKnownDevice(secret, cookie, email))).toEqual([false, true, true, true, true, true]);
  });

  it('ignores garbage', () => {
    expect(isKnownDevice(secret, `${KNOWN_DEVICE_COOKIE}=${'x'.repeat(5000)}`, 'a@example.in')).toBe(false);
    expect(isKnownDevice(secret, '', 'a@example.in')).toBe(false);
    expect(isKnownDevice(secret, null, 'a@example.in')).toBe(false);
  });
});

describe('where an admin lands after sign-in', () => {
  it.each([
    [null, '/admin-panel'],
    ['/admin/settings', '/admin/settings'],
    ['/admin/settings.data', '/admin/settings'],
    ['/admin/settings.data?_routes=routes%2Fadmin%2Fsettings', '/admin/settings'],
    ['/admin/audit-log.data?page=3&_routes=x', '/admin/audit-log?page=3'],
    ['/admin-panel/_index.data?index', '/admin-panel'],
    ['/admin-panel?index', '/admin-panel'],
    ['/admin', '/admin'],
    ['/administrator', '/admin-panel'],
    ['/', '/admin-panel'],
    ['//evil.example/admin', '/admin-panel'],
    ['/\\evil.example', '/admin-panel'],
    ['https://evil.example/admin', '/admin-panel'],
    ['javascript:alert(1)', '/admin-panel'],
    ['/admin/../profile', '/admin-panel'],
  ])('%j -> %j', (value, expected) => {
    expect(adminPathAfterSignIn(value)).toBe(expected);
  });
});

const withPostgres = await postgresAvailable();

for (const dialect of [
  { name: 'sqlite', skip: false },
  { name: 'postgres', skip: !withPostgres },
] as const) {
  describe.skipIf(dialect.skip)(`sign-in gate on ${dialect.name}`, () => {
    let opened: TestDatabase;
    let database: Database;
    beforeAll(async () => {
      opened = await openTestDatabase(dialect.name);
      database = opened.database;
    }, 60_000);
    afterAll(async () => {
      await opened?.cleanup();
    });

    it('peek reads without counting; refund gives one back, never below zero', async () => {
      const key = 'unit:peek';
      expect(await peekRateLimit(database, { key, windowMs: 60_000, now: NOW })).toBe(0);
      await consumeRateLimit(database, { key, limit: 5, windowMs: 60_000, now: NOW });
      await consumeRateLimit(database, { key, limit: 5, windowMs: 60_000, now: NOW });
      expect(await peekRateLimit(database, { key, windowMs: 60_000, now: NOW })).toBe(2);
      await refundRateLimit(database, key);
      await refundRateLimit(database, key);
      await refundRateLimit(database, key);
      expect(await peekRateLimit(database, { key, windowMs: 60_000, now: NOW })).toBe(0);
    });

    it('successes give their slots back; failures keep them and count against the account', async () => {
      const deps = { database, clock, secret, secureCookies: false, isStaff: () => false };
      const input = { page: 'login' as const, address: '198.51.100.7', email: 'gate@example.in', cookieHeader: null };
      for (let round = 0; round < 20; round++) {
        const gate = await openSignInGate(deps, input);
        expect(gate.allowed).toBe(true);
        if (gate.allowed) await gate.succeeded();
      }
      for (let round = 0; round < 10; round++) {
        const gate = await openSignInGate(deps, input);
        expect(gate.allowed, `failure ${round + 1}`).toBe(true);
        if (gate.allowed) await gate.failed();
      }
      expect((await openSignInGate(deps, input)).allowed).toBe(false);
      expect(await peekRateLimit(database, { key: 'sign-in-failures:gate@example.in', windowMs: 60_000, now: NOW })).toBe(10);
    });

    it('a staff account past ten failures in the hour makes an unknown device wait between tries, from any address and page; its own device never waits', async () => {
      let now = NOW;
      const staffEmail = `boss.${dialect.name}@gaadibazaar.in`;
      const deps: SignInLimitDeps = { database, clock: { now: () => now }, secret, secureCookies: false, isStaff: (email) => email === staffEmail };
      let addresses = 0;
      const attempt = (page: 'login' | 'admin-login' = 'admin-login', cookieHeader: string | null = null) =>
        openSignInGate(deps, { page, address: `203.0.113.${++addresses}`, email: staffEmail, cookieHeader });
      const fail = async (page: 'login' | 'admin-login' = 'admin-login') => {
        const gate = await attempt(page);
        expect(gate.allowed, `try ${addresses}`).toBe(true);
        if (gate.allowed) await gate.failed();
      };
      // The owner's phone signed in before the attack.
      const phone = sentBack(knownDeviceCookie(deps, null, staffEmail));
      // Ten guesses from ten addresses, over both pages: each one a first try there, all allowed.
      for (let round = 0; round < 10; round++) await fail(round % 2 === 0 ? 'admin-login' : 'login');
      // The eleventh, from yet another address, even with the right password: wait 30 seconds.
      const refused = await attempt();
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 30, reason: 'account-slowed' });
      expect((await attempt('login')).allowed, 'the public login of a staff address too').toBe(false);
      // The owner's own device signs in at once.
      const own = await attempt('admin-login', phone);
      expect(own.allowed).toBe(true);
      if (own.allowed) await own.succeeded();
      // 30 seconds on: one turn, whoever takes it; then twice as long.
      now += 30_000;
      await fail();
      expect(await attempt()).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
      now += 59_000;
      expect(await attempt()).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      now += 1_000;
      // Guesses sent at once when the wait is over: one of them is a try.
      const crowd = await Promise.all(Array.from({ length: 6 }, () => attempt()));
      expect(crowd.filter((gate) => gate.allowed)).toHaveLength(1);
      const [taken] = crowd.filter((gate) => gate.allowed);
      if (taken?.allowed) await taken.failed();
      expect(await attempt()).toMatchObject({ allowed: false, retryAfterSeconds: 120 });
      // Never a lock: the wait stops growing at 15 minutes, and the owner on a new device then gets in.
      expect(staffSlowdownMs(9)).toBe(0);
      expect(staffSlowdownMs(10)).toBe(30_000);
      expect(staffSlowdownMs(1_000)).toBe(SLOWDOWN_LONGEST_WAIT_MS);
      now += 120_000;
      const owner = await attempt();
      expect(owner.allowed).toBe(true);
      if (owner.allowed) await owner.succeeded();
      // Another account, and a buyer's, are not slowed by it.
      const buyer = await openSignInGate(deps, { page: 'login', address: '198.51.100.99', email: `buyer.${dialect.name}@example.in`, cookieHeader: null });
      expect(buyer.allowed).toBe(true);
      // The hour over, the count starts again.
      now += 60 * 60_000;
      expect((await attempt()).allowed).toBe(true);
    });
  });
}
