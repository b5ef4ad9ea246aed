import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../server/http/compression.ts';
import { inlineScriptHashes, pageCacheKey } from '../../server/http/page-cache.ts';

describe('page cache keys', () => {
  const key = (url: string) => pageCacheKey(new URL(url, 'http://localhost'));

  it('is the address without its tracking parameters, exactly as written (decision 092)', () => {
    expect(key('/')).toBe('/');
    expect(key('/?utm_source=whatsapp&fbclid=abc')).toBe('/');
    expect(key('/?q=swift&utm_medium=social')).toBe('/?q=swift');
    expect(key('/?page=2&q=swift')).toBe('/?page=2&q=swift');
    expect(key('/?make=maruti&budget=5-10&make=hyundai')).toBe('/?make=maruti&budget=5-10&make=hyundai');
    // Two spellings are two addresses: a page that writes its address back renders each its own way.
    expect(key('/?q=maruti+swift')).not.toBe(key('/?q=maruti%20swift'));
    expect(key('/categories?category=suvs&page=3&gclid=x')).toBe('/categories?category=suvs&page=3');
    expect(key('/vehicle/12?dp=100000&utm_source=whatsapp')).toBe('/vehicle/12?dp=100000');
    expect(key('/hi/vehicle/12?tenure=36')).toBe('/hi/vehicle/12?tenure=36');
  });

  it('keeps no page asked with a parameter it does not read', () => {
    for (const url of ['/?x=1', '/?q=swift&x=1', '/categories?ref=home', '/vehicle/12?from=share', '/vehicle/12?q=swift', '/about?page=2'])
      expect(key(url), url).toBeNull();
  });

  it('never keys pages that are not public catalogue pages', () => {
    for (const url of ['/login', '/profile', '/admin', '/vehicle/abc', '/vehicle/1.data', '/_root.data', '/wishlist']) expect(key(url), url).toBeNull();
  });
});

describe('encoding choice', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=0.5, br;q=0.2')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('inline script hashes', () => {
  it('names every inline script by its SHA-256 and skips scripts loaded from a file', () => {
    const html = '<script>a()</script><script type="module" src="/assets/x.js"></script><script type="module">import "/assets/y.js"</script>';
    expect(inlineScriptHashes(html)).toEqual(["'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='", expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
  });
});
