/**
 * Section 6: the listing over HTTP at 100k vehicles against 1k, and the server's memory.
 * The built server (a private copy of build/, SQLite) is started twice on databases holding the
 * synthetic inventory of bench/search.ts (bench/lib/inventory.ts): once with 1,000 cars and
 * once with 100,000. Each page is loaded with autocannon the same way on both; the ratio
 * (req/s at 1k ÷ req/s at 100k) says how much slower the page gets as the inventory grows.
 * The page cache is off (every request renders and queries), listing counts are kept as
 * deployed (LISTING_TOTALS_SECONDS). After the load on 100k, the server's resident memory.
 *
 *   npm run bench -- scale [--duration=5] [--connections=10] [--sizes=1000,100000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { createCategory } from '../server/catalog/vehicles.ts';
import { openDatabase } from '../server/db/connection.ts';
import { demoCategories } from '../server/db/demo/inventory.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { loadAverage, option, random, writeResult } from './lib/common.ts';
import { fill } from './lib/inventory.ts';
// @ts-expect-error plain JavaScript helpers without types
import { cpuSeconds, get } from './lib/http.mjs';
// @ts-expect-error plain JavaScript helpers without types
import { snapshotBuild, startServer } from './lib/server.mjs';

const DURATION = Number(option('duration') ?? 5);
const CONNECTIONS = Number(option('connections') ?? 10);
const SIZES = (option('sizes') ?? '1000,100000').split(',').map(Number);
const WARMUP = 1;
const TARGETS = { slowdown: 2, rssMb: 200 };
/** Vehicle 7 is in every synthetic inventory (the rare classic). */
const PAGES = ['/', '/?q=ev', '/?q=creta', '/?q=creta&page=100', '/vehicle/7'];
const ENV = {
  APP_MODE: 'test',
  NODE_ENV: 'production',
  PAGE_CACHE_SECONDS: '0',
  LISTING_TOTALS_SECONDS: '30',
  SETTINGS_CACHE_SECONDS: '2',
  SEED_DEMO: 'false',
};

/** A DATA_DIR whose SQLite database holds `size` synthetic cars (built by the real migrations). */
async function inventoryDir(size: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `gaadi-bench-scale-${size}-`));
  const database = openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(database);
    const categoryIds = new Map<string, number>();
    for (const category of demoCategories) categoryIds.set(category.name, await createCategory(database, { name: category.name }, Date.now()));
    await fill(database, random(2024), categoryIds, 0, size);
  } finally {
    await database.close();
  }
  return dir;
}

function rssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function cannon(url: string, pid: number) {
  const options = { url, connections: CONNECTIONS, headers: { 'accept-encoding': 'gzip, br' } };
  await autocannon({ ...options, duration: WARMUP });
  const before = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const after = cpuSeconds(pid);
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    cpuMsPerRequest: before === null || after === null ? null : ((after - before) * 1000) / result.requests.total,
    latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, mean: result.latency.average },
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const loadStart = loadAverage();
const snapshot = await snapshotBuild();
const sizes = [];
try {
  for (const size of SIZES) {
    const t0 = performance.now();
    const dataDir = await inventoryDir(size);
    console.log(`${size} vehicles ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    try {
      const server = await startServer(snapshot.dir, ENV, { dataDir });
      try {
        const idleRssMb = rssMb(server.pid);
        const pages = [];
        for (const page of PAGES) {
          const sample = await get(`${server.url}${page}`);
          if (sample.status !== 200) throw new Error(`${page} answered ${sample.status} at ${size}`);
          const measured = await cannon(`${server.url}${page}`, server.pid);
          console.log(
            `  ${page.padEnd(22)} ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.latencyMs.p50} ms, ${measured.cpuMsPerRequest?.toFixed(2)} CPU ms per request`,
          );
          pages.push({ page, ...measured });
        }
        const afterRssMb = rssMb(server.pid);
        console.log(`  RSS ${idleRssMb?.toFixed(0)} MB idle, ${afterRssMb?.toFixed(0)} MB after the load`);
        sizes.push({ size, idleRssMb, afterRssMb, pages });
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await snapshot.remove();
}

const [small, large] = [sizes[0]!, sizes.at(-1)!];
const comparisons = PAGES.map((page, index) => {
  const a = small.pages[index]!;
  const b = large.pages[index]!;
  const slowdown = a.requestsPerSecond / b.requestsPerSecond;
  const cpuRatio = a.cpuMsPerRequest && b.cpuMsPerRequest ? b.cpuMsPerRequest / a.cpuMsPerRequest : null;
  return { page, slowdown, cpuRatio, met: slowdown <= TARGETS.slowdown };
});
writeResult('scale', {
  load: { start: loadStart, end: loadAverage() },
  durationSeconds: DURATION,
  warmupSeconds: WARMUP,
  connections: CONNECTIONS,
  env: ENV,
  targets: TARGETS,
  sizes,
  comparisons,
  rss: { size: large.size, afterRssMb: large.afterRssMb, met: large.afterRssMb !== null && large.afterRssMb <= TARGETS.rssMb },
});
