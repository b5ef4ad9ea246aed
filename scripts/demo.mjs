// `npm run demo`: build when the sources are newer than the build, then serve the demo
// (SQLite in ./data, the demo inventory loaded into an empty database). Says what it is doing
// at each step: the first run builds (about a minute) and draws 53 cars' photos (about half a
// minute), and silence that long reads like a hang.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'build/server/index.js');

function newestMtime(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function buildTime() {
  try {
    return statSync(built).mtimeMs;
  } catch {
    return 0;
  }
}

const sources = ['app', 'server', 'public'].map((dir) => newestMtime(path.join(root, dir)));
const configs = ['package.json', 'vite.config.ts', 'react-router.config.ts'].map((file) => statSync(path.join(root, file)).mtimeMs);
if (Math.max(...sources, ...configs) > buildTime()) {
  console.log(`demo: step 1 of 2: building the app (${buildTime() ? 'the sources changed since the last build' : 'first run'}; about a minute)…`);
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  console.log('demo: step 1 of 2: the build is up to date');
}

process.env.APP_MODE ??= 'demo';
console.log(`demo: step 2 of 2: starting the server (${process.env.DATABASE_URL ? 'PostgreSQL' : `SQLite in ${process.env.DATA_DIR ?? './data'}`}); it says where to open the site when it is ready…`);
// React's production build: the demo should be as fast as the real thing.
process.env.NODE_ENV ??= 'production';
const { startServer } = await import(built);
await startServer(process.env);
