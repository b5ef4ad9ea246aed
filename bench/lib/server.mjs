import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers';
import { freePort, testModeEnv } from '../../tests/support/server.ts';
import { get } from './http.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The server as deployed: Node's flags of `npm start` (package.json), e.g. the young
 * generation's size, and the environment it sets before `node` (e.g. MALLOC_ARENA_MAX).
 */
const startWords = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
const startFlags = startWords.filter((word) => word.startsWith('--'));
const startEnv = Object.fromEntries(
  startWords.flatMap((word) => {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    return assignment ? [[assignment[1], assignment[2]]] : [];
  }),
);

/**
 * A private copy of the built server (build/ and server.js), so a rebuild of build/ by
 * someone else during a long run cannot pull the files from under the server being measured.
 * It lives in node_modules/.cache so the copy still resolves the project's packages.
 */
export async function snapshotBuild() {
  const dir = path.join(root, 'node_modules/.cache/gaadi-bench', `server-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await cp(path.join(root, 'build'), path.join(dir, 'build'), { recursive: true });
  await cp(path.join(root, 'server.js'), path.join(dir, 'server.js'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The pages of the front-end budgets (issue 13), the listing, a car and the rental entry, each
 * measured in turn by `measure` on one server started from a fresh snapshot of the build; with
 * `hindi`, their Hindi pages too (/hi/…, decision 087), whose texts travel in the same chunks.
 */
export async function measureBudgetPages(measure, { hindi = false } = {}) {
  const snapshot = await snapshotBuild();
  try {
    const server = await startServer(snapshot.dir);
    try {
      const home = await get(`${server.url}/`);
      const id = /href="\/vehicle\/(\d+)"/.exec(home.body.toString())?.[1];
      if (!id) throw new Error('no vehicle link on the home page');
      const results = [];
      const pages = ['/', `/vehicle/${id}`, '/rent'];
      if (hindi) pages.push('/hi', `/hi/vehicle/${id}`, '/hi/rent');
      for (const page of pages) results.push(await measure(server, page));
      return results;
    } finally {
      await server.stop();
    }
  } finally {
    await snapshot.remove();
  }
}

/**
 * Starts `node server.js` (with the flags of `npm start`) from a snapshot like tests/support/server.ts's startTestServer does
 * (SQLite in a fresh temp DATA_DIR, APP_MODE=test, demo inventory) and waits for /readyz.
 * Pass `dataDir` to reuse a directory an earlier server seeded (it is then left in place).
 */
export async function startServer(snapshotDir, env = {}, options = {}) {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'gaadi-bench-data-')));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...startFlags, 'server.js'], {
    cwd: snapshotDir,
    env: { ...startEnv, ...testModeEnv(port, dataDir), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  child.stderr.on('data', (chunk) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  // Drawing the demo photos takes a while on a busy machine.
  const started = Date.now();
  const deadline = started + 300_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await get(`${url}/readyz`)).status === 200) return { url, pid: child.pid, dataDir, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const status = `exit code ${child.exitCode}, signal ${child.signalCode}, after ${((Date.now() - started) / 1000).toFixed(0)} s`;
  await stop();
  throw new Error(`The server did not start (${status}):\n${output}`);
}
