import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ITEMS_PER_PAGE_OPTIONS } from '../../app/lib/admin-pages.ts';
import { SELL_MARGIN_PERCENT } from '../../app/lib/schemas/sell-estimate.ts';
import { DEFAULT_TEST_DRIVE_RULES } from '../../app/lib/test-drives.ts';
import { isPinCode, pinCodeMessages } from '../../app/lib/pin-code.ts';
import { DEFAULT_SERVICE_AREAS, LOCALITY_MAX, MAX_SERVICE_AREAS } from '../../app/lib/service-areas.ts';
import { DEFAULT_FINANCE_TERMS, FINANCE_SETTING_LIMITS, TENURE_OPTIONS, type FinanceTerms } from '../../app/features/emi/emi.ts';
import { DEFAULT_PRICE_INCLUDES, DEFAULT_STOREFRONT_PROMISE, DEFAULT_TRUST_POINTS, MAX_PRICE_INCLUDES_LENGTH, MAX_PROMISE_LENGTH, MAX_TRUST_POINT_LENGTH, MAX_TRUST_POINTS } from '../../app/lib/storefront.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { adminSettingsText as t } from '../../app/lib/i18n/adminSettings.ts';
import type { TextValues } from '../../app/lib/i18n/texts.ts';

/** The admin Settings screen's values (SPEC 2, Admin settings), saved on the server and in effect. */
/**
 * A validation message, read when a value is refused: in the language of the request being
 * answered (the schema itself is made once, at start).
 */
function say(key: Parameters<typeof t>[0], values?: TextValues) {
  return { error: () => t(key, values) };
}

