import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupUnreadableError } from '../../server/backups/archive.ts';
import { backupStatus, runScheduledBackup, takeBackup, type BackupServices } from '../../server/backups/backups.ts';
import { restoreBackup, RestoreRefusedError, whatTheTargetHolds } from '../../server/backups/restore.ts';
import { systemClock } from '../../server/clock.ts';
import { parseConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { sharedServer } from '../support/shared.ts';
import { createPostgresDatabase } from '../support/server.ts';

/**
 * Backups and restore (decision 112) on this project's database: taken while writers keep
 * inserting, restored into an empty place and checked against the manifest; refused when read
 * with the wrong key, altered or cut short; a backup killed halfway never shows up.
 */

const { dialect } = sharedServer();
const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
const KEY = 'a-backup-key-for-the-tests-only';

type Installation = { dataDir: string; databaseUrl: string | undefined; database: Database; services: BackupServices; cleanup: () => Promise<void> };

async function installation(options: { migrate?: boolean } = {}): Promise<Installation> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-backup-'));
  const created = dialect === 'postgres' ? await createPostgresDatabase() : null;
  const database = openDatabase({ dataDir, databaseUrl: created?.url });
  if (options.migrate !== false) await migrateToLatest(database);
  const config = parseConfig({ APP_MODE: 'test', DATA_DIR: dataDir, DATABASE_URL: created?.url, BACKUP_KEY: KEY, BACKUP_AT: 'off' });
  const services: BackupServices = {
    config,
    database,
    storage: createLocalStorage(path.join(dataDir, 'media')),
    privateStorage: createLocalStorage(path.join(dataDir, 'private')),
    clock: systemClock,
    logger: quietLogger,
  };
  return {
    dataDir,
    databaseUrl: created?.url,
    database,
    services,
    cleanup: async () => {
      await database.close();
      await created?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function auditRow(index: number) {
  return {
    actor_email: 'desk@example.in',
    action: 'note',
    entity: 'lead',
    entity_id: String(index),
    summary: `Called back #${index}`,
    before: null,
    after: null,
    created_at: new Date().toISOString(),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe(`backups on ${dialect}`, () => {
  let source: Installation;
  let backupFile: string;
  let writtenDuring = 0;

  beforeAll(async () => {
    source = await installation();
    cleanups.push(source.cleanup);
    await source.database.db
      .insertInto('audit_log')
      .values(Array.from({ length: 50 }, (_, index) => auditRow(index)))
      .execute();
    await source.services.storage.put('vehicles/sedans/1_city-front-800.webp', randomBytes(20_000), 'image/webp');
    await source.services.storage.put('vehicles/suvs/2_creta-side-400.webp', randomBytes(3_000), 'image/webp');
    await source.services.privateStorage.put('licences/7/front.jpg', randomBytes(5_000), 'image/jpeg');

    // 20 writers keep inserting while the backup is taken.
    let writing = true;
    const writers = Array.from({ length: 20 }, async (_, writer) => {
      for (let index = 0; writing; index++) {
        await source.database.db
          .insertInto('audit_log')
          .values(auditRow(1000 * (writer + 1) + index))
          .execute();
        writtenDuring += 1;
        // As requests do: SQLite's driver answers synchronously, and a loop of awaits alone would never let the backup's file writes run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    const taken = await takeBackup(source.services);
    writing = false;
    await Promise.all(writers);
    backupFile = path.join(source.dataDir, 'backups', taken.name);
    expect(taken.files).toBe(3);
  }, 120_000);

  it('restores into an empty place every row the manifest counted, and every file, checked', async () => {
    const target = await installation({ migrate: false });
    cleanups.push(target.cleanup);
    const report = await restoreBackup(
      backupFile,
      KEY,
      { dataDir: target.dataDir, databaseUrl: target.databaseUrl, storage: target.services.storage, privateStorage: target.services.privateStorage },
      { force: false, print: () => {} },
    );
    expect(report.problems).toEqual([]);
    expect(report.files).toBe(3);
    const restored = openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    try {
      const rows = await restored.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      // The 50 written before and whatever of the writers' rows the snapshot's moment held.
      expect(Number(rows.count)).toBeGreaterThanOrEqual(50);
      expect(Number(rows.count)).toBeLessThanOrEqual(50 + writtenDuring);
      if (dialect === 'sqlite') {
        const file = new DatabaseSync(path.join(target.dataDir, 'gaadi-bazaar.sqlite'), { readOnly: true });
        expect(file.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
        file.close();
      }
    } finally {
      await restored.close();
    }
    const photo = await readFile(path.join(target.dataDir, 'media', 'vehicles/sedans/1_city-front-800.webp'));
    expect(photo.length).toBe(20_000);
    // The restored site's own backups come from its own runs.
  }, 120_000);

  it('refuses to overwrite a target that holds data, unless forced', async () => {
    const target = await installation();
    cleanups.push(target.cleanup);
    const into = { dataDir: target.dataDir, databaseUrl: target.databaseUrl, storage: target.services.storage, privateStorage: target.services.privateStorage };
    await expect(restoreBackup(backupFile, KEY, into, { force: false, print: () => {} })).rejects.toThrow(RestoreRefusedError);
    await target.database.close();
    const report = await restoreBackup(backupFile, KEY, into, { force: true, print: () => {} });
    expect(report.problems).toEqual([]);
  }, 120_000);

  it('refuses a backup read with the wrong key, altered by one byte, or cut short, saying so', async () => {
    const target = await installation({ migrate: false });
    cleanups.push(target.cleanup);
    const into = { dataDir: target.dataDir, databaseUrl: target.databaseUrl, storage: target.services.storage, privateStorage: target.services.privateStorage };
    await expect(restoreBackup(backupFile, 'another-key-entirely-wrong', into, { force: false, print: () => {} })).rejects.toThrow(
      /another key, or it has been altered/,
    );

    const bytes = await readFile(backupFile);
    const altered = Buffer.from(bytes);
    altered[Math.floor(altered.length / 2)]! ^= 0x01;
    const alteredFile = path.join(target.dataDir, 'altered.gbk');
    await writeFile(alteredFile, altered);
    await expect(restoreBackup(alteredFile, KEY, into, { force: false, print: () => {} })).rejects.toThrow(BackupUnreadableError);

    const cutFile = path.join(target.dataDir, 'cut.gbk');
    await writeFile(cutFile, bytes.subarray(0, bytes.length - 100));
    await expect(restoreBackup(cutFile, KEY, into, { force: false, print: () => {} })).rejects.toThrow(BackupUnreadableError);
    // Nothing was written into the target by a refused backup.
    expect(await whatTheTargetHolds(into)).toEqual([]);
  }, 120_000);

  it('a backup killed halfway leaves the earlier ones whole and listed, and is never offered', async () => {
    // Enough photos that the backup is still writing when it is killed.
    for (let index = 0; index < 40; index++) await source.services.storage.put(`vehicles/big/${index}_photo-1600.webp`, randomBytes(1_000_000), 'image/webp');
    const folder = path.join(source.dataDir, 'backups');
    const before = (await readdir(folder)).filter((name) => name.endsWith('.gbk'));
    const child = spawn(process.execPath, ['scripts/backup.mjs'], {
      env: { ...process.env, DATA_DIR: source.dataDir, BACKUP_KEY: KEY, ...(source.databaseUrl ? { DATABASE_URL: source.databaseUrl } : {}) },
      stdio: 'ignore',
    });
    // Killed as soon as its half-written file has grown past a few megabytes.
    for (let waited = 0; waited < 60_000; waited += 20) {
      const partial = (await readdir(folder)).find((name) => name.endsWith('.partial'));
      if (partial && (await stat(path.join(folder, partial)).catch(() => ({ size: 0 }))).size > 3_000_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const after = await readdir(folder);
    expect(after.filter((name) => name.endsWith('.gbk'))).toEqual(before);
    expect(after.some((name) => name.endsWith('.partial'))).toBe(true);
    const { folderPlace } = await import('../../server/backups/places.ts');
    expect((await folderPlace(folder).list()).map((backup) => backup.name)).toEqual(before);
    // The earlier backup still reads whole.
    const { verifyBackup } = await import('../../server/backups/restore.ts');
    await expect(verifyBackup(path.join(folder, before[0]!), KEY)).resolves.toMatchObject({ app: 'gaadi-bazaar' });
  }, 120_000);
});

describe(`the daily backup on ${dialect}`, () => {
  it('is taken once a day after its time, and a failure is mailed to the desk once until a backup goes through', async () => {
    const site = await installation();
    cleanups.push(site.cleanup);
    let nowMs = Date.UTC(2026, 10, 27, 21, 5); // 02:35 India time
    const clock = { now: () => nowMs };
    const at = { hour: 2, minute: 30 };
    const good = { ...site.services.config, backups: { ...site.services.config.backups, dailyAt: at } };
    // A place that cannot be written: a folder where a file is.
    await writeFile(path.join(site.dataDir, 'not-a-folder'), 'x');
    const broken = { ...good, backups: { ...good.backups, place: { kind: 'folder' as const, folder: path.join(site.dataDir, 'not-a-folder', 'backups') } } };
    const services = (config: typeof good) => ({
      ...site.services,
      config: { ...config, siteOrigin: 'http://127.0.0.1', outboxEnabled: true, siteName: 'Gaadi Bazaar' },
      clock,
      mailer: { delivers: false },
      desk: { email: 'desk@example.in' },
    });
    const deskMails = async () =>
      (await site.database.db.selectFrom('outbox_messages').select('subject').where('recipient', '=', 'desk@example.in').execute()).filter(
        (row) => row.subject === 'The daily backup failed',
      ).length;

    expect(await runScheduledBackup(services(broken) as never)).toBeNull();
    expect((await backupStatus(site.database, nowMs)).warning).toBe('failed');
    expect(await deskMails()).toBe(1);
    // The next hourly look the same night: not tried again, not mailed again.
    nowMs += 60 * 60 * 1000;
    expect(await runScheduledBackup(services(broken) as never)).toBeNull();
    expect(await deskMails()).toBe(1);
    // The next night fails too: the desk already knows.
    nowMs += 24 * 60 * 60 * 1000;
    await runScheduledBackup(services(broken) as never);
    expect(await deskMails()).toBe(1);
    // Fixed: the next night's backup goes through and the warning ends.
    nowMs += 24 * 60 * 60 * 1000;
    const taken = await runScheduledBackup(services(good) as never);
    expect(taken?.name).toMatch(/^gaadi-backup-/);
    expect(await runScheduledBackup(services(good) as never)).toBeNull();
    const status = await backupStatus(site.database, nowMs);
    expect(status.warning).toBeNull();
    expect(status.lastGood?.name).toBe(taken?.name);
    // A day and more without one is a warning again; a new failure is mailed again.
    expect((await backupStatus(site.database, nowMs + 27 * 60 * 60 * 1000)).warning).toBe('old');
    nowMs += 24 * 60 * 60 * 1000;
    await runScheduledBackup(services(broken) as never);
    expect(await deskMails()).toBe(2);
  }, 120_000);
});
