import { describe, expect, test } from 'vitest';
import { browserHarness, type ViewportName } from '../support/browser.ts';

/**
 * The API's reference page (/api/docs, decision 075) in Chromium: Scalar's reference renders
 * the operations of /api/v1/openapi.json from the app's own copy of its bundle, under the
 * site's CSP with no violation, and no request leaves the app's origin (no fonts, proxy,
 * telemetry or CDN). Screenshots at phone and desktop width, to look at.
 */
const harness = browserHarness();

/** Records every CSP violation in the page, as the page sees it. */
const RECORD_VIOLATIONS = `window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));`;

describe('the API reference page', () => {
  for (const viewport of ['mobile', 'desktop'] as ViewportName[]) {
    test(`renders the operations at ${viewport} width, within the CSP, asking only the app`, async () => {
      const { page } = await harness.open({ viewport, initScripts: [RECORD_VIOLATIONS] });
      const origin = new URL(harness.baseUrl).origin;
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      const answer = await page.goto('/api/docs');
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'unsafe-eval'/);

      // The first tag's operations open, by their summaries from the document, and the
      // description with the error shape.
      await page.waitForLoadState('networkidle');
      await harness.screenshot(page, `api-docs-${viewport}`);
      await expect
        .poll(() => page.getByText('The listing: search, filters, sort, a page, and the count per filter value').count(), { timeout: 20_000 })
        .toBeGreaterThan(0);
      await expect.poll(() => page.getByText('Every 4xx and 5xx answer', { exact: false }).count()).toBeGreaterThan(0);

      // No report at all: the page's policy allows the bundle's zod its `new Function` (decision 075).
      expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
      const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
      expect(elsewhere).toEqual([]);
      expect(requested).toContain(`${origin}/api/v1/openapi.json`);
      // No horizontal scroll at phone width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    }, 60_000);
  }

  test('the bundle is served by the app, compressed and cached for a year', async () => {
    const html = await (await fetch(`${harness.baseUrl}/api/docs`)).text();
    const script = /<script src="(\/api\/docs\/scalar-[\d.]+\.js)">/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const response = await fetch(`${harness.baseUrl}${script}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await response.text()).length).toBeGreaterThan(1_000_000);
  });
});
