/**
 * Section 5: the home page under attack. `/` latency (p50/p95/p99) with `Accept-Encoding:
 * gzip, br` like a browser, at rest and, in the same run against the same server, while
 * attackers keep submitting image-heavy sell forms and oversize bodies (issue 8):
 *
 * - `image bombs`: the probe's submission, ten 59-megapixel PNGs of about 170 KB each;
 * - `largest allowed photos`: what a submission may still cost, ten 12-megapixel photos
 *   (the 120-megapixel budget), each fully decoded and resized;
 * - in both, oversize bodies beside them: 64 MiB posts to /sell-vehicle and /login.data,
 *   with and without Content-Length.
 *
 * Every image submission carries a solved bot check from its own address (solved before the
 * measurement, so the solving does not compete with it), so it reaches the image work: the
 * worst case, an attacker who pays the proof of work.
 *
 *   npm run bench -- attack [--duration=10] [--connections=10] [--attackers=5]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { loadAverage, option, stats, writeResult } from './lib/common.ts';
import { cpuSeconds, get } from './lib/http.mjs';
import { snapshotBuild, startServer } from './lib/server.mjs';

const DURATION = Number(option('duration') ?? 10);
const CONNECTIONS = Number(option('connections') ?? 10);
const ATTACKERS = Number(option('attackers') ?? 5);
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, br', accept: 'text/html' };
// Every request rendered (page cache off, as for signed-in visitors): the page's own CPU
// competes with the attack. X-Forwarded-For is believed so each attacker has its addresses.
const ENV = { APP_MODE: 'test', NODE_ENV: 'production', PAGE_CACHE_SECONDS: '0', TRUST_PROXY: 'true', IMAGE_CONCURRENCY: '1' };
/**
 * The rows: which image submissions (bench/lib/attacker.mjs makes them) and whether oversize
 * bodies come beside them; each alone first, so the combined row can be read.
 */
const ATTACKS = [
  { images: 'image bombs', bodies: false },
  { images: 'largest allowed photos', bodies: false },
  { images: 'none', bodies: true },
  { images: 'image bombs', bodies: true },
  { images: 'largest allowed photos', bodies: true },
];

/** `/` requested over `CONNECTIONS` keep-alive connections for `seconds`; every latency kept. */
async function loadHome(url, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies = [];
  const statuses = {};
  const until = Date.now() + seconds * 1000;
  const one = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const request = http.get(`${url}/`, { agent, headers: BROWSER_HEADERS }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - started);
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
          resolve();
        });
      });
      request.on('error', () => {
        statuses.error = (statuses.error ?? 0) + 1;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) await one();
    }),
  );
  agent.destroy();
  return { stats: stats(latencies), statuses, requestsPerSecond: latencies.length / seconds };
}

/**
 * Measures `/` while the attackers run in a process of their own (bench/lib/attacker.mjs), so
 * writing their bodies does not slow down the client that measures; they stop when the
 * measurement ends and report what they were answered.
 */
async function underAttack(server, { images, bodies }, row) {
  const args = [path.join(import.meta.dirname, 'lib/attacker.mjs'), server.url, images, String(ATTACKERS), bodies ? 'bodies' : 'no bodies', String(row)];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The attackers solve their bot checks first (not measured), then say so and start.
  while (!output.includes('attacking')) {
    if (child.exitCode !== null) throw new Error(`the attacker process ended: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cpuBefore = cpuSeconds(server.pid);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 100);
  // Let the attack get going before measuring.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const home = await loadHome(server.url, DURATION);
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  clearInterval(sampler);
  child.stdin.end('stop\n');
  await exited;
  const attack = JSON.parse(output.slice(output.lastIndexOf('{"submissions"')));
  return { images, bodies, attackers: ATTACKERS, home, attack, serverCpuSeconds: cpu, peakRssMb: peakRss };
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const loadStart = loadAverage();
const work = await mkdtemp(path.join(tmpdir(), 'gaadi-bench-attack-'));
const snapshot = await snapshotBuild();
const server = await startServer(snapshot.dir, ENV, { dataDir: path.join(work, 'data') });
try {
  const sample = await get(`${server.url}/`, BROWSER_HEADERS);
  if (sample.status !== 200) throw new Error(`/ answered ${sample.status}`);
  console.log(`/: ${sample.body.length} bytes (${sample.headers['content-encoding'] ?? 'identity'})`);
  // Warm-up, then `/` at rest.
  await loadHome(server.url, 2);
  const cpuBefore = cpuSeconds(server.pid);
  let restRss = 0;
  const sampler = setInterval(() => (restRss = Math.max(restRss, rssMb(server.pid))), 100);
  const rest = await loadHome(server.url, DURATION);
  clearInterval(sampler);
  const restCpu = cpuSeconds(server.pid) - cpuBefore;
  console.log(`at rest: p95 ${rest.stats.p95.toFixed(1)} ms, ${rest.requestsPerSecond.toFixed(0)} req/s`);
  const runs = [];
  for (const [row, attack] of ATTACKS.entries()) {
    const run = await underAttack(server, attack, row);
    console.log(
      `${attack.images}${attack.bodies ? ' + oversize bodies' : ''}: p95 ${run.home.stats.p95.toFixed(1)} ms, ${run.home.requestsPerSecond.toFixed(0)} req/s; submissions ${JSON.stringify(run.attack.submissions)}, oversize ${JSON.stringify(run.attack.oversize)}`,
    );
    runs.push(run);
  }
  writeResult('attack', {
    load: { start: loadStart, end: loadAverage() },
    durationSeconds: DURATION,
    connections: CONNECTIONS,
    env: ENV,
    homeBytes: sample.body.length,
    encoding: sample.headers['content-encoding'] ?? 'identity',
    rest: { home: rest, serverCpuSeconds: restCpu, peakRssMb: restRss },
    runs,
  });
} finally {
  await server.stop();
  await snapshot.remove();
  await rm(work, { recursive: true, force: true });
}
