// `npm ci` on a system Node.js older than ours (Debian 12 has v20) prints an EBADENGINE
// warning for every package whose `engines` that Node.js does not meet. npm reads those
// requirements from package-lock.json and compares them with the Node.js running npm, never
// with the one the packages run on: `npm ci` installs Node.js 24 (the `node` devDependency)
// and `npm run` / `npm exec` use it. So the lockfile drops the `engines` of a package where
// the Node.js it installs meets them and an older system Node.js would not: those warnings
// were about a Node.js that never runs the package. A requirement our own Node.js does not
// meet stays and still warns. docs/decisions/019-suite-health.md.
//
//   node scripts/lockfile-engines.mjs          rewrite package-lock.json
//   node scripts/lockfile-engines.mjs --check  list what a rewrite would change; exit 1 if any
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/**
 * The oldest system Node.js a newcomer may run npm with: Node.js 20 as our build tools
 * (Vite, ESLint) themselves require it, 20.19.
 */
export const OLDEST_SYSTEM_NODE = '20.19.0';

/** Lockfile entries whose `engines.node` only an older system Node.js fails. */
export function enginesToDrop(lock) {
  const runtime = lock.packages['node_modules/node']?.version;
  if (!runtime) throw new Error('package-lock.json has no node_modules/node: the runtime Node.js is not pinned');
  return Object.entries(lock.packages).filter(([path, entry]) => {
    const range = entry.engines?.node;
    if (!path || typeof range !== 'string') return false;
    return semver.satisfies(runtime, range) && !semver.satisfies(OLDEST_SYSTEM_NODE, range, { includePrerelease: true });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = path.join(import.meta.dirname, '../package-lock.json');
  const text = readFileSync(file, 'utf8');
  const lock = JSON.parse(text);
  const drop = enginesToDrop(lock);
  for (const [path, entry] of drop) console.log(`${path}: engines.node ${entry.engines.node}`);
  if (process.argv.includes('--check')) process.exit(drop.length > 0 ? 1 : 0);
  for (const [, entry] of drop) {
    delete entry.engines.node;
    if (Object.keys(entry.engines).length === 0) delete entry.engines;
  }
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}
