// `npm run restore`: see server/backups/commands.ts and docs/deployment.md. Builds first when the
// sources changed, as `npm run demo` does.
import { build, buildIsStale, builtServer } from './build-if-stale.mjs';

if (buildIsStale()) {
  console.log('restore: building the app first (about a minute)…');
  build();
}
process.env.NODE_ENV ??= 'production';
const { restore } = await import(builtServer);
try {
  process.exitCode = (await restore(process.argv.slice(2), process.env, (line) => console.log(line))) ? 0 : 1;
} catch (error) {
  console.error(`restore: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
