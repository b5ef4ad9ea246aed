// `npm run backup`: see server/backups/commands.ts and docs/deployment.md. Builds first when the
// sources changed, as `npm run demo` does.
import { build, buildIsStale, builtServer } from './build-if-stale.mjs';

if (buildIsStale()) {
  console.log('backup: building the app first (about a minute)…');
  build();
}
process.env.NODE_ENV ??= 'production';
const { backup } = await import(builtServer);
try {
  process.exitCode = (await backup(process.env, (line) => console.log(line))) ? 0 : 1;
} catch (error) {
  console.error(`backup: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
