// `npm test`: typecheck, lint and build (side by side: they are independent and each leaves
// a core idle part of the time), then every test project (unit, integration on SQLite and
// PostgreSQL, browser). Stops when a step fails, and reports what really ran:
// per project the tests passed, failed and skipped, and the files that failed before any test
// ran. Under CI (CI=true) a skipped test is a failure: nothing in this suite is skipped on
// purpose, so a skip means a part of the product went untested.
import { spawn, spawnSync } from 'node:child_process';
import { globSync, readFileSync, rmSync } from 'node:fs';
// Node 24 runs the TypeScript config directly (type stripping).
import { dialectIndependentIntegrationTests } from '../vitest.config.ts';

const steps = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['build', ['run', 'build']],
];
/** Runs one step with its output kept, so the three steps' outputs print whole, one after another. */
function runStep(name, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ name, status, output, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}
const results = await Promise.all(steps.map(([name, args]) => runStep(name, args)));
for (const { name, output, seconds } of results) {
  console.log(`\n== ${name} (${seconds} s)`);
  process.stdout.write(output);
}
const failedSteps = results.filter((result) => result.status !== 0);
if (failedSteps.length > 0) {
  console.error(`\n${failedSteps.map((result) => result.name).join(', ')} failed`);
  process.exit(failedSteps[0].status ?? 1);
}

console.log('\n== tests');
const extra = process.argv.slice(2);
rmSync('test-results/summary.json', { force: true });
const run = spawnSync('npm', ['exec', '--', 'vitest', 'run', '--reporter=default', '--reporter=./tests/support/summary-reporter.ts', ...extra], {
  stdio: 'inherit',
});

/** The test files each project should run (see vitest.config.ts), to notice one that never reported. */
const expectedFiles = {
  unit: globSync('tests/unit/**/*.test.ts'),
  'integration-sqlite': globSync('tests/integration/**/*.test.ts'),
  'integration-postgres': globSync('tests/integration/**/*.test.ts').filter((file) => !dialectIndependentIntegrationTests.includes(file)),
  e2e: globSync('tests/e2e/**/*.test.ts'),
};

let summary;
try {
  summary = JSON.parse(readFileSync('test-results/summary.json', 'utf8'));
} catch {
  console.error('\ntests: no summary was written (vitest did not finish): failed');
  process.exit(run.status || 1);
}

const problems = [];
console.log('\n== what ran');
// `npm test -- --project unit tests/unit/x.test.ts` runs a part on purpose: only that is checked.
const chosenProjects = extra.flatMap((arg, index) => (arg.startsWith('--project=') ? [arg.slice(10)] : extra[index - 1] === '--project' ? [arg] : []));
const chosenFiles = extra.filter((arg, index) => !arg.startsWith('-') && extra[index - 1] !== '--project');
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

if (problems.length > 0 || run.status !== 0) {
  console.error(`\ntests failed:\n${(problems.length > 0 ? problems : [`vitest exited with ${run.status} (see above: e.g. a shared test server logged an error)`]).map((line) => `  ${line}`).join('\n')}`);
  process.exit(run.status || 1);
}
console.log('\ntests passed');
