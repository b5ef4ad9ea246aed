import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Helpers shared by the benchmark sections (plain TypeScript, run by Node 24's type stripping). */

export const benchDir = path.resolve(import.meta.dirname, '..');
export const rootDir = path.resolve(benchDir, '..');
export const resultsDir = path.join(benchDir, 'results');

export type Stats = { n: number; mean: number; p50: number; p95: number; p99: number; min: number; max: number };

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    n: sorted.length,
    mean: sum / sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** The 1-minute load average: other work on the machine skews every figure, so it is recorded. */
export function loadAverage(): number {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}

export function machine() {
  const cpus = os.cpus();
  return {
    nproc: os.availableParallelism(),
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

/** Writes one section's figures to bench/results/<section>.json; run.mjs renders RESULTS.md from them. */
export function writeResult(section: string, data: Record<string, unknown>) {
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${section}.json`);
  writeFileSync(file, `${JSON.stringify({ section, date: new Date().toISOString(), machine: machine(), ...data }, null, 2)}\n`);
  console.log(`wrote ${path.relative(rootDir, file)}`);
}

/** A small deterministic PRNG (mulberry32), so every run benchmarks the same inventory. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

/** Reads `--name=value` options from argv. */
export function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}
