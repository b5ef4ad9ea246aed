import { z } from 'zod';
import { ITEMS_PER_PAGE_OPTIONS } from '../../app/lib/admin-pages.ts';
import { DEFAULT_STOREFRONT_PROMISE, DEFAULT_TRUST_POINTS, MAX_PROMISE_LENGTH, MAX_TRUST_POINT_LENGTH, MAX_TRUST_POINTS } from '../../app/lib/storefront.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';

/** The admin Settings screen's values (SPEC 2, Admin settings), saved on the server and in effect. */
export const settingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Site name is required').max(60, 'Site name must be at most 60 characters'),
  adminEmail: z.union([z.literal(''), z.email('Please enter a valid admin email address')]),
  itemsPerPage: z.coerce.number().refine((value) => (ITEMS_PER_PAGE_OPTIONS as readonly number[]).includes(value), 'Items per page must be 5, 10, 25 or 50'),
  emailNotifications: z.boolean(),
  maintenanceMode: z.boolean(),

  // Storefront: the home page's promise and trust points (app/lib/storefront.ts has the
  // defaults); the trust points are kept as text, one a line, as the admin types them.
  storefrontPromise: z.string().trim().min(1, 'The promise is required').max(MAX_PROMISE_LENGTH, `The promise must be at most ${MAX_PROMISE_LENGTH} characters`),
  trustPoints: z
    .string()
    .trim()
    .refine((text) => text.split(/\r?\n/).filter((line) => line.trim()).length <= MAX_TRUST_POINTS, `At most ${MAX_TRUST_POINTS} trust points`)
    .refine((text) => text.split(/\r?\n/).every((line) => line.trim().length <= MAX_TRUST_POINT_LENGTH), `Each trust point must be at most ${MAX_TRUST_POINT_LENGTH} characters`),
});

export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(defaults: { siteName: string; adminEmail: string }): Settings {
  return {
    siteName: defaults.siteName,
    adminEmail: defaults.adminEmail,
    itemsPerPage: 10,
    emailNotifications: true,
    maintenanceMode: false,
    // Storefront
    storefrontPromise: DEFAULT_STOREFRONT_PROMISE,
    trustPoints: DEFAULT_TRUST_POINTS.join('\n'),
  };
}

/** Every setting, falling back to the defaults for any not saved yet. */
export async function getSettings(database: Database, defaults: Settings): Promise<Settings> {
  const rows = await database.db.selectFrom('settings').select(['key', 'value']).execute();
  const saved: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      saved[row.key] = JSON.parse(row.value);
    } catch {
      // A value that does not parse falls back to its default.
    }
  }
  const merged = settingsSchema.safeParse({ ...defaults, ...saved });
  return merged.success ? merged.data : defaults;
}

/** The parts of the services the settings need: the cache is emptied by every change. */
export type SettingsServices = { database: Database; settingsCache: SettingsCache; config: { siteName: string; adminEmails: string[] } };

export async function saveSettings({ database, settingsCache }: Pick<SettingsServices, 'database' | 'settingsCache'>, settings: Settings, actorEmail: string): Promise<void> {
  const now = new Date().toISOString();
  await database.db.transaction().execute(async (trx) => {
    for (const [key, value] of Object.entries(settings)) {
      await trx
        .insertInto('settings')
        .values({ key, value: JSON.stringify(value), updated_by: actorEmail, updated_at: now })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: JSON.stringify(value), updated_by: actorEmail, updated_at: now }))
        .execute();
    }
  });
  settingsCache.clear();
}

/** 'Reset to Default': forget every saved value. */
export async function resetSettings({ database, settingsCache }: Pick<SettingsServices, 'database' | 'settingsCache'>): Promise<void> {
  await database.db.deleteFrom('settings').execute();
  settingsCache.clear();
}

/**
 * Every request reads the settings (maintenance mode, site name, items per page), so they are
 * kept for a few seconds per instance (`SETTINGS_CACHE_SECONDS`, 2 by default, 0 in test mode);
 * saving through this instance replaces them at once, and other instances follow within that time.
 * One cache per server, made at start (server/http/server-entry.ts) and handed in as a service.
 */
export type SettingsCache = {
  /** The kept settings while fresh, otherwise `load()`'s (kept for the lifetime unless it fails). */
  read(load: () => Promise<Settings>): Promise<Settings>;
  clear(): void;
};

export function createSettingsCache(options: { ttlMs: number; clock: Clock }): SettingsCache {
  let kept: { settings: Promise<Settings>; expires: number } | null = null;
  return {
    read(load) {
      const now = options.clock.now();
      if (kept && kept.expires > now) return kept.settings;
      const settings = load();
      if (options.ttlMs <= 0) return settings;
      const entry = { settings, expires: now + options.ttlMs };
      kept = entry;
      // A failed read is not kept.
      settings.catch(() => {
        if (kept === entry) kept = null;
      });
      return settings;
    },
    clear() {
      kept = null;
    },
  };
}

/** The settings in force, with the configuration's values as defaults. */
export function settingsFor({ database, config, settingsCache }: SettingsServices): Promise<Settings> {
  return settingsCache.read(() => getSettings(database, defaultSettings({ siteName: config.siteName, adminEmail: config.adminEmails[0] ?? '' })));
}
