import { z } from 'zod';
import { ITEMS_PER_PAGE_OPTIONS } from '../../app/lib/admin-pages.ts';
import type { Database } from '../db/connection.ts';

/** The admin Settings screen's values (SPEC 2, Admin settings), saved on the server and in effect. */
export const settingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Site name is required').max(60, 'Site name must be at most 60 characters'),
  adminEmail: z.union([z.literal(''), z.email('Please enter a valid admin email address')]),
  itemsPerPage: z.coerce.number().refine((value) => (ITEMS_PER_PAGE_OPTIONS as readonly number[]).includes(value), 'Items per page must be 5, 10, 25 or 50'),
  emailNotifications: z.boolean(),
  maintenanceMode: z.boolean(),
});

export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(defaults: { siteName: string; adminEmail: string }): Settings {
  return { siteName: defaults.siteName, adminEmail: defaults.adminEmail, itemsPerPage: 10, emailNotifications: true, maintenanceMode: false };
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

export async function saveSettings(database: Database, settings: Settings, actorEmail: string): Promise<void> {
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
  settingsCache.delete(database);
}

/** 'Reset to Default': forget every saved value. */
export async function resetSettings(database: Database): Promise<void> {
  await database.db.deleteFrom('settings').execute();
  settingsCache.delete(database);
}

/**
 * Every request reads the settings (maintenance mode, site name, items per page), so they are
 * kept for a few seconds per instance (`SETTINGS_CACHE_SECONDS`, 2 by default, 0 in test mode);
 * saving through this instance replaces them at once, and other instances follow within that time.
 */
const DEFAULT_SETTINGS_CACHE_SECONDS = 2;
const settingsCache = new WeakMap<Database, { settings: Promise<Settings>; expires: number }>();

/** The settings in force, with the configuration's values as defaults. */
export function settingsFor(database: Database, config: { siteName: string; adminEmails: string[]; settingsCacheSeconds?: number }): Promise<Settings> {
  const cached = settingsCache.get(database);
  if (cached && cached.expires > Date.now()) return cached.settings;
  const settings = getSettings(database, defaultSettings({ siteName: config.siteName, adminEmail: config.adminEmails[0] ?? '' }));
  const ttlMs = (config.settingsCacheSeconds ?? DEFAULT_SETTINGS_CACHE_SECONDS) * 1000;
  if (ttlMs <= 0) return settings;
  settingsCache.set(database, { settings, expires: Date.now() + ttlMs });
  // A failed read is not kept.
  settings.catch(() => settingsCache.delete(database));
  return settings;
}
