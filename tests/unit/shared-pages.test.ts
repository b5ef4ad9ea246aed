import { describe, expect, it } from 'vitest';
import { isSharedPageRequest } from '../../server/http/shared-pages.ts';

/** Shared pages (decision 127): which requests are rendered for nobody, whatever the session. */
describe('shared page requests', () => {
  const request = (path: string, init: { method?: string; cookie?: string } = {}) =>
    new Request(new URL(path, 'https://gaadibazaar.test'), { method: init.method ?? 'GET', headers: init.cookie ? { cookie: init.cookie } : {} });
  const session = 'gb.session_token=abc.def';

  it('takes the cached public pages, in English and Hindi, with or without a session', () => {
    for (const path of ['/', '/?q=swift', '/categories', '/about', '/contact', '/app', '/vehicle/53', '/hi', '/hi/', '/hi/vehicle/53']) {
      expect(isSharedPageRequest(request(path)), path).toBe(true);
      expect(isSharedPageRequest(request(path, { cookie: session })), path).toBe(true);
    }
  });

  it('takes a client navigation’s data request as its page', () => {
    for (const path of ['/_.data', '/vehicle/53.data?_routes=routes%2Fvehicle', '/hi.data', '/hi/vehicle/53.data', '/_.data?q=swift&_routes=root']) {
      expect(isSharedPageRequest(request(path, { cookie: session })), path).toBe(true);
    }
    expect(isSharedPageRequest(request('/profile.data', { cookie: session }))).toBe(false);
    expect(isSharedPageRequest(request('/_.data?x=1'))).toBe(false);
  });

  it('leaves out personal pages, posts, undeclared parameters and a request with a flash message', () => {
    for (const path of ['/profile', '/wishlist', '/login', '/admin', '/rent', '/compare', '/vehicle/abc', '/?x=1']) {
      expect(isSharedPageRequest(request(path)), path).toBe(false);
    }
    expect(isSharedPageRequest(request('/vehicle/53', { method: 'POST' }))).toBe(false);
    expect(isSharedPageRequest(request('/vehicle/53', { cookie: `${session}; gb_flash=e30%3D.sig` }))).toBe(false);
    expect(isSharedPageRequest(request('/vehicle/53', { cookie: 'gb_flash=e30%3D.sig' }))).toBe(false);
    expect(isSharedPageRequest(request('/vehicle/53', { cookie: 'not_gb_flash=1' }))).toBe(true);
  });
});
