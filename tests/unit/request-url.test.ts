import { describe, expect, it } from 'vitest';
import { acceptedOrigins } from '../../server/config.ts';
import { requestUrlOnSite } from '../../server/http/request-url.ts';

const site = (siteOrigin: string) => requestUrlOnSite({ siteOrigin, acceptedOrigins: acceptedOrigins(siteOrigin) });

describe('requestUrlOnSite: the address the app sees for a request', () => {
  it('is on the public https origin behind a TLS proxy, whatever the socket was', () => {
    const onSite = site('https://www.example.in');
    expect(onSite('/login?redirectTo=%2Fprofile', 'www.example.in')).toBe('https://www.example.in/login?redirectTo=%2Fprofile');
    expect(onSite('/', 'WWW.EXAMPLE.IN')).toBe('https://www.example.in/');
  });

  it('never takes a forged or unknown Host, nor the origin of an absolute-form target', () => {
    const onSite = site('https://www.example.in');
    expect(onSite('/reset', 'evil.example')).toBe('https://www.example.in/reset');
    expect(onSite('/reset', undefined)).toBe('https://www.example.in/reset');
    expect(onSite('/healthz', '127.0.0.1:3000')).toBe('https://www.example.in/healthz');
    expect(onSite('http://evil.example/x?y=1', 'www.example.in')).toBe('https://www.example.in/x?y=1');
    expect(onSite('//evil.example/x', 'www.example.in')).toBe('https://www.example.in//evil.example/x');
    expect(new URL(onSite('//evil.example/x', 'www.example.in')).host).toBe('www.example.in');
  });

  it('keeps each loopback name of a local site as the browser opened it (decision 089)', () => {
    const onSite = site('http://localhost:3311');
    expect(onSite('/login', '127.0.0.1:3311')).toBe('http://127.0.0.1:3311/login');
    expect(onSite('/login', 'localhost:3311')).toBe('http://localhost:3311/login');
    expect(onSite('/login', '[::1]:3311')).toBe('http://[::1]:3311/login');
    expect(onSite('/login', '127.0.0.1:9999')).toBe('http://localhost:3311/login');
  });
});
