import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { indiaDay, indiaMidnight } from '../../app/lib/india-time.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { createS3Client } from '../media/s3-storage.ts';
import type { Storage } from '../media/storage.ts';
import { queueMail, type OutgoingServices } from '../notify/outgoing.ts';
import { AUTH_SECRET_FILE } from '../http/startup.ts';
import { createArchiveWriter } from './archive.ts';
import { backupsToKeep } from './keep.ts';
import { backupName, bucketPlace, folderPlace, startedMsOf, type BackupPlace } from './places.ts';
import { snapshotDatabase } from './snapshot.ts';
import type { TableDigest } from './table-digests.ts';

/**
 * Backups of the whole site (decision 112): the database as one moment saw it, every photo and
 * document in both storages, and a manifest of counts and SHA-256 digests, in one encrypted file
 * per backup. Taken by `npm run backup` or daily by the scheduler; pruned by the keep rule.
 */

export const MANIFEST_ENTRY = 'manifest.json';
/** Where stored files go inside a backup: the public photos, and the private ones (licences, checklists). */
export const STORAGE_ENTRY_PREFIXES = { storage: 'media/', privateStorage: 'private/' } as const;

/**
 * The installation's own secret (DATA_DIR/auth-secret, made when AUTH_SECRET is not set): it signs
 * sessions and links, so a site restored without it would sign everyone out. In the encrypted
 * backup beside the data it protects; absent when the site sets AUTH_SECRET.
 */
export const SECRET_ENTRY = 'auth-secret';

export type Manifest = {
  format: 1;
  app: 'gaadi-bazaar';
  startedAt: string;
  finishedAt: string;
  dialect: Database['dialect'];
  /** The database entry's name, size and digest. */
  database: { entry: string; bytes: number; sha256: string };
  tables: Record<string, TableDigest>;
  /** Every stored file, by entry name (`media/…`, `private/…`). */
  files: Record<string, { bytes: number; sha256: string }>;
  /** The installation's secret file, when it has one (SECRET_ENTRY). */
  secret?: { entry: string; bytes: number; sha256: string };
};

export type BackupServices = {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'backups' | 's3'>;
  database: Database;
  storage: Storage;
  privateStorage: Storage;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
};

export const BACKUP_KEY_FILE = 'backup.key';

/**
 * The key backups are sealed with: BACKUP_KEY, or one this installation makes and keeps in
 * DATA_DIR/backup.key. `made` says the key is on the same disk as the data: fine for a first
 * try, no protection when that disk is lost.
 */
export function backupKey(config: Pick<Config, 'dataDir' | 'backups'>): { key: string; keptIn: string | null } {
  if (config.backups.key) return { key: config.backups.key, keptIn: null };
  const file = path.resolve(config.dataDir, BACKUP_KEY_FILE);
  // Written whole under its own name, then linked into place: two runs at once agree on one key.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return { key: readFileSync(file, 'utf8').trim(), keptIn: file };
}

export function openBackupPlace(config: Pick<Config, 'dataDir' | 'backups' | 's3'>): BackupPlace {
  const place = config.backups.place;
  if (place.kind === 'folder') return folderPlace(path.resolve(place.folder));
  // Config refuses a bucket without the S3_* settings.
  return bucketPlace(createS3Client(config.s3!), place.bucket, place.prefix, path.resolve(config.dataDir, 'backup-staging'));
}

/** Hashes what passes through, for the manifest. */
async function* hashing(body: ReadableStream, hash: ReturnType<typeof createHash>): AsyncGenerator<Uint8Array> {
  for await (const piece of body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(piece);
    yield piece;
  }
}

export type BackupTaken = { name: string; place: string; bytes: number; tables: number; rows: number; files: number; removed: string[] };

/**
 * Takes one backup while the site runs, records it in backup_runs, then prunes the place by the
 * keep rule. A failure is recorded (and rethrown); nothing half-written is ever published.
 */
