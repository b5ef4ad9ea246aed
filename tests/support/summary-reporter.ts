import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes test-results/summary.json (or $SUMMARY_FILE) for scripts/test.mjs: per project, how many tests passed,
 * failed and were skipped, and which files failed before any test ran (an import error, a
 * failing beforeAll) with their first error. Vitest's JSON report has no project names and
 * counts a file that never collected as zero tests, which is how a run once printed
 * "3 skipped" while 145 tests had not run.
 */

export type ProjectSummary = {
  passed: number;
  failed: number;
  skipped: number;
  files: string[];
  brokenFiles: { file: string; error: string }[];
  skippedTests: string[];
  /** Milliseconds each file took, from its start to its end (hooks included). */
  durations: Record<string, number>;
};

export type RunSummary = { projects: Record<string, ProjectSummary>; unhandledErrors: string[] };

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>) {
    const projects: Record<string, ProjectSummary> = {};
    for (const module of testModules) {
      const name = module.project.name || 'default';
      const summary = (projects[name] ??= { passed: 0, failed: 0, skipped: 0, files: [], brokenFiles: [], skippedTests: [], durations: {} });
      const file = path.relative(process.cwd(), module.moduleId);
      summary.files.push(file);
      const timing = module.diagnostic();
      summary.durations[file] = Math.round(
        timing.prepareDuration + timing.environmentSetupDuration + timing.setupDuration + timing.collectDuration + timing.duration,
      );
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') summary.passed++;
        else if (state === 'failed') summary.failed++;
        else {
          summary.skipped++;
          summary.skippedTests.push(`${file} > ${test.fullName}`);
        }
      }
      const errors = module.errors();
      if (errors.length > 0) summary.brokenFiles.push({ file, error: errors[0]?.message ?? 'failed' });
      // A failing beforeAll leaves its tests "skipped": name the suite that broke, so it reads as a failure.
      for (const suite of module.children.allSuites()) {
        const suiteErrors = suite.errors();
        if (suiteErrors.length > 0) summary.brokenFiles.push({ file: `${file} > ${suite.fullName}`, error: suiteErrors[0]?.message ?? 'failed' });
      }
    }
    const summary: RunSummary = { projects, unhandledErrors: unhandledErrors.map((error) => error.message ?? String(error)) };
    // SUMMARY_FILE: scripts/test.mjs runs the browser project in a Vitest run of its own.
    const file = process.env.SUMMARY_FILE ?? 'test-results/summary.json';
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(summary, null, 2));
  }
}
