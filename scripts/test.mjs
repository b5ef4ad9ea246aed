// `npm test`: typecheck, lint, build, then every test project (unit, integration on SQLite
// and PostgreSQL, browser). Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const steps = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['build', ['run', 'build']],
];
for (const [name, args] of steps) {
  console.log(`\n== ${name}`);
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n${name} failed`);
    process.exit(result.status ?? 1);
  }
}

console.log('\n== tests');
const extra = process.argv.slice(2);
const run = spawnSync('npm', ['exec', '--', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json', ...extra], {
  stdio: 'inherit',
});
try {
  const report = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log('\ntests: the report was not written');
}
process.exit(run.status ?? 1);