export async function takeBackup(services: BackupServices): Promise<BackupTaken> {
  const { database, clock } = services;
  const place = openBackupPlace(services.config);
  const startedMs = clock.now();
  const name = backupName(startedMs);
  const run = await database.db
    .insertInto('backup_runs')
    .values({ name, started_ms: startedMs, status: 'running', place: place.description })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    const taken = await writeBackup(services, place, name, startedMs);
    await database.db.updateTable('backup_runs').set({ status: 'good', finished_ms: clock.now(), bytes: taken.bytes }).where('id', '=', run.id).execute();
    taken.removed = await pruneBackups(place, services.config.backups.keep);
    services.logger.info({ backup: taken.name, place: taken.place, bytes: taken.bytes, removed: taken.removed.length }, 'backups: a backup was taken');
    return taken;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await database.db
      .updateTable('backup_runs')
      .set({ status: 'failed', finished_ms: clock.now(), error: message.slice(0, 1000) })
      .where('id', '=', run.id)
      .execute()
      .catch(() => {});
    services.logger.error({ err: error, backup: name }, 'backups: a backup failed');
    throw error;
  }
}

function readSecretFile(dataDir: string): Buffer | null {
  try {
    return readFileSync(path.join(dataDir, AUTH_SECRET_FILE));
  } catch {
    return null;
  }
}

