import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ITEMS_PER_PAGE_OPTIONS } from '../../app/lib/admin-pages.ts';
import { DEFAULT_TEST_DRIVE_RULES } from '../../app/lib/test-drives.ts';
import { isPinCode, pinCodeMessages } from '../../app/lib/pin-code.ts';
import { DEFAULT_FINANCE_TERMS, FINANCE_SETTING_LIMITS, TENURE_OPTIONS, type FinanceTerms } from '../../app/lib/emi.ts';
import { DEFAULT_PRICE_INCLUDES, DEFAULT_STOREFRONT_PROMISE, DEFAULT_TRUST_POINTS, MAX_PRICE_INCLUDES_LENGTH, MAX_PROMISE_LENGTH, MAX_TRUST_POINT_LENGTH, MAX_TRUST_POINTS } from '../../app/lib/storefront.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';

/** The admin Settings screen's values (SPEC 2, Admin settings), saved on the server and in effect. */
export const settingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Site name is required').max(60, 'Site name must be at most 60 characters'),
  adminEmail: z.union([z.literal(''), z.email('Please enter a valid admin email address')]),
  itemsPerPage: z.coerce.number().refine((value) => (ITEMS_PER_PAGE_OPTIONS as readonly number[]).includes(value), 'Items per page must be 5, 10, 25 or 50'),
  emailNotifications: z.boolean(),
  maintenanceMode: z.boolean(),
  // Test drives (server/test-drives/, decision 025): when buyers can book one and how many run
  // at once. Slots are one hour on the hour, so the opening hours are whole hours (India time).
  // `servicePinCodes` are the PIN codes the team drives to: home test drives, and rental delivery too.
  testDriveOpeningHour: z.coerce.number().int('Opening hour must be a whole hour').min(0, 'Opening hour must be between 0 and 23').max(23, 'Opening hour must be between 0 and 23'),
  testDriveClosingHour: z.coerce.number().int('Closing hour must be a whole hour').min(1, 'Closing hour must be between 1 and 24').max(24, 'Closing hour must be between 1 and 24'),
  testDriveCapacity: z.coerce.number().int('Test drives at once must be a whole number').min(1, 'Test drives at once must be between 1 and 20').max(20, 'Test drives at once must be between 1 and 20'),
  testDriveLeadHours: z.coerce.number().int('Notice must be whole hours').min(0, 'Notice must be between 0 and 72 hours').max(72, 'Notice must be between 0 and 72 hours'),
  testDriveDaysAhead: z.coerce.number().int('Days ahead must be a whole number').min(0, 'Days ahead must be between 0 and 30').max(30, 'Days ahead must be between 0 and 30'),
  servicePinCodes: z.array(z.string().refine(isPinCode, pinCodeMessages.invalid)).max(500, 'At most 500 PIN codes'),
  // EMI assumptions: every "EMI from" figure on cards, vehicle pages and compare uses these
  // (app/lib/emi.ts). Rate in percent a year, tenure in months, the financed share in percent.
  emiRatePercent: z.coerce
    .number('Interest rate must be a number')
    .min(FINANCE_SETTING_LIMITS.ratePercent.min, `Interest rate must be between ${FINANCE_SETTING_LIMITS.ratePercent.min}% and ${FINANCE_SETTING_LIMITS.ratePercent.max}%`)
    .max(FINANCE_SETTING_LIMITS.ratePercent.max, `Interest rate must be between ${FINANCE_SETTING_LIMITS.ratePercent.min}% and ${FINANCE_SETTING_LIMITS.ratePercent.max}%`)
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'Interest rate may have at most two decimals'),
  emiTenureMonths: z.coerce.number().refine((value) => (TENURE_OPTIONS as readonly number[]).includes(value), `Tenure must be ${TENURE_OPTIONS.join(', ')} months`),
  emiFinancedPercent: z.coerce
    .number('Share financed must be a number')
    .int('Share financed must be a whole percentage')
    .min(FINANCE_SETTING_LIMITS.financedPercent.min, `Share financed must be between ${FINANCE_SETTING_LIMITS.financedPercent.min}% and ${FINANCE_SETTING_LIMITS.financedPercent.max}%`)
    .max(FINANCE_SETTING_LIMITS.financedPercent.max, `Share financed must be between ${FINANCE_SETTING_LIMITS.financedPercent.min}% and ${FINANCE_SETTING_LIMITS.financedPercent.max}%`),
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
  /** GST in percent on rent, damage protection and delivery (decision 066: 18% by default). */
  rentalGstPercent: z.coerce.number('GST must be a number').int('GST must be a whole percentage').min(0, 'GST cannot be negative').max(40, 'GST can be at most 40%'),
  /** The optional damage-protection plan: its fee per started day, and the damage it caps a renter's liability at. */
  rentalProtectionPerDay: z.coerce.number().int('The protection fee must be whole rupees').min(0, 'The protection fee cannot be negative').max(10_000, 'The protection fee can be at most ₹10,000 a day'),
  rentalProtectionCap: z.coerce.number().int('The damage cap must be whole rupees').min(0, 'The damage cap cannot be negative').max(1_000_000, 'The damage cap can be at most ₹10,00,000'),
  /** Working days within which a refund (a cancellation's, the deposit's) reaches the renter. */
  rentalRefundWorkingDays: z.coerce.number().int('Refund days must be whole days').min(1, 'Refund days must be between 1 and 30').max(30, 'Refund days must be between 1 and 30'),
  // --- end of self-drive rental

  // Reserving a car for sale with a refundable token (server/reservations/, decision 080).
  /** The token in whole rupees, fully refunded on cancellation or expiry. */
  reservationAmount: z.coerce.number('The reservation amount must be a number').int('The reservation amount must be whole rupees').min(500, 'The reservation amount must be between ₹500 and ₹1,00,000').max(100_000, 'The reservation amount must be between ₹500 and ₹1,00,000'),
  /** How long a paid reservation holds the car. */
  reservationHoldHours: z.coerce.number('The hold must be a number').int('The hold must be whole hours').min(1, 'The hold must be between 1 and 336 hours').max(336, 'The hold must be between 1 and 336 hours'),

  // Storefront: the home page's promise and trust points (app/lib/storefront.ts has the
  // defaults); the trust points are kept as text, one a line, as the admin types them.
  storefrontPromise: z.string().trim().min(1, 'The promise is required').max(MAX_PROMISE_LENGTH, `The promise must be at most ${MAX_PROMISE_LENGTH} characters`),
  trustPoints: z
    .string()
    .trim()
    .refine((text) => text.split(/\r?\n/).filter((line) => line.trim()).length <= MAX_TRUST_POINTS, `At most ${MAX_TRUST_POINTS} trust points`)
    .refine((text) => text.split(/\r?\n/).every((line) => line.trim().length <= MAX_TRUST_POINT_LENGTH), `Each trust point must be at most ${MAX_TRUST_POINT_LENGTH} characters`),
  // Said beside the one price label everywhere (decision 062); empty says nothing.
  priceIncludes: z.string().trim().max(MAX_PRICE_INCLUDES_LENGTH, `What the price includes must be at most ${MAX_PRICE_INCLUDES_LENGTH} characters`),
});

