import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';

/**
 * `npm ci` on a newcomer's system Node.js 20 prints no EBADENGINE warning about a package that
 * only ever runs on the Node.js the install brings (scripts/lockfile-engines.mjs). A dependency
 * update that brings such a requirement back fails here until the script is run.
 */
test('the lockfile records no engines requirement that only an older system Node.js fails', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const check = spawnSync(process.execPath, ['scripts/lockfile-engines.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  expect(check.stdout, 'run `node scripts/lockfile-engines.mjs` after updating dependencies').toBe('');
  expect(check.status).toBe(0);
});