async function writeBackup(services: BackupServices, place: BackupPlace, name: string, startedMs: number): Promise<BackupTaken> {
  const { key } = backupKey(services.config);
  const staging = await place.staging(name);
  const scratch = await mkdtemp(path.join(path.dirname(staging), '.snapshot-'));
  try {
    // The database first: a photo it names was stored before its row was written, so it is in
    // the storage when the files are listed after (one deleted in between is the only gap).
    const snapshot = await snapshotDatabase(services.database, { databaseUrl: services.config.databaseUrl, folder: scratch });
    const file = await open(staging, 'w', 0o600);
    const files: Manifest['files'] = {};
    let bytes = 0;
    try {
      const archive = await createArchiveWriter(file, key);
      await archive.add(snapshot.entryName, snapshot.bytes, createReadStream(snapshot.file));
      for (const [storageName, prefix] of Object.entries(STORAGE_ENTRY_PREFIXES) as [keyof typeof STORAGE_ENTRY_PREFIXES, string][]) {
        const storage = services[storageName];
        for await (const storageKey of storage.keys()) {
          const stored = await storage.get(storageKey);
          if (!stored) continue; // deleted since it was listed
          const hash = createHash('sha256');
          await archive.add(`${prefix}${storageKey}`, stored.size, hashing(stored.body, hash));
          files[`${prefix}${storageKey}`] = { bytes: stored.size, sha256: hash.digest('hex') };
        }
      }
      const secret = readSecretFile(services.config.dataDir);
      if (secret) await archive.add(SECRET_ENTRY, secret.length, [secret]);
      const manifest: Manifest = {
        format: 1,
        app: 'gaadi-bazaar',
        startedAt: new Date(startedMs).toISOString(),
        finishedAt: new Date(services.clock.now()).toISOString(),
        dialect: services.database.dialect,
        database: { entry: snapshot.entryName, bytes: snapshot.bytes, sha256: snapshot.sha256 },
        tables: snapshot.tables,
        files,
        ...(secret ? { secret: { entry: SECRET_ENTRY, bytes: secret.length, sha256: createHash('sha256').update(secret).digest('hex') } } : {}),
      };
      const manifestBytes = Buffer.from(JSON.stringify(manifest));
      await archive.add(MANIFEST_ENTRY, manifestBytes.length, [manifestBytes]);
      await archive.finish();
      // On the disk before it takes its name: a power cut never leaves a named, empty backup.
      await file.sync();
      bytes = (await file.stat()).size;
    } finally {
      await file.close();
    }
    await place.publish(staging, name);
    const rows = Object.values(snapshot.tables).reduce((sum, table) => sum + table.rows, 0);
    return { name, place: place.description, bytes, tables: Object.keys(snapshot.tables).length, rows, files: Object.keys(files).length, removed: [] };
  } catch (error) {
    await rm(staging, { force: true });
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Deletes the backups the keep rule lets go; the newest is always kept. Answers the names removed. */
export async function pruneBackups(place: BackupPlace, keep: Config['backups']['keep']): Promise<string[]> {
  const backups = (await place.list()).map((backup) => ({ ...backup, startedMs: startedMsOf(backup.name)! }));
  const kept = backupsToKeep(backups, keep);
  const removed = backups.filter((backup) => !kept.has(backup)).map((backup) => backup.name);
  for (const name of removed) await place.remove(name);
  return removed;
}

export type BackupStatus = {
  lastGood: { name: string; finishedMs: number; bytes: number; place: string } | null;
  lastFailure: { startedMs: number; error: string } | null;
  /** What the dashboard warns of: no backup in the last day, or the newest attempt failed. */
  warning: 'never' | 'old' | 'failed' | null;
};

export const BACKUP_MAX_AGE_MS = 26 * 60 * 60 * 1000;

export async function backupStatus(database: Database, nowMs: number): Promise<BackupStatus> {
  const good = await database.db
    .selectFrom('backup_runs')
    .select(['name', 'finished_ms', 'bytes', 'place'])
    .where('status', '=', 'good')
    .orderBy('started_ms', 'desc')
    .limit(1)
    .executeTakeFirst();
  const newest = await database.db
    .selectFrom('backup_runs')
    .select(['status', 'started_ms', 'error'])
    .where('status', '!=', 'running')
    .orderBy('started_ms', 'desc')
    .limit(1)
    .executeTakeFirst();
  const lastGood = good ? { name: good.name, finishedMs: Number(good.finished_ms), bytes: Number(good.bytes), place: good.place } : null;
  const lastFailure = newest?.status === 'failed' ? { startedMs: Number(newest.started_ms), error: newest.error ?? '' } : null;
  const warning = lastFailure ? 'failed' : !lastGood ? 'never' : nowMs - lastGood.finishedMs > BACKUP_MAX_AGE_MS ? 'old' : null;
  return { lastGood, lastFailure, warning };
}

/** The latest daily backup time (India) at or before `nowMs`. */
export function latestDailyInstant(nowMs: number, at: { hour: number; minute: number }): number {
  // India keeps no daylight saving: every India day is 24 hours long.
  const todayAt = indiaMidnight(indiaDay(nowMs)) + (at.hour * 60 + at.minute) * 60_000;
  return todayAt <= nowMs ? todayAt : todayAt - 24 * 60 * 60 * 1000;
}

/** How often the scheduler looks whether the daily backup is due. */
export const BACKUP_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export type ScheduledBackupServices = BackupServices & OutgoingServices & { desk: { email: string | null } };

/**
 * The scheduler's hourly look (decision 112): a backup is due when none has been tried since the
 * latest daily time. A failure is mailed to the desk once: not again until a backup has gone
 * through. Several instances may look at once; the queue runs each recurring job on one of them.
 */
export async function runScheduledBackup(services: ScheduledBackupServices): Promise<BackupTaken | null> {
  const at = services.config.backups.dailyAt;
  if (!at) return null;
  const nowMs = services.clock.now();
  const since = latestDailyInstant(nowMs, at);
  const tried = await services.database.db.selectFrom('backup_runs').select('id').where('started_ms', '>=', since).limit(1).executeTakeFirst();
  if (tried) return null;
  try {
    return await takeBackup(services);
  } catch (error) {
    await tellDeskOnce(services, error instanceof Error ? error.message : String(error));
    return null;
  }
}

async function tellDeskOnce(services: ScheduledBackupServices, message: string): Promise<void> {
  const email = services.desk.email;
  if (!email) return;
  await services.database.db.transaction().execute(async (trx: Kysely<DB>) => {
    const lastGood = await trx
      .selectFrom('backup_runs')
      .select(['started_ms'])
      .where('status', '=', 'good')
      .orderBy('started_ms', 'desc')
      .limit(1)
      .executeTakeFirst();
    const alreadyTold = await trx
      .selectFrom('backup_runs')
      .select('id')
      .where('desk_told', '=', 1)
      .where('started_ms', '>', lastGood ? Number(lastGood.started_ms) : 0)
      .limit(1)
      .executeTakeFirst();
    if (alreadyTold) return;
    const failed = await trx.selectFrom('backup_runs').select('id').where('status', '=', 'failed').orderBy('started_ms', 'desc').limit(1).executeTakeFirst();
    if (!failed) return;
    await trx.updateTable('backup_runs').set({ desk_told: 1 }).where('id', '=', failed.id).execute();
    await queueMail(trx, services, {
      to: email,
      subject: 'The daily backup failed',
      text: `Tonight's backup of the site could not be taken:\n\n${message}\n\nThe last good backup is on the dashboard. Until this is fixed, new leads, bookings and sales are not backed up. You will not be mailed again about this until a backup goes through.`,
    });
  });
}
