import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, freePort } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The built server started with bad settings: each problem ends the process with exit code 1
 * and one clear line on stderr, no stack trace, and a port in use is found before anything is
 * migrated, seeded or printed.
 */

const root = path.resolve(import.meta.dirname, '../..');
const shared = sharedServer();
const STACK_FRAME = /\n\s+at /;

type Outcome = { code: number | null; stdout: string; stderr: string };

/** Runs `node server.js` with `env` until it exits (or 60 s pass), as `asUser` when given. */
function runServer(env: Record<string, string>, options: { asNobody?: boolean } = {}): Promise<Outcome> {
  const fullEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    APP_MODE: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    ...env,
  };
  // Root writes anywhere, so an unwritable DATA_DIR is tried as the unprivileged 'nobody'.
  const [command, args] = options.asNobody
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, 'server.js']]
    : [process.execPath, ['server.js']];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectOneClearLine(outcome: Outcome, wanted: RegExp) {
  expect(outcome.code, outcome.stderr + outcome.stdout).toBe(1);
  const lines = outcome.stderr.trim().split('\n');
  expect(lines, outcome.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^Could not start: /);
  expect(lines[0]).toMatch(wanted);
  expect(outcome.stderr + outcome.stdout).not.toMatch(STACK_FRAME);
}

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'gaadi-startup-'));
  // 'nobody' must be able to reach the directories made below.
  await chmod(workDir, 0o755);
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

// Each dialect's cases are defined only in its own project, so nothing is skipped.
if (shared.url && shared.dialect === 'sqlite')
  describe('start-up failures (SQLite)', () => {
    it('finds a port in use first: nothing migrated, no admin password printed', async () => {
      const blocker: Server = createServer();
      const port = await freePort();
      await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
      try {
        const dataDir = path.join(workDir, 'port-in-use');
        const outcome = await runServer({ PORT: String(port), DATA_DIR: dataDir, APP_MODE: 'demo', SEED_DEMO: 'true' });
        expectOneClearLine(outcome, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
        expect(outcome.stdout).not.toMatch(/password|migrated|demo inventory/i);
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });

    it('names a DATA_DIR that is a file', async () => {
      const file = path.join(workDir, 'a-file');
      await writeFile(file, 'not a directory');
      expectOneClearLine(await runServer({ PORT: String(await freePort()), DATA_DIR: file }), /DATA_DIR .*a-file is a file, not a directory/);
      expectOneClearLine(await runServer({ PORT: String(await freePort()), DATA_DIR: path.join(file, 'below') }), /a part of its path is a file/);
    });

    it('names a DATA_DIR it cannot write', async () => {
      const readOnly = path.join(workDir, 'read-only');
      await mkdir(readOnly);
      await chmod(readOnly, 0o555);
      const asNobody = process.getuid?.() === 0;
      expectOneClearLine(await runServer({ PORT: String(await freePort()), DATA_DIR: readOnly }, { asNobody }), /DATA_DIR .*read-only is not writable/);
    });

    it('names the migration that failed', async () => {
      const dataDir = path.join(workDir, 'broken-schema');
      await mkdir(dataDir);
      // A table of that name with another shape makes the first migration fail.
      const sqlite = new DatabaseSync(path.join(dataDir, 'gaadi-bazaar.sqlite'));
      sqlite.exec('CREATE TABLE categories (something TEXT)');
      sqlite.close();
      expectOneClearLine(await runServer({ PORT: String(await freePort()), DATA_DIR: dataDir }), /Database migration 001-catalog failed: .*categories/);
    });
  });

if (shared.url && shared.dialect === 'postgres')
  describe('start-up failures (PostgreSQL)', () => {
    it('names an unreachable database without its password', async () => {
      const port = await freePort();
      const outcome = await runServer({
        PORT: String(await freePort()),
        DATA_DIR: path.join(workDir, 'pg-unreachable'),
        DATABASE_URL: `postgres://gaadi:s3cret@127.0.0.1:${port}/gaadi`,
      });
      expectOneClearLine(outcome, new RegExp(`database at 127\\.0\\.0\\.1:${port}/gaadi could not be reached`));
      expect(outcome.stderr + outcome.stdout).not.toContain('s3cret');
    });

    it('names the migration that failed', async () => {
      const created = await createPostgresDatabase();
      try {
        const client = new pg.Client({ connectionString: created.url });
        await client.connect();
        await client.query('CREATE TABLE categories (something TEXT)');
        await client.end();
        const outcome = await runServer({ PORT: String(await freePort()), DATA_DIR: path.join(workDir, 'pg-broken'), DATABASE_URL: created.url });
        expectOneClearLine(outcome, /Database migration 001-catalog failed: .*categories/);
      } finally {
        await created.drop();
      }
    });
  });
