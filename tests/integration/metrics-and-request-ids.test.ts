import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http-client.ts';
import { freePort, startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { enqueue } from '../../server/jobs/queue.ts';
import type { Database } from '../../server/db/connection.ts';

/**
 * The operator's view of a running site (decision 111), on this project's database: /metrics
 * refused without its token and served with it, or on a port of its own; its counters moving
 * with what the site does (a page from the cache and rendered, a mail sent, jobs waiting and
 * failed in the shared queue); X-Request-Id on every kind of answer, kept from a trusted proxy
 * and replaced from anyone else; and that id in a problem's `instance` and in the log lines of
 * the request and of the job it queued.
 */
const { dialect, url: sharedUrl } = sharedServer();

const TOKEN = randomBytes(32).toString('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 2000)}`);
    await sleep(100);
  }
}

/** The value of one sample of the exposition text (`name{labels}`), or null when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return null;
}

/** The log records a server wrote, parsed. */
function records(server: TestServer): Array<Record<string, unknown>> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(!sharedUrl)(`metrics and request ids on ${dialect}`, () => {
  let smtp: SmtpPeer;
  /** TRUST_PROXY, a metrics token, the page cache on, mail through an SMTP peer, access lines logged. */
  let site: TestServer;
  /** METRICS_PORT, no token, no trusted proxy, no worker: jobs stay in the queue. */
  let portServer: TestServer;
  let metricsPort: number;
  let database: Database;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    site = await startTestServer({
      dialect,
      env: { TRUST_PROXY: 'true', METRICS_TOKEN: TOKEN, PAGE_CACHE_SECONDS: '60', SMTP_URL: smtp.url, LOG_LEVEL: 'debug', JOB_POLL_MS: '100' },
    });
    metricsPort = await freePort();
    portServer = await startTestServer({ dialect, seed: false, env: { METRICS_PORT: String(metricsPort), WORKER: 'off' } });
    database = openServerDatabase(portServer);
  }, 180_000);

  afterEach(() => {
    smtp.mode = 'accept';
  });

  afterAll(async () => {
    await database?.close();
    await Promise.all([site?.stop(), portServer?.stop()]);
    await smtp?.close();
  });

  const scrape = async (server: TestServer = site) => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return response.text();
  };

  describe('/metrics', () => {
    it('is refused without the token, with a wrong one and with another scheme, saying nothing of the figures', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: `Bearer ${TOKEN.slice(1)}x` },
        { authorization: `Basic ${TOKEN}` },
        { authorization: 'Bearer' },
      ]) {
        const response = await fetch(`${site.url}/metrics`, { headers });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        const body = await response.text();
        expect(body).not.toContain('gaadi_');
        expect(body).not.toContain('process_');
      }
    });

    it('is served with the token: Prometheus text with the default process metrics and our own', async () => {
      const response = await fetch(`${site.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.text();
      for (const name of [
        'process_cpu_user_seconds_total',
        'nodejs_eventloop_lag_seconds',
        'gaadi_http_requests_total',
        'gaadi_http_request_duration_seconds_bucket',
        'gaadi_page_cache_lookups_total',
        'gaadi_job_queue_depth',
        'gaadi_job_oldest_waiting_age_seconds',
        'gaadi_messages_total',
        'gaadi_backup_age_seconds',
      ]) {
        expect(text, name).toContain(`${name}`);
      }
      expect(text).toContain('# HELP gaadi_job_queue_depth Jobs in the shared queue (read from the database at scrape time');
      // No backup taken on this database: NaN, which the documented alert treats as "no backup".
      expect(sample(text, 'gaadi_backup_age_seconds')).toBeNaN();
      // PostgreSQL has a pool to report; SQLite none.
      expect(sample(text, 'gaadi_db_pool_connections', { state: 'max' })).toBe(dialect === 'postgres' ? 10 : null);
    });

    it('is served only on METRICS_PORT when that is set: 404 on the site’s port, and nothing else on the metrics port', async () => {
      expect((await fetch(`${portServer.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${portServer.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('gaadi_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(405);
    });

    it('counts requests by route pattern and status, never by raw path', async () => {
      const client = new HttpClient(site.url);
      const before = await scrape();
      const key = { method: 'GET', route: '/api/v1/vehicles/:id', status: '404' };
      const count = sample(before, 'gaadi_http_requests_total', key) ?? 0;
      for (const id of [900000001, 900000002, 900000003]) expect((await client.get(`/api/v1/vehicles/${id}`)).status).toBe(404);
      expect((await client.get('/no/such/page/at/all')).status).toBe(404);
      const after = await scrape();
      expect(sample(after, 'gaadi_http_requests_total', key)).toBe(count + 3);
      expect(sample(after, 'gaadi_http_request_duration_seconds_count', key)).toBe(count + 3);
      expect(sample(after, 'gaadi_http_requests_total', { method: 'GET', route: 'other', status: '404' })).toBeGreaterThanOrEqual(1);
      expect(after).not.toContain('900000001');
      expect(after).not.toContain('/no/such/page');
    });

    it('counts a page rendered and stored (miss), then sent from the cache (hit)', async () => {
      const client = new HttpClient(site.url);
      const before = await scrape();
      const hits = sample(before, 'gaadi_page_cache_lookups_total', { outcome: 'hit' }) ?? 0;
      const misses = sample(before, 'gaadi_page_cache_lookups_total', { outcome: 'miss' }) ?? 0;
      // A car's page nothing asked for yet (the warm-up renders the first ones).
      const listing = (await (await client.get('/api/v1/vehicles?perPage=20')).json()) as { items: Array<{ id: number }> };
      const page = `/vehicle/${listing.items.at(-1)!.id}`;
      const first = await client.get(page);
      await first.text();
      const second = await client.get(page);
      await second.text();
      expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['miss', 'hit']);
      const after = await scrape();
      expect(sample(after, 'gaadi_page_cache_lookups_total', { outcome: 'miss' })).toBe(misses + 1);
      expect(sample(after, 'gaadi_page_cache_lookups_total', { outcome: 'hit' })).toBe(hits + 1);
    });

    it('reads the shared queue at scrape time: jobs waiting and how long, scheduled, failed by kind', async () => {
      const now = Date.now();
      // No worker on this server: what is queued stays.
      await enqueue(database.db, 'mail', { to: 'nobody' }, { nowMs: now - 90_000 });
      await enqueue(database.db, 'mail', { to: 'nobody' }, { nowMs: now - 10_000 });
      await enqueue(database.db, 'sms', { to: 'nobody' }, { nowMs: now, delayMs: 3_600_000 });
      const id = await enqueue(database.db, 'sms', { to: 'nobody' }, { nowMs: now, maxAttempts: 1 });
      await database.db.updateTable('jobs').set({ status: 'failed', last_error: 'refused', attempts: 1, finished_at_ms: now }).where('id', '=', id).execute();
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(sample(text, 'gaadi_job_queue_depth', { state: 'waiting' })).toBe(2);
      expect(sample(text, 'gaadi_job_queue_depth', { state: 'scheduled' })).toBe(1);
      expect(sample(text, 'gaadi_job_oldest_waiting_age_seconds')).toBeGreaterThanOrEqual(89);
      expect(sample(text, 'gaadi_jobs_failed', { name: 'sms' })).toBe(1);
    });

    it('reads the age of the last good backup at scrape time', async () => {
      const now = Date.now();
      await database.db
        .insertInto('backup_runs')
        .values([
          { name: 'good', started_ms: now - 7_300_000, finished_ms: now - 7_200_000, status: 'good', bytes: 1000, place: 'test', error: null, desk_told: 0 },
          {
            name: 'failed',
            started_ms: now - 600_000,
            finished_ms: now - 590_000,
            status: 'failed',
            bytes: null,
            place: 'test',
            error: 'disk full',
            desk_told: 0,
          },
        ])
        .execute();
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(sample(text, 'gaadi_backup_age_seconds')).toBeGreaterThanOrEqual(7200);
      expect(sample(text, 'gaadi_backup_age_seconds')).toBeLessThan(7300);
    });

    it('counts a mail sent, and a mail that failed and waits for its retry', async () => {
      const client = new HttpClient(site.url);
      const before = await scrape();
      const sent = sample(before, 'gaadi_messages_total', { channel: 'email', outcome: 'sent' }) ?? 0;
      const failed = sample(before, 'gaadi_messages_total', { channel: 'email', outcome: 'failed' }) ?? 0;
      const lead = async (phone: string) => {
        const response = await client.postForm('/request-vehicle', {
          name: 'Ravi Kumar',
          phone,
          model: 'Maruti Swift VXi',
          year: '2019',
          budget: '₹5,00,000',
          description: 'White',
          botCheck: await client.botToken('REQUEST_FORM'),
        });
        expect(response.status).toBe(200);
      };
      await lead('+919610000101');
      await smtp.waitForMessage((message) => message.text.includes('+919610000101'), 15_000);
      await until(scrape, (text) => sample(text, 'gaadi_messages_total', { channel: 'email', outcome: 'sent' }) === sent + 1, 'the mail counted as sent');

      smtp.mode = 'refuse';
      site.expectErrorLog(/could not be sent/);
      await lead('+919610000102');
      await until(
        scrape,
        (text) => (sample(text, 'gaadi_messages_total', { channel: 'email', outcome: 'failed' }) ?? 0) > failed,
        'the mail counted as failed',
      );
      await until(scrape, (text) => (sample(text, 'gaadi_jobs_retrying', { name: 'mail' }) ?? 0) >= 1, 'the mail job waiting for its retry');
    });
  });

  describe('X-Request-Id', () => {
    it('is on pages, the API, static files, media, health checks and errors', async () => {
      const client = new HttpClient(site.url, { address: null });
      const asset = /"(\/assets\/[^"]+\.js)"/.exec(await (await client.get('/about')).text())?.[1];
      expect(asset).toBeDefined();
      const paths = [
        '/',
        '/about',
        '/vehicle/1',
        '/api/v1/categories',
        '/api/v1/nothing',
        asset!,
        '/assets/missing.js',
        '/favicon.svg',
        '/no/such/page',
        '/healthz',
        '/readyz',
        '/media/missing.webp',
      ];
      const ids = new Set<string>();
      for (const path of paths) {
        const response = await client.get(path);
        await response.arrayBuffer();
        const id = response.headers.get('x-request-id');
        expect(id, path).toMatch(UUID);
        ids.add(id!);
      }
      expect(ids.size, 'each request its own').toBe(paths.length);
      // The refusal of /metrics too.
      expect((await fetch(`${site.url}/metrics`)).headers.get('x-request-id')).toMatch(UUID);
    });

    it('keeps a well-formed id from a trusted proxy, and replaces one that is not', async () => {
      const client = new HttpClient(site.url);
      const kept = await client.get('/about', { headers: { 'x-request-id': 'lb-2c9f1e.77' } });
      expect(kept.headers.get('x-request-id')).toBe('lb-2c9f1e.77');
      const tooLong = await client.get('/about', { headers: { 'x-request-id': 'x'.repeat(129) } });
      expect(tooLong.headers.get('x-request-id')).toMatch(UUID);
    });

    it('is replaced when no proxy is trusted', async () => {
      const response = await fetch(`${portServer.url}/healthz`, { headers: { 'x-request-id': 'chosen-by-a-visitor' } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it('is the problem’s instance', async () => {
      const response = await fetch(`${site.url}/api/v1/vehicles/900000009`, { headers: { 'x-request-id': 'problem-7781' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('x-request-id')).toBe('problem-7781');
      expect(await response.json()).toMatchObject({ status: 404, instance: 'urn:request:problem-7781' });
      const fresh = await fetch(`${site.url}/api/v1/nothing`);
      expect(((await fresh.json()) as { instance: string }).instance).toBe(`urn:request:${fresh.headers.get('x-request-id')}`);
    });

    it('is on the log lines of the request and of the job it queued, on whichever worker runs it', async () => {
      const client = new HttpClient(site.url);
      const requestId = `lead-${randomBytes(6).toString('hex')}`;
      const response = await client.postForm(
        '/request-vehicle',
        {
          name: 'Ravi Kumar',
          phone: '+919610000103',
          model: 'Honda City',
          year: '2020',
          budget: '₹8,00,000',
          description: 'Grey',
          botCheck: await client.botToken('REQUEST_FORM'),
        },
        { headers: { 'x-request-id': requestId } },
      );
      expect(response.headers.get('x-request-id')).toBe(requestId);
      await smtp.waitForMessage((message) => message.text.includes('+919610000103'), 15_000);
      const lines = await until(
        async () => records(site).filter((record) => record.requestId === requestId),
        (found) => found.some((record) => record.msg === 'mail sent'),
        'the job’s line',
      );
      expect(lines.find((record) => record.msg === 'request answered')).toMatchObject({ route: '/request-vehicle', method: 'POST', status: 200 });
      const siteDatabase = openServerDatabase(site);
      try {
        const row = await siteDatabase.db.selectFrom('jobs').select(['request_id']).where('request_id', '=', requestId).executeTakeFirst();
        expect(row).toEqual({ request_id: requestId });
      } finally {
        await siteDatabase.close();
      }
    });
  });
});
