// `npm test`: the build, then side by side the typecheck, the lint, the browser project and the
// other test projects (unit, integration on SQLite and PostgreSQL). Only the tests need the
// build; run one after another the parts left a core idle most of the time (decision 034).
// The unit and integration run prints as it goes; the others print whole when they end. Reports
// what really ran: per project the tests passed, failed and skipped, and the files that failed
// before any test ran. Under CI (CI=true) a skipped test is a failure: nothing in this suite is
// skipped on purpose, so a skip means a part of the product went untested.
import { spawn } from 'node:child_process';
import { globSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
// Node 24 runs the TypeScript config directly (type stripping).
import { dialectIndependentIntegrationTests } from '../vitest.config.ts';

/** Runs `npm …`, its output kept (or shown as it comes with `live`), and says how it ended. */
function run(name, args, { live = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', args, { stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => {
      const result = { name, status, seconds: Math.round((Date.now() - started) / 1000) };
      console.log(`\n== ${name} (${result.seconds} s${status === 0 ? '' : `, exit ${status}`})`);
      process.stdout.write(output);
      resolve(result);
    });
  });
}

const startedAt = Date.now();
const build = await run('build', ['run', 'build']);
if (build.status !== 0) {
  console.error('\nbuild failed');
  process.exit(build.status ?? 1);
}

const extra = process.argv.slice(2);
// `npm test -- --project unit tests/unit/x.test.ts` runs a part on purpose: only that is checked.
const chosenProjects = extra.flatMap((arg, index) => (arg.startsWith('--project=') ? [arg.slice(10)] : extra[index - 1] === '--project' ? [arg] : []));
const chosenFiles = extra.filter((arg, index) => !arg.startsWith('-') && extra[index - 1] !== '--project');
const vitest = (args) => ['exec', '--', 'vitest', 'run', '--reporter=default', '--reporter=./tests/support/summary-reporter.ts', ...args];
const summaryFiles = ['test-results/summary.json', 'test-results/summary-e2e.json'];
for (const file of summaryFiles) rmSync(file, { force: true });
// The browser project runs two files at a time (vitest.config.ts) in a Vitest run of its own,
// beside the others instead of after them.
const whole = chosenProjects.length === 0 && chosenFiles.length === 0;
const runs = await Promise.all([
  run('typecheck', ['run', 'typecheck']),
  run('lint', ['run', 'lint']),
  ...(whole
    ? [
        run('tests: unit and integration', vitest(['--project', 'unit', '--project', 'integration-sqlite', '--project', 'integration-postgres', ...extra]), {
          live: true,
        }),
        run('tests: browser (e2e)', vitest(['--project', 'e2e', ...extra]), { env: { SUMMARY_FILE: summaryFiles[1] } }),
      ]
    : [run('tests', vitest(extra), { live: true })]),
]);
const failedSteps = runs.filter((result) => result.status !== 0);

/** The test files each project should run (see vitest.config.ts), to notice one that never reported. */
const expectedFiles = {
  unit: globSync('tests/unit/**/*.test.ts'),
  'integration-sqlite': globSync('tests/integration/**/*.test.ts'),
  'integration-postgres': globSync('tests/integration/**/*.test.ts').filter((file) => !dialectIndependentIntegrationTests.includes(file)),
  e2e: globSync('tests/e2e/**/*.test.ts'),
};

const summary = { projects: {}, unhandledErrors: [] };
for (const file of whole ? summaryFiles : summaryFiles.slice(0, 1)) {
  try {
    const part = JSON.parse(readFileSync(file, 'utf8'));
    Object.assign(summary.projects, part.projects);
    summary.unhandledErrors.push(...part.unhandledErrors);
  } catch {
    console.error(`\ntests: no summary was written to ${file} (vitest did not finish): failed`);
    process.exit(1);
  }
}

const problems = failedSteps.map((step) => `${step.name} exited with ${step.status}`);
console.log('\n== what ran');
for (const [project, files] of Object.entries(expectedFiles)) {
  if (chosenProjects.length > 0 && !chosenProjects.includes(project)) continue;
  const partial = chosenFiles.length > 0;
  const result = summary.projects[project];
  if (!result) {
    if (!partial) problems.push(`${project}: did not run at all`);
    console.log(`${project.padEnd(22)} did not run`);
    continue;
  }
  console.log(`${project.padEnd(22)} ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped, in ${result.files.length} files`);
  // The slowest files first: where a faster suite would start.
  const slowest = Object.entries(result.durations ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
  if (slowest.length > 0) console.log(`  slowest: ${slowest.map(([file, ms]) => `${path.basename(file)} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  for (const broken of result.brokenFiles) {
    console.log(`  file failed before its tests ran: ${broken.file}: ${broken.error.split('\n')[0]}`);
    problems.push(`${project}: ${broken.file} failed to run`);
  }
  if (!partial) {
    for (const file of files.filter((file) => !result.files.includes(file))) {
      console.log(`  file did not report: ${file}`);
      problems.push(`${project}: ${file} did not report`);
    }
  }
  if (result.failed > 0) problems.push(`${project}: ${result.failed} failed`);
  if (result.skipped > 0) {
    if (process.env.CI) problems.push(`${project}: ${result.skipped} skipped (a skip is a failure under CI)`);
    for (const test of result.skippedTests.slice(0, 10)) console.log(`  skipped: ${test}`);
    if (result.skippedTests.length > 10) console.log(`  … and ${result.skippedTests.length - 10} more skipped`);
  }
}
for (const error of summary.unhandledErrors) problems.push(`unhandled error: ${error.split('\n')[0]}`);

const took = `in ${Math.round((Date.now() - startedAt) / 1000)} s`;
if (problems.length > 0) {
  // A Vitest run that exits 1 with every test passed: e.g. a shared test server logged an error (see above).
  console.error(`\nfailed ${took}:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  process.exit(failedSteps[0]?.status || 1);
}
console.log(`\ntests passed ${took}`);
