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
/* global fetch, FormData -- Node's own web globals; nothing to import them from */
import { Buffer, File } from 'node:buffer';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { URL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { solveAltchaChallenge } from '../app/lib/bot-check-client.ts';
import { loadAverage, option, stats, writeResult } from './lib/common.ts';
import { cpuSeconds, get } from './lib/http.mjs';
import { snapshotBuild, startServer } from './lib/server.mjs';

const DURATION = Number(option('duration') ?? 10);
const CONNECTIONS = Number(option('connections') ?? 10);
const ATTACKERS = Number(option('attackers') ?? 5);
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, br', accept: 'text/html' };
const MiB = 1024 * 1024;
// Every request rendered (page cache off, as for signed-in visitors): the page's own CPU
// competes with the attack. X-Forwarded-For is believed so each attacker has its addresses.
const ENV = { APP_MODE: 'test', NODE_ENV: 'production', PAGE_CACHE_SECONDS: '0', TRUST_PROXY: 'true', IMAGE_CONCURRENCY: '1' };

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A real greyscale PNG: a few hundred KB on the wire at most, width x height bytes once decoded. */
function png(width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 0;
  const rows = deflateSync(Buffer.alloc((width + 1) * height), { level: 9 });
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), pngChunk('IHDR', header), pngChunk('IDAT', rows), pngChunk('IEND', Buffer.alloc(0))]);
}

const PAYLOADS = {
  'image bombs': { file: png(7700, 7700), count: 10, label: 'ten 59-megapixel PNGs' },
  'largest allowed photos': { file: png(4000, 3000), count: 10, label: 'ten 12-megapixel PNGs' },
};

let addressCounter = 0;
const freshAddress = () => `10.${100 + (addressCounter >> 16)}.${(addressCounter >> 8) & 255}.${addressCounter++ & 255}`;

/** Solved bot checks for the sell form, each with the address it was solved from. */
async function solveTokens(url, count) {
  const tokens = [];
  for (let index = 0; index < count; index++) {
    const address = freshAddress();
    const response = await fetch(`${url}/api/bot-check/challenge?action=SELL_FORM`, { headers: { 'x-forwarded-for': address, accept: 'application/json' } });
    if (!response.ok) throw new Error(`bot-check challenge: HTTP ${response.status}`);
    tokens.push({ address, token: await solveAltchaChallenge(await response.json()) });
  }
  return tokens;
}

/** One sell submission with the payload's photos; resolves to the HTTP status. */
async function submitPhotos(url, payload, token) {
  const form = new FormData();
  const fields = { name: 'Bench Attacker', phone: '+91 99887 76655', vehicle: 'Hyundai i20 Asta', year: '2018', price: '4,50,000', description: 'bench' };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('botCheck', token.token);
  for (let index = 0; index < payload.count; index++) form.append('images', new File([payload.file], `p${index}.png`, { type: 'image/png' }));
  const response = await fetch(`${url}/sell-vehicle`, { method: 'POST', body: form, redirect: 'manual', headers: { origin: url, 'x-forwarded-for': token.address } });
  await response.arrayBuffer();
  return response.status;
}

/** A 64 MiB body, declared or chunked, written until the server answers; resolves to the status (0: connection closed first). */
function oversizeBody(url, pagePath, chunked, address) {
  const { hostname, port } = new URL(url);
  const multipart = pagePath.startsWith('/sell');
  const headers = {
    'content-type': multipart ? 'multipart/form-data; boundary=----bench' : 'application/x-www-form-urlencoded',
    origin: url,
    'x-forwarded-for': address,
  };
  const prefix = Buffer.from(multipart ? '------bench\r\nContent-Disposition: form-data; name="description"\r\n\r\n' : 'intent=email&email=');
  const size = 64 * MiB;
  if (!chunked) headers['content-length'] = String(prefix.length + size);
  return new Promise((resolve) => {
    let answered = false;
    const request = http.request({ host: hostname, port, path: pagePath, method: 'POST', headers, agent: false }, (response) => {
      answered = true;
      response.resume();
      response.on('end', () => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    request.on('error', () => {
      if (!answered) resolve(0);
    });
    const filler = Buffer.alloc(MiB, 0x61);
    let sent = 0;
    request.write(prefix);
    const write = () => {
      while (!answered && sent < size) {
        sent += MiB;
        if (!request.write(filler)) return void request.once('drain', write);
      }
      if (!answered) request.end();
    };
    write();
  });
}

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

/** Measures `/` while the attackers run; they stop when the measurement ends. */
async function underAttack(server, name, tokens) {
  const payload = PAYLOADS[name];
  const attack = { submissions: {}, oversize: {} };
  const count = (bucket, status) => (bucket[status] = (bucket[status] ?? 0) + 1);
  let stop = false;
  const oversizeAddress = freshAddress();
  const imageAttackers = Array.from({ length: ATTACKERS }, async () => {
    while (!stop) {
      const token = tokens.shift();
      if (!token) break;
      count(attack.submissions, await submitPhotos(server.url, payload, token).catch(() => 'error'));
    }
  });
  const kinds = [
    ['/sell-vehicle', false],
    ['/sell-vehicle.data', true],
    ['/login.data', false],
    ['/login', true],
  ];
  const bodyAttackers = Array.from({ length: ATTACKERS }, async (_, index) => {
    for (let round = index; !stop; round++) {
      const [pagePath, chunked] = kinds[round % kinds.length];
      count(attack.oversize, await oversizeBody(server.url, pagePath, chunked, oversizeAddress));
    }
  });
  const cpuBefore = cpuSeconds(server.pid);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 100);
  // Let the attack get going before measuring.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const home = await loadHome(server.url, DURATION);
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  stop = true;
  clearInterval(sampler);
  await Promise.all([...imageAttackers, ...bodyAttackers]);
  return { name, payload: payload.label, attackers: ATTACKERS, home, attack, serverCpuSeconds: cpu, peakRssMb: peakRss };
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
  const rest = await loadHome(server.url, DURATION);
  const restCpu = cpuSeconds(server.pid) - cpuBefore;
  console.log(`at rest: p95 ${rest.stats.p95.toFixed(1)} ms, ${rest.requestsPerSecond.toFixed(0)} req/s`);
  const runs = [];
  for (const name of Object.keys(PAYLOADS)) {
    // Enough solved bot checks for the attackers to never run dry during the measurement.
    const tokens = await solveTokens(server.url, ATTACKERS * (name === 'image bombs' ? 40 : 8));
    const run = await underAttack(server, name, tokens);
    console.log(`${name}: p95 ${run.home.stats.p95.toFixed(1)} ms, ${run.home.requestsPerSecond.toFixed(0)} req/s; submissions ${JSON.stringify(run.attack.submissions)}, oversize ${JSON.stringify(run.attack.oversize)}`);
    runs.push(run);
  }
  writeResult('attack', {
    load: { start: loadStart, end: loadAverage() },
    durationSeconds: DURATION,
    connections: CONNECTIONS,
    env: ENV,
    homeBytes: sample.body.length,
    encoding: sample.headers['content-encoding'] ?? 'identity',
    rest: { home: rest, serverCpuSeconds: restCpu },
    runs,
  });
} finally {
  await server.stop();
  await snapshot.remove();
  await rm(work, { recursive: true, force: true });
}
