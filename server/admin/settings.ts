import { z } from 'zod';
import { ITEMS_PER_PAGE_OPTIONS } from '../../app/lib/admin-pages.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';

/** The admin Settings screen's values (SPEC 2, Admin settings), saved on the server and in effect. */
export const settingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Site name is required').max(60, 'Site name must be at most 60 characters'),
  adminEmail: z.union([z.literal(''), z.email('Please enter a valid admin email address')]),
  itemsPerPage: z.coerce.number().refine((value) => (ITEMS_PER_PAGE_OPTIONS as readonly number[]).includes(value), 'Items per page must be 5, 10, 25 or 50'),
  emailNotifications: z.boolean(),
  maintenanceMode: z.boolean(),
  // --- Self-drive rental (docs/decisions/020): hours, days and whole rupees.
  /** Hours a car rests between two bookings (cleaning, inspection); part of every hold. */
  rentalBufferHours: z.coerce.number().int().min(0, 'The turnaround buffer cannot be negative').max(48, 'The turnaround buffer can be at most 48 hours'),
  /** Hours a pickup must be ahead of the booking. */
  rentalMinNoticeHours: z.coerce.number().int().min(0, 'The minimum notice cannot be negative').max(168, 'The minimum notice can be at most 168 hours'),
  /** How many days ahead a car can be booked. */
  rentalHorizonDays: z.coerce.number().int().min(1, 'Bookings must be allowed at least 1 day ahead').max(365, 'Bookings can be allowed at most 365 days ahead'),
  /** Hours after the return time before the late fee starts. */
  rentalGraceHours: z.coerce.number().int().min(0, 'The grace period cannot be negative').max(24, 'The grace period can be at most 24 hours'),
  rentalLateFeePerHour: z.coerce.number().int().min(0, 'The late fee cannot be negative').max(100_000, 'The late fee can be at most ₹1,00,000 an hour'),
  /** Free cancellation until this many hours before pickup. */
  rentalFreeCancelHours: z.coerce.number().int().min(0, 'The free cancellation period cannot be negative').max(720, 'The free cancellation period can be at most 720 hours'),
  /** Days of rent kept for a cancellation inside that period (before pickup). */
  rentalLateCancelKeepDays: z.coerce.number().int().min(0, 'The days of rent kept cannot be negative').max(30, 'At most 30 days of rent can be kept'),
  rentalDeliveryFee: z.coerce.number().int().min(0, 'The delivery fee cannot be negative').max(100_000, 'The delivery fee can be at most ₹1,00,000'),
  /** Six-digit PIN codes the dealer delivers to (rental delivery, test drives at home). */
  servicePinCodes: z.array(z.string().regex(/^[1-9]\d{5}$/, 'Each PIN code must be 6 digits')).max(500, 'At most 500 PIN codes'),
  // --- end of self-drive rental
});

export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(defaults: { siteName: string; adminEmail: string }): Settings {
  return {
    siteName: defaults.siteName,
    adminEmail: defaults.adminEmail,
    itemsPerPage: 10,
    emailNotifications: true,
    maintenanceMode: false,
    ...defaultRentalSettings,
  };
}

/** Self-drive rental's defaults (the values; Mumbai PIN codes around the demo hub). */
export const defaultRentalSettings = {
  rentalBufferHours: 2,
  rentalMinNoticeHours: 3,
  rentalHorizonDays: 90,
  rentalGraceHours: 1,
  rentalLateFeePerHour: 200,
  rentalFreeCancelHours: 24,
  rentalLateCancelKeepDays: 1,
  rentalDeliveryFee: 500,
  servicePinCodes: ['400069', '400059', '400093', '400099', '400057', '400072', '400053', '400058'],
} satisfies Partial<Settings>;

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
