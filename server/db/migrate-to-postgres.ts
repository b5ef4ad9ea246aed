import { parseArgs } from 'node:util';
import { createAuth, migrateAuth } from '../auth/auth.ts';
import { systemClock } from '../clock.ts';
import { parseConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { createMailer } from '../notify/mail.ts';
import { createJobSignal } from '../jobs/worker.ts';
import path from 'node:path';
import { copyMediaFolder } from '../media/copy-media.ts';
import { openStorage } from '../media/open-storage.ts';
import { openDatabase } from './connection.ts';
import { copySqliteToPostgres } from './copy-to-postgres.ts';
import { migrateToLatest } from './migrate.ts';

export const MIGRATE_USAGE = `Moves an installation from SQLite to PostgreSQL (docs/deployment.md).

  npm run migrate-to-postgres -- --to postgres://user:password@host:5432/gaadi [--from ./data]

--from   the installation's data folder (its SQLite file and media); default DATA_DIR or ./data
--to     the PostgreSQL database to fill; made ready with the app's own migrations first

Rows already in PostgreSQL are kept, so a copy that stopped is resumed by running it again.
Each table is counted and checksummed on both sides afterwards; any difference fails the command.
Stop the app first: rows written during the copy may be missed.`;

/** What the command prints and whether it succeeded; it never exits the process itself. */
export async function migrateToPostgres(argv: string[], env: Record<string, string | undefined>, print: (line: string) => void): Promise<boolean> {
  let options: { from?: string | undefined; to?: string | undefined; help?: boolean | undefined };
  try {
    options = parseArgs({ args: argv, options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (error) {
    print(`${(error as Error).message}\n\n${MIGRATE_USAGE}`);
    return false;
  }
  if (options.help || !options.to || !/^postgres(ql)?:\/\//.test(options.to)) {
    print(options.help ? MIGRATE_USAGE : `--to must be a postgres:// address.\n\n${MIGRATE_USAGE}`);
    return Boolean(options.help);
  }
  const dataDir = options.from ?? env.DATA_DIR ?? './data';
  // Only the accounts' table layout is read from this configuration (better-auth's migrations):
  // demo mode asks for none of production's mail, SMS and origin settings.
  const config = parseConfig({ ...env, APP_MODE: 'demo', DATA_DIR: dataDir, DATABASE_URL: options.to });
  const logger = createLogger('warn', 'json');
  const source = openDatabase({ dataDir });
  const target = openDatabase({ dataDir, databaseUrl: options.to });
  try {
    print(`Bringing both databases to the current schema…`);
    await migrateToLatest(source);
    await migrateToLatest(target);
    // The accounts' tables are better-auth's: its own migrations make them on PostgreSQL.
    await migrateAuth(
      createAuth({
        config,
        database: target,
        mailer: createMailer({ config, database: target, logger, clock: systemClock }),
        logger,
        clock: systemClock,
        jobs: createJobSignal(),
      }),
    );
    print(`Copying ${dataDir} into ${new URL(options.to).pathname.slice(1)}:`);
    const tables = await copySqliteToPostgres(source, target, (table) =>
      print(
        `  ${table.matches ? 'ok ' : 'BAD'} ${table.table.padEnd(24)} ${String(table.rows).padStart(7)} rows (${table.copiedNow} copied now)${table.problem ? `: ${table.problem}` : ''}`,
      ),
    );
    const bad = tables.filter((table) => !table.matches);
    print(
      bad.length === 0
        ? `All ${tables.length} tables match (counts and checksums).`
        : `${bad.length} table(s) differ: run the command again, or look at them before switching.`,
    );
    const mediaMatch = await copyMedia(config, dataDir, print);
    return bad.length === 0 && mediaMatch;
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

/**
 * With object storage configured (S3_*), the photos and licence photos go into the bucket as
 * well; without it they stay in the data folder, which the PostgreSQL installation keeps using.
 */
async function copyMedia(config: ReturnType<typeof parseConfig>, dataDir: string, print: (line: string) => void): Promise<boolean> {
  if (!config.s3) {
    print(`Photos stay in ${path.join(dataDir, 'media')} (no S3_* settings): keep DATA_DIR pointing at ${dataDir}.`);
    return true;
  }
  // A storage call that fails says why (wrong keys, a missing bucket) before the command stops.
  const { storage, privateStorage } = openStorage(config, { warn: (context, message) => print(`${message}: ${String((context as { err?: unknown }).err)}`) });
  let matches = true;
  for (const [folder, target] of [
    ['media', storage],
    ['private', privateStorage],
  ] as const) {
    const copied = await copyMediaFolder(path.join(dataDir, folder), target);
    matches &&= copied.differing.length === 0;
    print(
      `  ${copied.differing.length === 0 ? 'ok ' : 'BAD'} ${`${folder}/ → bucket ${config.s3.bucket}`.padEnd(32)} ${String(copied.files).padStart(5)} files (${copied.copiedNow} copied now)${copied.differing.length ? `: ${copied.differing.length} differ after the copy, e.g. ${copied.differing[0]}` : ''}`,
    );
  }
  return matches;
}
