/**
 * Section 4: Lighthouse (mobile: its default emulated phone with simulated slow 4G and CPU
 * throttling) on the home page, a vehicle page and the rental page, served by the built server on loopback,
 * in Debian's chromium. Each page is run several times; the run with the median performance
 * score is reported.
 *
 *   npm run bench -- lighthouse [--runs=3]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { loadAverage, option, rootDir, writeResult } from './lib/common.ts';
import { measureBudgetPages } from './lib/server.mjs';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS =
  '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';
const RUNS = Number(option('runs') ?? 3);
const TARGET_PERFORMANCE = 98;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

function lighthouse(url, outputPath) {
  const cli = path.join(rootDir, 'node_modules/lighthouse/cli/index.js');
  const args = [
    cli,
    url,
    '--output=json',
    `--output-path=${outputPath}`,
    `--chrome-flags=${CHROME_FLAGS}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    '--quiet',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH }, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`lighthouse exited with ${code} for ${url}`));
    });
  });
}

function summarise(report) {
  const score = (id) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const metric = (id) => report.audits[id]?.numericValue ?? null;
  const failing = (category) =>
    (report.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && report.audits[ref.id]?.score !== null && (report.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${ref.id} (${report.audits[ref.id]?.displayValue || report.audits[ref.id]?.score})`);
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])),
    metrics: {
      lcpMs: metric('largest-contentful-paint'),
      cls: metric('cumulative-layout-shift'),
      tbtMs: metric('total-blocking-time'),
      fcpMs: metric('first-contentful-paint'),
      speedIndexMs: metric('speed-index'),
      serverResponseMs: metric('server-response-time'),
    },
    // What Lighthouse says would save time, largest first (it scores none of these directly).
    opportunities: Object.values(report.audits)
      .filter((audit) => (audit.metricSavings?.LCP ?? 0) + (audit.metricSavings?.FCP ?? 0) > 0 && (audit.score ?? 1) < 1)
      .map((audit) => ({ id: audit.id, lcpMs: audit.metricSavings?.LCP ?? 0, fcpMs: audit.metricSavings?.FCP ?? 0, detail: audit.displayValue ?? '' }))
      .sort((a, b) => b.lcpMs + b.fcpMs - (a.lcpMs + a.fcpMs))
      .slice(0, 6),
    totalByteWeight: metric('total-byte-weight'),
    benchmarkIndex: report.environment?.benchmarkIndex ?? null,
    lcpElement: report.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
    belowPar: Object.fromEntries(CATEGORIES.map((id) => [id, failing(id)])),
    lighthouseVersion: report.lighthouseVersion,
    userAgent: report.environment?.hostUserAgent ?? null,
    warnings: report.runWarnings ?? [],
  };
}

if (!existsSync(CHROME_PATH)) {
  console.error(`No browser at ${CHROME_PATH}: install Debian's chromium or set CHROME_PATH.`);
  process.exit(1);
}

const loadStart = loadAverage();
const work = await mkdtemp(path.join(tmpdir(), 'gaadi-bench-lh-'));
let pages;
try {
  pages = await measureBudgetPages(async (server, page) => {
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const file = path.join(work, `report-${run}.json`);
      await lighthouse(`${server.url}${page}`, file);
      runs.push(summarise(JSON.parse(await readFile(file, 'utf8'))));
      console.log(`${page} run ${run + 1}: ${CATEGORIES.map((category) => `${category} ${runs.at(-1).scores[category]}`).join(', ')}`);
    }
    const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    return { page, runs: runs.map((run) => ({ scores: run.scores, metrics: run.metrics })), median, met: median.scores.performance >= TARGET_PERFORMANCE };
  });
} finally {
  await rm(work, { recursive: true, force: true });
}
writeResult('lighthouse', {
  load: { start: loadStart, end: loadAverage() },
  target: { performance: TARGET_PERFORMANCE },
  runsPerPage: RUNS,
  chromePath: CHROME_PATH,
  chromeFlags: CHROME_FLAGS,
  pages,
});
