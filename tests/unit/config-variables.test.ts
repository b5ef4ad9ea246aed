import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configVariables, parseConfig } from '../../server/config.ts';

/** .env.example is the newcomer's list of every setting: it must match what the server reads. */

const examplePath = path.resolve(import.meta.dirname, '../../.env.example');

/** `NAME=value` lines of .env.example (comments and blank lines left out). */
function exampleEntries(): [string, string][] {
  return readFileSync(examplePath, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
}

describe('.env.example', () => {
  it('lists every variable the configuration reads, once, and nothing else', () => {
    const listed = exampleEntries().map(([name]) => name);
    expect(new Set(listed).size, 'a variable is listed twice').toBe(listed.length);
    expect([...listed].sort()).toEqual([...configVariables].sort());
  });

  it('holds values the configuration accepts (demo mode: production also needs the secrets left empty there)', () => {
    const values = Object.fromEntries(exampleEntries());
    expect(() => parseConfig({ ...values, APP_MODE: 'demo' })).not.toThrow();
  });
});

describe('cache and log settings', () => {
  it('keeps the settings 2 s and logs JSON by default; test mode reads settings every time', () => {
    expect(
      parseConfig({
        APP_MODE: 'production',
        SITE_ORIGIN: 'https://www.example.in',
        AUTH_SECRET: 'x'.repeat(32),
        SMTP_URL: 'smtp://mail',
        SMS_PROVIDER: 'msg91',
        MSG91_AUTH_KEY: 'k',
        MSG91_TEMPLATE_ID: 't',
      }),
    ).toMatchObject({
      settingsCacheSeconds: 2,
      logFormat: 'json',
    });
    expect(parseConfig({ APP_MODE: 'test' })).toMatchObject({ settingsCacheSeconds: 0, logFormat: 'json' });
    expect(parseConfig({ APP_MODE: 'demo' })).toMatchObject({ settingsCacheSeconds: 2, logFormat: 'pretty' });
    expect(parseConfig({ APP_MODE: 'demo', SETTINGS_CACHE_SECONDS: '0', LOG_FORMAT: 'json' })).toMatchObject({ settingsCacheSeconds: 0, logFormat: 'json' });
  });

  it('refuses a settings cache lifetime that is not a number of seconds', () => {
    expect(() => parseConfig({ APP_MODE: 'test', SETTINGS_CACHE_SECONDS: 'soon' })).toThrow(/SETTINGS_CACHE_SECONDS: must be a number of seconds/);
    expect(() => parseConfig({ APP_MODE: 'test', LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});
