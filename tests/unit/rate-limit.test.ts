import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from '../../server/security/rate-limit.ts';

describe('client address', () => {
  const headers = (forwarded?: string) => new Headers(forwarded ? { 'x-forwarded-for': forwarded } : {});

  it('ignores X-Forwarded-For unless a proxy is trusted', () => {
    expect(clientAddress(headers('1.2.3.4'), '203.0.113.9', false)).toBe('203.0.113.9');
    expect(clientAddress(headers(), '::ffff:203.0.113.9', false)).toBe('203.0.113.9');
    expect(clientAddress(headers(), undefined, false)).toBeUndefined();
  });

  it('takes the entry our proxy appended, not what the client wrote', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the real address.
    expect(clientAddress(headers('1.2.3.4, 198.51.100.20'), '10.0.0.2', true)).toBe('198.51.100.20');
    expect(clientAddress(headers('1.2.3.4, 198.51.100.20, 10.0.0.3'), '10.0.0.2', 2)).toBe('198.51.100.20');
    expect(clientAddress(headers('[2001:db8::1]:443'), '10.0.0.2', true)).toBe('2001:db8::1');
    expect(clientAddress(headers('203.0.113.5:51234'), '10.0.0.2', true)).toBe('203.0.113.5');
  });

  it('falls back to the socket when the header is missing or garbage', () => {
    expect(clientAddress(headers(), '10.0.0.2', true)).toBe('10.0.0.2');
    expect(clientAddress(headers('not-an-ip'), '10.0.0.2', true)).toBe('10.0.0.2');
  });

  it('keys IPv6 by /64 and IPv4 by address', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2401:4900:1c2a:5e10:abcd::1')).toBe('2401:4900:1c2a:5e10::/64');
    expect(addressKey('2401:4900:1c2a:5e10:ffff:1:2:3')).toBe('2401:4900:1c2a:5e10::/64');
    expect(addressKey('2401:4900::1')).toBe('2401:4900:0:0::/64');
    expect(addressKey('::ffff:198.51.100.1')).toBe('198.51.100.1');
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('garbage')).toBe('unknown');
  });
});
