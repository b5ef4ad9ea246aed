// The build is stale when a source or a build setting changed after it was made: `npm run demo`
// and `npm run test:quick` build first only then.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const builtServer = path.join(root, 'build/server/index.js');

function newestMtime(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** When the build was made; 0 when there is none. */
export function buildTime() {
  try {
    return statSync(builtServer).mtimeMs;
  } catch {
    return 0;
  }
}

export function buildIsStale() {
  const sources = ['app', 'server', 'public'].map((dir) => newestMtime(path.join(root, dir)));
  const configs = ['package.json', 'package-lock.json', 'vite.config.ts', 'react-router.config.ts'].map((file) => statSync(path.join(root, file)).mtimeMs);
  return Math.max(...sources, ...configs) > buildTime();
}

/** Runs `npm run build`; ends the process with its status when it fails. */
export function build() {
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