export const settingsSchema = z.object({
  siteName: z.string().trim().min(1, say('siteNameRequired')).max(60, say('siteNameTooLong')),
  adminEmail: z.union([z.literal(''), z.email(say('adminEmailInvalid'))]),
  itemsPerPage: z.coerce.number().refine((value) => (ITEMS_PER_PAGE_OPTIONS as readonly number[]).includes(value), say('itemsPerPageChoice')),
  emailNotifications: z.boolean(),
  maintenanceMode: z.boolean(),
  // Test drives (server/test-drives/, decision 025): when buyers can book one and how many run
  // at once. Slots are one hour on the hour, so the opening hours are whole hours (India time).
  // `serviceAreas` are where the team drives to, a locality and its PIN code each (decision 097):
  // home test drives, home inspections and rental delivery.
  testDriveOpeningHour: z.coerce.number().int(say('openingHourWhole')).min(0, say('openingHourRange')).max(23, say('openingHourRange')),
  testDriveClosingHour: z.coerce.number().int(say('closingHourWhole')).min(1, say('closingHourRange')).max(24, say('closingHourRange')),
  testDriveCapacity: z.coerce.number().int(say('testDrivesAtOnceWhole')).min(1, say('testDrivesAtOnceRange')).max(20, say('testDrivesAtOnceRange')),
  testDriveLeadHours: z.coerce.number().int(say('noticeWhole')).min(0, say('noticeRange')).max(72, say('noticeRange')),
  testDriveDaysAhead: z.coerce.number().int(say('daysAheadWhole')).min(0, say('daysAheadRange')).max(30, say('daysAheadRange')),
  serviceAreas: z
    .array(
      z.object({
        locality: z.string().trim().min(1).max(LOCALITY_MAX),
        pinCode: z.string().refine(isPinCode, { error: () => pinCodeMessages.invalid }),
      }),
    )
    .max(MAX_SERVICE_AREAS, say('areasMax', { max: MAX_SERVICE_AREAS }))
    .refine((areas) => new Set(areas.map((area) => area.pinCode)).size === areas.length, say('areasOnePerPin')),
  // EMI assumptions: every "EMI from" figure on cards, vehicle pages and compare uses these
  // (app/features/emi/emi.ts). Rate in percent a year, tenure in months, the financed share in percent.
  emiRatePercent: z.coerce
    .number(say('rateNumber'))
    .min(FINANCE_SETTING_LIMITS.ratePercent.min, say('rateRange', FINANCE_SETTING_LIMITS.ratePercent))
    .max(FINANCE_SETTING_LIMITS.ratePercent.max, say('rateRange', FINANCE_SETTING_LIMITS.ratePercent))
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, say('rateDecimals')),
  emiTenureMonths: z.coerce.number().refine((value) => (TENURE_OPTIONS as readonly number[]).includes(value), say('tenureChoice', { options: TENURE_OPTIONS.join(', ') })),
  emiFinancedPercent: z.coerce
    .number(say('financedNumber'))
    .int(say('financedWhole'))
    .min(FINANCE_SETTING_LIMITS.financedPercent.min, say('financedRange', FINANCE_SETTING_LIMITS.financedPercent))
    .max(FINANCE_SETTING_LIMITS.financedPercent.max, say('financedRange', FINANCE_SETTING_LIMITS.financedPercent)),
  /** The seller's estimate (decision 081): taken off the shop's prices of similar cars, for checks, repairs, warranty and profit. */
  sellEstimateMarginPercent: z.coerce
    .number(say('marginNumber'))
    .int(say('marginWhole'))
    .min(SELL_MARGIN_PERCENT.min, say('marginRange', SELL_MARGIN_PERCENT))
    .max(SELL_MARGIN_PERCENT.max, say('marginRange', SELL_MARGIN_PERCENT)),
  // Inspections of sellers' cars (decision 081): their own hours and how many run at once; the
  // notice, the days ahead and the PIN codes served are the test drives'.
  inspectionOpeningHour: z.coerce.number().int(say('openingHourWhole')).min(0, say('openingHourRange')).max(23, say('openingHourRange')),
  inspectionClosingHour: z.coerce.number().int(say('closingHourWhole')).min(1, say('closingHourRange')).max(24, say('closingHourRange')),
  inspectionCapacity: z.coerce.number().int(say('inspectionsAtOnceWhole')).min(1, say('inspectionsAtOnceRange')).max(20, say('inspectionsAtOnceRange')),
  // --- Self-drive rental (docs/decisions/020): hours, days and whole rupees.
  /** Hours a car rests between two bookings (cleaning, inspection); part of every hold. */
  rentalBufferHours: z.coerce.number().int().min(0, say('bufferNegative')).max(48, say('bufferMax')),
  /** Hours a pickup must be ahead of the booking. */
  rentalMinNoticeHours: z.coerce.number().int().min(0, say('minNoticeNegative')).max(168, say('minNoticeMax')),
  /** How many days ahead a car can be booked. */
  rentalHorizonDays: z.coerce.number().int().min(1, say('horizonMin')).max(365, say('horizonMax')),
  /** Hours after the return time before the late fee starts. */
  rentalGraceHours: z.coerce.number().int().min(0, say('graceNegative')).max(24, say('graceMax')),
  rentalLateFeePerHour: z.coerce.number().int().min(0, say('lateFeeNegative')).max(100_000, say('lateFeeMax')),
  /** Free cancellation until this many hours before pickup. */
  rentalFreeCancelHours: z.coerce.number().int().min(0, say('freeCancelNegative')).max(720, say('freeCancelMax')),
  /** Days of rent kept for a cancellation inside that period (before pickup). */
  rentalLateCancelKeepDays: z.coerce.number().int().min(0, say('keepDaysNegative')).max(30, say('keepDaysMax')),
  rentalDeliveryFee: z.coerce.number().int().min(0, say('deliveryFeeNegative')).max(100_000, say('deliveryFeeMax')),
  /** GST in percent on rent, damage protection and delivery (decision 066: 18% by default). */
  rentalGstPercent: z.coerce.number(say('gstNumber')).int(say('gstWhole')).min(0, say('gstNegative')).max(40, say('gstMax')),
  /** The optional damage-protection plan: its fee per started day, and the damage it caps a renter's liability at. */
  rentalProtectionPerDay: z.coerce.number().int(say('protectionWhole')).min(0, say('protectionNegative')).max(10_000, say('protectionMax')),
  rentalProtectionCap: z.coerce.number().int(say('capWhole')).min(0, say('capNegative')).max(1_000_000, say('capMax')),
  /** Working days within which a refund (a cancellation's, the deposit's) reaches the renter. */
  rentalRefundWorkingDays: z.coerce.number().int(say('refundDaysWhole')).min(1, say('refundDaysRange')).max(30, say('refundDaysRange')),
  // --- end of self-drive rental

  // Reserving a car for sale with a refundable token (server/reservations/, decision 080).
  /** The token in whole rupees, fully refunded on cancellation or expiry. */
  reservationAmount: z.coerce.number(say('reservationNumber')).int(say('reservationWhole')).min(500, say('reservationRange')).max(100_000, say('reservationRange')),
  /** How long a paid reservation holds the car. */
  reservationHoldHours: z.coerce.number(say('holdNumber')).int(say('holdWhole')).min(1, say('holdRange')).max(336, say('holdRange')),

  // Storefront: the home page's promise and trust points (app/lib/storefront.ts has the
  // defaults); the trust points are kept as text, one a line, as the admin types them.
  storefrontPromise: z.string().trim().min(1, say('promiseRequired')).max(MAX_PROMISE_LENGTH, say('promiseTooLong', { max: MAX_PROMISE_LENGTH })),
  trustPoints: z
    .string()
    .trim()
    .refine((text) => text.split(/\r?\n/).filter((line) => line.trim()).length <= MAX_TRUST_POINTS, say('trustPointsMax', { max: MAX_TRUST_POINTS }))
    .refine((text) => text.split(/\r?\n/).every((line) => line.trim().length <= MAX_TRUST_POINT_LENGTH), say('trustPointTooLong', { max: MAX_TRUST_POINT_LENGTH })),
  // Said beside the one price label everywhere (decision 062); empty says nothing.
  priceIncludes: z.string().trim().max(MAX_PRICE_INCLUDES_LENGTH, say('priceIncludesTooLong', { max: MAX_PRICE_INCLUDES_LENGTH })),
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
    sellEstimateMarginPercent: SELL_MARGIN_PERCENT.usual,
    // Inspections 10 am to 6 pm, two at once.
    inspectionOpeningHour: 10,
    inspectionClosingHour: 18,
    inspectionCapacity: 2,
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
  serviceAreas: DEFAULT_SERVICE_AREAS.map((area) => ({ ...area })),
} satisfies Partial<Settings>;

/** Self-drive rental's defaults (delivery goes to the `serviceAreas` of the test drives' block). */
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
