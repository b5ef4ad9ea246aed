import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import { AUTH_SECRET_FILE, keptAuthSecret, StartupError } from '../../server/http/startup.ts';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(path.join(tmpdir(), 'gaadi-secret-'));
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('the secret of an installation without AUTH_SECRET', () => {
  it('is made once, kept readable by this user only, and the same at every later start', () => {
    const dataDir = folder();
    const first = keptAuthSecret(parseConfig({ APP_MODE: 'demo', DATA_DIR: dataDir }));
    expect(first.made).toBe(path.resolve(dataDir, AUTH_SECRET_FILE));
    expect(first.config.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(path.join(dataDir, AUTH_SECRET_FILE)).mode & 0o777).toBe(0o600);
    const again = keptAuthSecret(parseConfig({ APP_MODE: 'demo', DATA_DIR: dataDir }));
    expect(again.made).toBeNull();
    expect(again.config.authSecret).toBe(first.config.authSecret);
  });

  it('differs from one installation to the next, and is written nowhere in the code', () => {
    const secrets = [folder(), folder(), folder()].map((dataDir) => keptAuthSecret(parseConfig({ APP_MODE: 'test', DATA_DIR: dataDir })).config.authSecret);
    expect(new Set(secrets).size).toBe(3);
    // Without a folder (a unit test, a script) the secret is still random, never a fixed string.
    expect(parseConfig({ APP_MODE: 'demo' }).authSecret).not.toBe(parseConfig({ APP_MODE: 'demo' }).authSecret);
  });

  it('is AUTH_SECRET when set, with nothing written', () => {
    const dataDir = folder();
    const kept = keptAuthSecret(parseConfig({ APP_MODE: 'demo', DATA_DIR: dataDir, AUTH_SECRET: 's'.repeat(40) }));
    expect(kept).toMatchObject({ made: null, config: { authSecret: 's'.repeat(40) } });
    expect(() => readFileSync(path.join(dataDir, AUTH_SECRET_FILE))).toThrow();
  });

  it('refuses to start on an emptied file, saying what to do', () => {
    const dataDir = folder();
    writeFileSync(path.join(dataDir, AUTH_SECRET_FILE), '\n');
    expect(() => keptAuthSecret(parseConfig({ APP_MODE: 'demo', DATA_DIR: dataDir }))).toThrow(StartupError);
    expect(() => keptAuthSecret(parseConfig({ APP_MODE: 'demo', DATA_DIR: dataDir }))).toThrow(/delete it to have a new one made, or set AUTH_SECRET/);
  });
});
