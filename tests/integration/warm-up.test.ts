import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * A new instance renders its first pages for itself before /readyz says 200 (server/http/
 * warm-up.ts, decision 088), so the visitors a load balancer sends it after a deploy do not wait
 * for a cold process. The built server runs as `node server.js` does, logging at info.
 */

const shared = sharedServer();

type WarmUpRecord = { msg: string; pages: Array<{ path: string; status: number | string; ms: number }>; ms: number };

function records(output: string): Array<{ msg?: string }> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string });
}

describe.skipIf(!shared.url)('warming up before saying ready', () => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
  });

  it('asks the listing page, the API listing and a car before it is ready, and says so before it serves', async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, childProcess: true, env: { LOG_LEVEL: 'info', PAGE_CACHE_SECONDS: '5' } });
    // The start returns once /readyz says 200; the child's announcement may still be on its way
    // through the pipe on a busy machine.
    const started = server;
    await expect.poll(() => started.output().includes('is serving on'), { timeout: 10_000 }).toBe(true);
    const logged = records(server.output());
    const warmUp = logged.find((record) => record.msg?.startsWith('warmed up')) as WarmUpRecord | undefined;
    expect(warmUp, server.output()).toBeDefined();
    expect(warmUp!.pages.map((page) => page.path)).toEqual(['/', '/api/v1/vehicles', expect.stringMatching(/^\/vehicle\/\d+$/)]);
    expect(warmUp!.pages.every((page) => page.status === 200)).toBe(true);
    // Warmed before the instance announced itself (and so before /readyz said 200, which the start waited for).
    const warmedAt = logged.findIndex((record) => record.msg?.startsWith('warmed up'));
    const servingAt = logged.findIndex((record) => record.msg?.includes('is serving on'));
    expect(warmedAt).toBeLessThan(servingAt);

    // The home page it rendered is the one a signed-out visitor is then given from the page cache.
    const home = await fetch(`${server.url}/`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(home.status).toBe(200);
    expect(home.headers.get('x-cache')).toBe('hit');
    expect(await home.text()).toContain('</html>');
  });

  it('with no cars for sale asks the two listings and is ready all the same', async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: false, childProcess: true, env: { LOG_LEVEL: 'info' } });
    const warmUp = records(server.output()).find((record) => record.msg?.startsWith('warmed up')) as WarmUpRecord | undefined;
    expect(warmUp!.pages).toEqual([
      { path: '/', status: 200, ms: expect.any(Number) },
      { path: '/api/v1/vehicles', status: 200, ms: expect.any(Number) },
    ]);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
