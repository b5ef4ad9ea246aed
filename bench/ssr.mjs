/**
 * Section 2: server-rendered pages per second. autocannon against the built server (a private
 * copy of build/, SQLite,
 * demo inventory) for `/` and `/vehicle/:id`, then against a bare node:http server sending the
 * same bytes, in the same run; the ratio is the share of the floor the app reaches.
 *
 *   npm run bench -- ssr [--duration=10] [--connections=10] [--modes=render,page-cache]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadAverage, option, writeResult } from './lib/common.ts';
import { cpuSeconds, get, startBareServer } from './lib/http.mjs';
import { snapshotBuild, startServer } from './lib/server.mjs';

const DURATION = Number(option('duration') ?? 10);
const CONNECTIONS = Number(option('connections') ?? 10);
const WARMUP = 2;
const TARGET_RATIO = 0.25;

/**
 * The environments the server is measured in, both with React's production build (server.js
 * sets NODE_ENV=production). `render`: every request rendered (the page cache off, as for
 * signed-in people and in the test suite). `page-cache`: as deployed for signed-out visitors,
 * public pages kept for 5 seconds.
 */
const MODES = {
  render: { APP_MODE: 'test', NODE_ENV: 'production', PAGE_CACHE_SECONDS: '0' },
  'page-cache': { APP_MODE: 'test', NODE_ENV: 'production', PAGE_CACHE_SECONDS: '5' },
};

/**
 * Loads one server. Besides the rate, the server process's own CPU time per request is
 * recorded: it says what a request costs even when other work shares the machine.
 */
async function cannon(url, pid) {
  // No Accept-Encoding header: neither server compresses, so both send the same bytes.
  const options = { url, connections: CONNECTIONS, headers: {} };
  await autocannon({ ...options, duration: WARMUP });
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const cpuAfter = cpuSeconds(pid);
  return {
    cpuMsPerRequest: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99, mean: result.latency.average },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const selected = (option('modes') ?? Object.keys(MODES).join(',')).split(',');
const loadStart = loadAverage();
const work = await mkdtemp(path.join(tmpdir(), 'gaadi-bench-ssr-'));
const snapshot = await snapshotBuild();
// One seeded data directory for every mode: the demo photos are drawn once.
const dataDir = path.join(work, 'data');
const runs = [];
try {
  for (const mode of selected) {
    const env = MODES[mode];
    if (!env) throw new Error(`unknown mode ${mode}`);
    const server = await startServer(snapshot.dir, env, { dataDir });
    try {
      const home = await get(`${server.url}/`);
      const id = /href="\/vehicle\/(\d+)"/.exec(home.body.toString())?.[1];
      if (!id) throw new Error('no vehicle link on the home page');
      for (const page of ['/', `/vehicle/${id}`]) {
        const sample = await get(`${server.url}${page}`);
        if (sample.status !== 200) throw new Error(`${page} answered ${sample.status}`);
        if (sample.headers['content-encoding']) throw new Error(`${page} was compressed without being asked`);
        const contentType = sample.headers['content-type'] ?? 'text/html';
        const file = path.join(work, 'page.html');
        await writeFile(file, sample.body);
        const bare = await startBareServer(file, contentType);
        try {
          console.log(`${mode} ${page}: ${sample.body.length} bytes`);
          const app = await cannon(`${server.url}${page}`, server.pid);
          console.log(`  app  ${app.requestsPerSecond.toFixed(0)} req/s, ${app.cpuMsPerRequest?.toFixed(3)} CPU ms per request`);
          const floor = await cannon(`${bare.url}${page}`, bare.pid);
          console.log(`  bare ${floor.requestsPerSecond.toFixed(0)} req/s, ${floor.cpuMsPerRequest?.toFixed(3)} CPU ms per request`);
          const ratio = app.requestsPerSecond / floor.requestsPerSecond;
          const cpuRatio = app.cpuMsPerRequest && floor.cpuMsPerRequest ? floor.cpuMsPerRequest / app.cpuMsPerRequest : null;
          runs.push({ mode, env, page, bytes: sample.body.length, contentType, app, bare: floor, ratio, cpuRatio, met: ratio >= TARGET_RATIO });
        } finally {
          await bare.stop();
        }
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
  await snapshot.remove();
}

writeResult('ssr', {
  load: { start: loadStart, end: loadAverage() },
  durationSeconds: DURATION,
  warmupSeconds: WARMUP,
  connections: CONNECTIONS,
  target: { ratio: TARGET_RATIO },
  runs,
});
