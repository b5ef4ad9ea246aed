import { inject } from 'vitest';
import type { Dialect } from './server.ts';

const read = inject as unknown as (key: string) => unknown;

/** The project's shared server (see global-server.ts). `url` is '' when its database is unavailable. */
export function sharedServer(): { dialect: Dialect; url: string; dataDir: string } {
  return {
    dialect: read('dialect') as Dialect,
    url: read('serverUrl') as string,
    dataDir: read('serverDataDir') as string,
  };
}
