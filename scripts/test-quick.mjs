// `npm run test:quick`: the inner loop (docs/decisions/055-quick-tests.md). The unit tests and the
// integration files on SQLite that need no server or process of their own: they all ask the one
// seeded server the run starts, so the run pays for one start-up. A build comes first only when
// a source or setting changed since the last one (the integration tests run the built server).
// PostgreSQL, the other integration files, the browser, the typecheck and the lint are left to
// `npm test`. Arguments choose the files instead: `npm run test:quick -- tests/integration/leads.test.ts`.
import { spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { build, buildIsStale } from './build-if-stale.mjs';

/** An integration file that starts a server (or any process) of its own is not quick. */
export function isQuickIntegrationFile(text) {
  return !/\bstartTestServer\(|\bspawn\(/.test(text);
}

const started = Date.now();
if (buildIsStale()) {
  console.log('test:quick: the sources changed since the last build: building first…');
  build();
}
const chosen = process.argv.slice(2);
const integration = globSync('tests/integration/*.test.ts').sort();
const quick = integration.filter((file) => isQuickIntegrationFile(readFileSync(file, 'utf8')));
if (chosen.length === 0)
  console.log(`test:quick: the unit tests and ${quick.length} of ${integration.length} integration files (those that start no server of their own), on SQLite`);
// Vitest takes file arguments as filters over every project: tests/unit/ keeps all unit files.
const files = chosen.length > 0 ? chosen : ['tests/unit/', ...quick];
const result = spawnSync('npm', ['exec', '--', 'vitest', 'run', '--project', 'unit', '--project', 'integration-sqlite', ...files], { stdio: 'inherit' });
console.log(`test:quick: ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(result.status ?? 1);
