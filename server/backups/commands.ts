import path from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.ts';
import { parseConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { openStorage } from '../media/open-storage.ts';
import { BackupUnreadableError } from './archive.ts';
import { backupKey, openBackupPlace, takeBackup } from './backups.ts';
import { PgToolMissingError } from './snapshot.ts';
import { restoreBackup, RestoreRefusedError } from './restore.ts';

/**
 * `npm run backup` and `npm run restore` (decision 112). Each prints what it did and resolves
 * with whether it succeeded; neither exits the process itself.
 */

export const RESTORE_USAGE = `Restores a backup taken by \`npm run backup\` (docs/deployment.md).

  npm run restore -- <backup> [--force]

<backup>  the backup's file, or its name in the backup place (BACKUP_TO, by default DATA_DIR/backups)
--force   replace what the target holds; without it, only an empty DATA_DIR or database is filled

The target is DATA_DIR (SQLite) or DATABASE_URL, and the photo storage (DATA_DIR or the S3_* bucket).
Stop the site first. Needs the key the backup was taken with (BACKUP_KEY, or DATA_DIR/backup.key).`;

type Print = (line: string) => void;
type Env = Record<string, string | undefined>;

/** Only the data's settings are read: a backup needs none of the site's mail, SMS or origin settings. */
function dataConfig(env: Env) {
  return parseConfig({ ...env, APP_MODE: 'demo', SEED_DEMO: 'false' });
}

/** One line an operator can act on, for the failures that are theirs to fix. */
function explained(error: unknown): string | null {
  if (error instanceof BackupUnreadableError || error instanceof RestoreRefusedError || error instanceof PgToolMissingError) return error.message;
  return null;
}

export async function backupCommand(env: Env, print: Print): Promise<boolean> {
  const config = dataConfig(env);
  const logger = createLogger('warn', 'json');
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(database);
    const { storage, privateStorage } = openStorage(config, logger);
    const { keptIn } = backupKey(config);
    const taken = await takeBackup({ config, database, storage, privateStorage, clock: systemClock, logger });
    print(`Backup taken: ${path.join(taken.place, taken.name)}`);
    print(`  ${taken.tables} tables, ${taken.rows} rows, ${taken.files} files, ${(taken.bytes / 1024 / 1024).toFixed(1)} MiB, encrypted.`);
    if (taken.removed.length > 0) print(`  Removed ${taken.removed.length} older backup(s) by the keep rule (BACKUP_KEEP).`);
    if (keptIn)
      print(
        `  The key is ${keptIn}, made for this installation. A real site sets its own BACKUP_KEY, keeps a copy of it elsewhere, and sets BACKUP_TO to a place off this disk (another disk, or s3://bucket/prefix): a backup on the same disk as its data, with its key beside it, is lost with that disk.`,
      );
    return true;
  } catch (error) {
    print(`backup failed: ${explained(error) ?? (error instanceof Error ? error.message : String(error))}`);
    return false;
  } finally {
    await database.close();
  }
}

export async function restoreCommand(argv: string[], env: Env, print: Print): Promise<boolean> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { force: { type: 'boolean' }, help: { type: 'boolean' } } });
  } catch (error) {
    print(`${(error as Error).message}\n\n${RESTORE_USAGE}`);
    return false;
  }
  const [backup] = parsed.positionals;
  if (parsed.values.help || !backup || parsed.positionals.length > 1) {
    print(RESTORE_USAGE);
    return Boolean(parsed.values.help);
  }
  const config = dataConfig(env);
  const logger = createLogger('warn', 'json');
  const place = openBackupPlace(config);
  // A path on this disk, or a backup's name in the configured place (downloaded from a bucket).
  const isName = !backup.includes('/') && !backup.includes(path.sep);
  const opened = isName ? await place.open(backup) : { file: path.resolve(backup), done: async () => {} };
  try {
    const { storage, privateStorage } = openStorage(config, logger);
    const report = await restoreBackup(
      opened.file,
      backupKey(config).key,
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl, storage, privateStorage },
      { force: Boolean(parsed.values.force), print },
    );
    if (report.problems.length > 0) {
      print(`The restore does not match the backup's manifest:\n${report.problems.map((line) => `  ${line}`).join('\n')}`);
      return false;
    }
    print(`Restored and checked: ${report.tables} tables, ${report.rows} rows and ${report.files} files match the backup's manifest.`);
    return true;
  } catch (error) {
    print(`restore failed: ${explained(error) ?? (error instanceof Error ? error.message : String(error))}`);
    return false;
  } finally {
    await opened.done();
  }
}
