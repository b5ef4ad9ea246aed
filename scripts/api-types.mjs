// `npm run api:types`: writes tests/support/api/openapi.json and schema.d.ts (the generated
// client's types) from the document the built server serves, building first when the sources
// changed. tests/integration/api-types.test.ts fails until they are written again after a change
// of the API (decision 078).
import { spawnSync } from 'node:child_process';
import { build, buildIsStale } from './build-if-stale.mjs';

if (buildIsStale()) build();
const result = spawnSync('npm', ['exec', '--', 'vitest', 'run', '--project', 'integration-sqlite', '--update=all', 'tests/integration/api-types.test.ts'], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
