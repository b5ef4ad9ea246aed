import { z } from 'zod';
import { paths } from '../../lib/paths.ts';
import { FUEL_TYPES, TRANSMISSIONS } from '../../lib/vehicle-schema.ts';
import { REGISTRATION_STATES } from '../../lib/listing-filters/registration.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';
import { MAX_ODOMETER_KM } from '../../lib/vehicle.ts';

/**
 * The seller's car as the sell page's first step and `POST /api/v1/sell-estimates` send it
 * (decision 081): what the estimate reads, and what is kept with the lead. Numbers come as
 * form text or JSON numbers alike.
 */

/** The settings' margin below the shop's prices (server/admin/settings.ts); usually what a dealer of used cars in India buys below its asking price. */
export const SELL_MARGIN_PERCENT = { min: 0, max: 50, usual: 12 } as const;

export const SELL_CAR_LIMITS = { make: 40, model: 60, variant: 60, minYear: 1990, maxYear: 2100, maxKm: MAX_ODOMETER_KM, maxOwners: 9 } as const;

/** Read when a value is refused, in the language of that moment. */
export const sellCarMessages = liveTexts(t, {
  make: 'sellMake',
  model: 'sellModel',
  year: ['sellYear', { min: SELL_CAR_LIMITS.minYear }],
  fuel: ['sellFuel', { fuels: FUEL_TYPES.join(', ') }],
  transmission: 'sellTransmission',
  km: 'sellKm',
  owners: 'sellOwners',
  registrationState: 'sellRegistrationState',
});

/** One line of text: trimmed, no control characters, at least one letter or digit. */
const line = (max: number, message: () => string) =>
  z
    .string({ error: message })
    .transform((text) =>
      text
        .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .refine((text) => text.length > 0 && text.length <= max && /[\p{L}\p{N}]/u.test(text), { error: message });

/** A whole number from a JSON number or form text ('45,000' reads as 45000). */
const wholeNumber = (min: number, max: number, message: () => string) =>
  z
    .union([z.number(), z.string()], { error: message })
    .transform((value) => (typeof value === 'number' ? value : /^\s*[\d,]{1,12}\s*$/.test(value) ? Number(value.replace(/[\s,]/g, '')) : Number.NaN))
    .refine((value) => Number.isInteger(value) && value >= min && value <= max, { error: message });

const STATE_CODES = Object.keys(REGISTRATION_STATES) as [string, ...string[]];

export const sellCarSchema = z.object({
  /** A make of the catalogue (decision 098) by its name, Hindi name or id, as typed ('hundai' is Hyundai), or any make when `unlisted`. */
  make: line(SELL_CAR_LIMITS.make, () => sellCarMessages.make),
  /** A model of that make, read as the make is ('cretta', 'hyundai-creta'). */
  model: line(SELL_CAR_LIMITS.model, () => sellCarMessages.model),
  /** One of the model's variants, or empty. */
  variant: z
    .string()
    .optional()
    .transform((text) =>
      (text ?? '')
        .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, SELL_CAR_LIMITS.variant),
    ),
  /** The seller's car is not in the catalogue: make, model and variant are kept as typed. */
  unlisted: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((value) => value === true || value === 'true' || value === 'on'),
  year: wholeNumber(SELL_CAR_LIMITS.minYear, SELL_CAR_LIMITS.maxYear, () => sellCarMessages.year),
  fuel: z.enum(FUEL_TYPES, { error: () => sellCarMessages.fuel }),
  transmission: z.enum(TRANSMISSIONS, { error: () => sellCarMessages.transmission }),
  km: wholeNumber(0, SELL_CAR_LIMITS.maxKm, () => sellCarMessages.km),
  owners: wholeNumber(1, SELL_CAR_LIMITS.maxOwners, () => sellCarMessages.owners),
  registrationState: z
    .string({ error: () => sellCarMessages.registrationState })
    .transform((code) => code.trim().toUpperCase())
    .pipe(z.enum(STATE_CODES, { error: () => sellCarMessages.registrationState })),
});

export type SellCar = z.output<typeof sellCarSchema>;
export type SellCarField = keyof SellCar;
export const sellCarFields = [
  'make',
  'model',
  'variant',
  'unlisted',
  'year',
  'fuel',
  'transmission',
  'km',
  'owners',
  'registrationState',
] as const satisfies readonly SellCarField[];

/** The inspection booking for `car`: the car travels in the query string (sell-inspection.tsx). */
export function sellInspectionFor(car: SellCar): string {
  return `${paths.sellInspection}?${new URLSearchParams(sellCarFields.map((field) => [field, String(car[field])]))}`;
}

export type ParsedSellCar = { ok: true; car: SellCar } | { ok: false; errors: Partial<Record<SellCarField, string>> };

/**
 * The seller's car from a form or a URL (the page's estimate step is a GET form, so an
 * estimate can be shared and reloaded); `prefix` names the sell form's hidden copy of it.
 */
export function parseSellCar(source: URLSearchParams | FormData, prefix = ''): ParsedSellCar {
  const values = Object.fromEntries(sellCarFields.map((field) => [field, String(source.get(`${prefix}${field}`) ?? '').slice(0, 200)]));
  const result = sellCarSchema.safeParse(values);
  if (result.success) return { ok: true, car: result.data };
  const errors: Partial<Record<SellCarField, string>> = {};
  for (const issue of result.error.issues) errors[issue.path[0] as SellCarField] ??= issue.message;
  return { ok: false, errors };
}
