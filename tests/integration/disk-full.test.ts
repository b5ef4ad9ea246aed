import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The data folder's disk fills up (decision 112). A small disk of its own (tmpfs) holds the
 * site's DATA_DIR; the test fills it to the last byte. Writes then answer a clear 503 with
 * nothing half-saved, a backup fails saying why and publishes nothing, and once space returns
 * the site writes again and the database is intact.
 */

const { dialect } = sharedServer();
let mountPoint: string;
let server: TestServer;
let dataDir: string;
const fillers: string[] = [];

/** Fills the disk: one file as large as the free space, then small ones until not a byte is left. */
async function fillDisk() {
  const { bavail, bsize } = await statfs(mountPoint);
  const file = path.join(mountPoint, `filler-${fillers.length}`);
  fillers.push(file);
  await writeFile(file, Buffer.alloc(Math.max(0, bavail * bsize - 64 * 1024))).catch(() => {});
  for (let index = 0; index < 64; index++) {
    const small = path.join(mountPoint, `filler-${fillers.length}`);
    fillers.push(small);
    try {
      await writeFile(small, Buffer.alloc(4096));
    } catch {
      break;
    }
  }
}

async function freeDisk() {
  for (const file of fillers.splice(0)) await rm(file, { force: true });
}

function request(client: HttpClient, phone: string, botCheck: string) {
  return client.request('/api/v1/vehicle-requests', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ravi Kumar', phone, model: 'Maruti Swift VXi', year: '2019', budget: '₹5,00,000', botCheck }),
  });
}

beforeAll(async () => {
  mountPoint = await mkdtemp(path.join(tmpdir(), 'gaadi-small-disk-'));
  // The suite runs as root on its CI machines, where a tmpfs of 32 MiB is the small disk.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mountPoint]);
  dataDir = path.join(mountPoint, 'data');
  await mkdir(dataDir);
  server = await startTestServer({ dialect, seed: false, childProcess: true, dataDir, env: { BACKUP_KEY: 'the-small-disk-test-key' } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  execFileSync('umount', ['-l', mountPoint]);
  await rm(mountPoint, { recursive: true, force: true });
});

describe(`a full disk under DATA_DIR (${dialect})`, () => {
  it('a backup fails saying why, and publishes nothing', async () => {
    await fillDisk();
    try {
      const output = (() => {
        try {
          execFileSync(process.execPath, ['scripts/backup.mjs'], {
            env: {
              ...process.env,
              DATA_DIR: dataDir,
              BACKUP_KEY: 'the-small-disk-test-key',
              ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
            },
            encoding: 'utf8',
            stdio: 'pipe',
          });
          return 'succeeded';
        } catch (error) {
          return String((error as { stdout?: string }).stdout);
        }
      })();
      expect(output).toMatch(/backup failed: .*(ENOSPC|no space left|disk is full)/i);
      const backups = await readdir(path.join(dataDir, 'backups')).catch(() => []);
      expect(backups.filter((name) => name.endsWith('.gbk'))).toEqual([]);
      expect(backups.filter((name) => name.endsWith('.partial'))).toEqual([]);
    } finally {
      await freeDisk();
    }
  }, 120_000);

  if (dialect === 'sqlite')
    it('a write answers a clear 503 and saves nothing; with space back, the site writes again, intact', async () => {
      const client = new HttpClient(server.url);
      expect((await request(client, '98765 00001', await client.botToken('REQUEST_FORM'))).status).toBe(201);
      // Solved before the disk fills: asking for a challenge writes too (its rate limit).
      const botCheck = await client.botToken('REQUEST_FORM');
      // SQLite writes into its write-ahead log, which keeps the space it had: empty it first, so the next write needs new space.
      const file = new DatabaseSync(path.join(dataDir, 'gaadi-bazaar.sqlite'));
      file.exec('PRAGMA busy_timeout = 5000; PRAGMA wal_checkpoint(TRUNCATE);');
      file.close();
      await fillDisk();
      try {
        const full = await request(client, '98765 00002', botCheck);
        expect(full.status).toBe(503);
        expect(full.headers.get('retry-after')).toBeTruthy();
        const problem = (await full.json()) as { detail: string };
        expect(problem.detail).toMatch(/try again/i);
      } finally {
        await freeDisk();
      }
      expect((await request(client, '98765 00003', await client.botToken('REQUEST_FORM'))).status).toBe(201);
      const check = new DatabaseSync(path.join(dataDir, 'gaadi-bazaar.sqlite'), { readOnly: true });
      try {
        expect(check.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
        const phones = check
          .prepare('SELECT phone FROM vehicle_requests ORDER BY id')
          .all()
          .map((row) => row.phone);
        expect(phones).toEqual(['+919876500001', '+919876500003']);
      } finally {
        check.close();
      }
    }, 120_000);
});
