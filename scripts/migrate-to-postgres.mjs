// `npm run migrate-to-postgres -- --to postgres://… [--from ./data]`: moves an installation's
// SQLite database (and, with S3 configured, its media) to PostgreSQL (docs/deployment.md).
// Builds first when the sources changed, as `npm run demo` does.
import { build, buildIsStale, builtServer } from './build-if-stale.mjs';

if (buildIsStale()) {
  console.log('migrate-to-postgres: building the app first (about a minute)…');
  build();
}
process.env.NODE_ENV ??= 'production';
const { migrateToPostgres } = await import(builtServer);
try {
  process.exitCode = (await migrateToPostgres(process.argv.slice(2), process.env, (line) => console.log(line))) ? 0 : 1;
} catch (error) {
  // One line an operator can act on (a database that does not answer, a refused password).
  console.error(`migrate-to-postgres: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