export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(defaults: { siteName: string; adminEmail: string }): Settings {
  return {
    siteName: defaults.siteName,
    adminEmail: defaults.adminEmail,
    itemsPerPage: 10,
    emailNotifications: true,
    maintenanceMode: false,
    ...DEFAULT_TEST_DRIVE_SETTINGS,
    // EMI assumptions (12% a year, 60 months, 85% financed).
    emiRatePercent: DEFAULT_FINANCE_TERMS.ratePercent,
    emiTenureMonths: DEFAULT_FINANCE_TERMS.tenureMonths,
    emiFinancedPercent: DEFAULT_FINANCE_TERMS.financedPercent,
    ...defaultRentalSettings,
    ...DEFAULT_RESERVATION_SETTINGS,
    // Storefront
    storefrontPromise: DEFAULT_STOREFRONT_PROMISE,
    trustPoints: DEFAULT_TRUST_POINTS.join('\n'),
    priceIncludes: DEFAULT_PRICE_INCLUDES,
  };
}

/** The EMI assumptions in force, as the pages use them. */
export function financeTerms(settings: Settings): FinanceTerms {
  return { ratePercent: settings.emiRatePercent, tenureMonths: settings.emiTenureMonths, financedPercent: settings.emiFinancedPercent };
}

/** Test drives 10 am to 7 pm, two at once, 2 hours' notice, a week ahead; home visits around the Andheri East hub (Mumbai). */
export const DEFAULT_TEST_DRIVE_SETTINGS = {
  testDriveOpeningHour: DEFAULT_TEST_DRIVE_RULES.openingHour,
  testDriveClosingHour: DEFAULT_TEST_DRIVE_RULES.closingHour,
  testDriveCapacity: DEFAULT_TEST_DRIVE_RULES.capacity,
  testDriveLeadHours: DEFAULT_TEST_DRIVE_RULES.leadHours,
  testDriveDaysAhead: DEFAULT_TEST_DRIVE_RULES.daysAhead,
  servicePinCodes: ['400047', '400049', '400053', '400054', '400055', '400056', '400057', '400058', '400059', '400060', '400063', '400069', '400072', '400093', '400099'],
} satisfies Partial<Settings>;

/** Self-drive rental's defaults (delivery goes to the `servicePinCodes` of the test drives' block). */
export const defaultRentalSettings = {
  rentalBufferHours: 2,
  rentalMinNoticeHours: 3,
  rentalHorizonDays: 90,
  rentalGraceHours: 1,
  rentalLateFeePerHour: 200,
  rentalFreeCancelHours: 24,
  rentalLateCancelKeepDays: 1,
  rentalDeliveryFee: 500,
  // GST on renting a self-drive car: 18% is what the dealer's accountant confirms per car class (decision 066).
  rentalGstPercent: 18,
  rentalProtectionPerDay: 250,
  rentalProtectionCap: 3000,
  rentalRefundWorkingDays: 7,
} satisfies Partial<Settings>;

/** A car is reserved for ₹5,000 for 72 hours unless the admin says otherwise. */
export const DEFAULT_RESERVATION_SETTINGS = { reservationAmount: 5000, reservationHoldHours: 72 } satisfies Partial<Settings>;

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

export async function saveSettings({ database, settingsCache, clock }: Pick<SettingsServices, 'database' | 'settingsCache'> & { clock: Clock }, settings: Settings, actorEmail: string): Promise<void> {
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
