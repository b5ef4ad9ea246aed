import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers';
import { get } from './http.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/** Node's flags as deployed: those of `npm start` (package.json), e.g. the young generation's size. */
const startFlags = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  .scripts.start.split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

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
 * Starts `node server.js` (with the flags of `npm start`) from a snapshot like tests/support/server.ts's startTestServer does
 * (SQLite in a fresh temp DATA_DIR, APP_MODE=test, demo inventory) and waits for /healthz.
 * Pass `dataDir` to reuse a directory an earlier server seeded (it is then left in place).
 */
export async function startServer(snapshotDir, env = {}, options = {}) {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'gaadi-bench-data-')));
  const port = await new Promise((resolve, reject) => {
    import('node:net').then(({ createServer }) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    }, reject);
  });
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...startFlags, 'server.js'], {
    cwd: snapshotDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      APP_MODE: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SITE_ORIGIN: url,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      ...env,
    },
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
      if ((await get(`${url}/healthz`)).status === 200) return { url, pid: child.pid, dataDir, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const status = `exit code ${child.exitCode}, signal ${child.signalCode}, after ${((Date.now() - started) / 1000).toFixed(0)} s`;
  await stop();
  throw new Error(`The server did not start (${status}):\n${output}`);
}
