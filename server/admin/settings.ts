import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ITEMS_PER_PAGE_OPTIONS } from '../../app/features/admin/admin-pages.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { catalogSettings } from '../catalog/settings.ts';
import { sellerSettings } from '../leads/settings.ts';
import { rentalSettings } from '../rentals/settings.ts';
import { reservationSettings } from '../reservations/settings.ts';
import { salesSettings } from '../sales/settings.ts';
import { testDriveSettings } from '../test-drives/settings.ts';
import { assembleSettings, declareSettings, say, type SettingText } from '../settings/declarations.ts';
import { canonicalPhone } from '../phone.ts';
import { adminSettingsText } from '../../app/features/admin/admin-settings-texts.ts';

const MAX_TEAM_NUMBERS = 5;

/** Up to five Indian mobiles separated by commas, kept canonical ('+919876543210, +919812345678'). */
function teamNumbersSchema() {
  return z
    .string()
    .max(200, say('whatsappTeamNumbersInvalid'))
    .transform((typed, context) => {
      const parts = typed
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const numbers = parts.map((part) => canonicalPhone(part));
      if (parts.length > MAX_TEAM_NUMBERS || numbers.some((number) => !number.ok)) {
        context.issues.push({ code: 'custom', message: adminSettingsText('whatsappTeamNumbersInvalid'), input: typed });
        return z.NEVER;
      }
      return [...new Set(numbers.map((number) => (number.ok ? number.phone : '')))].join(', ');
    });
}

/** The team's WhatsApp numbers, one per item. */
export function teamNumbers(settings: Pick<Settings, 'whatsappTeamNumbers'>): string[] {
  return settings.whatsappTeamNumbers
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The admin Settings screen's values (SPEC 2, Admin settings), saved on the server and in effect.
 * Each domain declares its own (decision 109); the site-wide ones are the admin's own, below.
 */
export const siteSettings = declareSettings('admin', {
  // The name and the mail address default to the configuration's (defaultSettings).
  siteName: { schema: z.string().trim().min(1, say('siteNameRequired')).max(60, say('siteNameTooLong')), default: '', label: 'siteNameLabel' },
  adminEmail: { schema: z.union([z.literal(''), z.email(say('adminEmailInvalid'))]), default: '', label: 'adminEmailLabel' },
  itemsPerPage: {
    schema: z.coerce.number().refine((value) => (ITEMS_PER_PAGE_OPTIONS as readonly number[]).includes(value), say('itemsPerPageChoice')),
    default: 10,
    label: 'itemsPerPageLabel',
  },
  emailNotifications: { schema: z.boolean(), default: true, label: 'emailNotificationsLabel' },
  // Where the desk is told on WhatsApp of new leads, bookings and cancellations (decision 123).
  whatsappTeamNumbers: { schema: teamNumbersSchema(), default: '', label: 'whatsappTeamNumbersLabel' },
  maintenanceMode: { schema: z.boolean(), default: false, label: 'maintenanceModeLabel' },
});

/** Every domain's settings, in the order the admin page groups them. */
export const SETTINGS_DOMAINS = [siteSettings, catalogSettings, sellerSettings, rentalSettings, reservationSettings, salesSettings, testDriveSettings] as const;

const declared = assembleSettings(SETTINGS_DOMAINS);
type Declared = typeof declared;

export const settingsSchema = z.object(
  Object.fromEntries(Object.entries(declared).map(([key, declaration]) => [key, declaration.schema])) as { [Key in keyof Declared]: Declared[Key]['schema'] },
);

export type Settings = z.infer<typeof settingsSchema>;

/** Each setting's label, as a key of the admin settings texts. */
export const SETTING_LABELS = Object.fromEntries(Object.entries(declared).map(([key, declaration]) => [key, declaration.label])) as Record<
  keyof Settings,
  SettingText
>;

export function defaultSettings(defaults: { siteName: string; adminEmail: string }): Settings {
  const values = Object.fromEntries(Object.entries(declared).map(([key, declaration]) => [key, structuredClone(declaration.default)])) as Settings;
  return { ...values, siteName: defaults.siteName, adminEmail: defaults.adminEmail };
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

/**
 * One writer of the settings at a time. A reset deletes every row while a save upserts them in
 * its own order; on PostgreSQL two such transactions can each hold a row the other waits for,
 * and one of them was ended as a deadlock (a 500, issue 14). SHARE ROW EXCLUSIVE conflicts with
 * itself but not with reads, so writers queue and pages keep reading. SQLite has one writer anyway.
 */
async function lockSettings(database: Database, trx: Kysely<DB>): Promise<void> {
  if (database.dialect === 'postgres') await sql`LOCK TABLE settings IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
}

export async function saveSettings(
  { database, settingsCache, clock }: Pick<SettingsServices, 'database' | 'settingsCache'> & { clock: Clock },
  settings: Settings,
  actorEmail: string,
): Promise<void> {
  const now = new Date(clock.now()).toISOString();
  await database.db.transaction().execute(async (trx) => {
    await lockSettings(database, trx);
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
  await database.db.transaction().execute(async (trx) => {
    await lockSettings(database, trx);
    await trx.deleteFrom('settings').execute();
  });
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
