import { z } from 'zod';
import { browseVehicleRulesText as t } from './i18n/browseVehicleRules.ts';
import { liveTexts } from './i18n/texts.ts';
import { cleanLine, cleanText, parseId } from './input.ts';
import { BODY_TYPES, COLOURS, type BodyType, type Colour } from './listing-filters/options.ts';
import { VEHICLE_TEXT_FIELDS, vehicleText, type Vehicle, type VehicleMaps, type VehicleStatus } from './vehicle.ts';

/**
 * The admin vehicle form's fields, choices and rules, shared by the page (what it offers) and
 * the server (which checks everything again). Values travel as the strings a form sends.
 */

/** SPEC 9 lists five on the add screen and four on the edit screen; both offer all five (decision 007). */
export const FUEL_TYPES = ['Petrol', 'Diesel', 'Electric', 'Hybrid', 'CNG'] as const;
export const TRANSMISSIONS = ['Manual', 'Automatic'] as const;
export const VEHICLE_STATUSES = ['available', 'reserved', 'sold', 'draft'] as const satisfies readonly VehicleStatus[];
/** Each status's label, read in the language of the moment it is read (getters, so callers index it as before). */
export const STATUS_LABELS: Readonly<Record<VehicleStatus, string>> = liveTexts(t, {
  available: 'status_available',
  reserved: 'status_reserved',
  sold: 'status_sold',
  draft: 'status_draft',
});
/** Suggestions for the condition report's status column; any text is allowed. */
export const INSPECTION_STATUSES = ['Excellent', 'Good', 'Fair', 'Replaced', 'New', 'Needs Attention'] as const;
export const FINANCE_AVAILABLE = 'Available';
export const FINANCE_NOT_AVAILABLE = 'Not Available';
export const MAX_MAP_ROWS = 40;
/** A vehicle shows at most this many photos (SPEC 5 and 9); the upload control hides at 10. */
export const MAX_VEHICLE_IMAGES = 10;
/** Longest inventory search, as on the public listing (server/catalog/search.ts). */
export const MAX_ADMIN_SEARCH = 100;

/**
 * The vehicle form's messages. Each is read when it is used, in the language of the page or
 * request of that moment (getters, so `vehicleMessages.notFound` reads as before).
 */
export const vehicleMessages = Object.assign(
  liveTexts(t, [
    'categoryRequired',
    'nameRequired',
    'priceRequired',
    'added',
    'addFailed',
    'updated',
    'updateFailed',
    'notFound',
    'loadFailed',
    'listLoadFailed',
    'missingInfo',
    'removeImageFailed',
    'uploadFailed',
  ]),
  {
    deleted: (name: string) => t('deleted', { name }),
    deleteFailed: (message: string) => t('deleteFailed', { message }),
    confirmDelete: (name: string) => t('confirmDelete', { name }),
  },
);

export type MapRow = { key: string; value: string };
export type MapName = keyof VehicleMaps;

/** The form's text inputs: the vehicle's text fields and those typed as text but stored otherwise. */
const FORM_TEXT_FIELDS = [...VEHICLE_TEXT_FIELDS, 'categoryId', 'odometer', 'soldPrice', 'soldAt'] as const;
export type FormTextField = (typeof FORM_TEXT_FIELDS)[number];

/** What the form shows: strings as typed, so a refused form comes back exactly as sent. */
export type VehicleFormValues = Record<FormTextField, string> &
  Record<MapName, MapRow[]> & {
    featured: boolean;
    status: VehicleStatus;
  };

/** Every text input, each with the value `valueOf` gives it. */
function formText(valueOf: (field: FormTextField) => string): Record<FormTextField, string> {
  return Object.fromEntries(FORM_TEXT_FIELDS.map((field) => [field, valueOf(field)])) as Record<FormTextField, string>;
}

export type VehicleFieldErrors = Partial<Record<keyof VehicleFormValues, string>>;

/** The edit form's defaults (SPEC 9): Petrol and Manual. */
export function emptyVehicleValues(): VehicleFormValues {
  return {
    ...formText(() => ''),
    fuelType: 'Petrol',
    transmission: 'Manual',
    featured: false,
    inspection: [],
    refurbishment: [],
    financial: [],
    status: 'available',
  };
}

export function valuesFromVehicle(vehicle: Vehicle): VehicleFormValues {
  return {
    ...vehicleText(vehicle),
    categoryId: String(vehicle.categoryId),
    // The edit form's defaults (SPEC 9) stand in for a value never set.
    fuelType: vehicle.fuelType || 'Petrol',
    transmission: vehicle.transmission || 'Manual',
    odometer: vehicle.odometer === null ? '' : String(vehicle.odometer),
    featured: vehicle.featured,
    inspection: Object.entries(vehicle.inspection ?? {}).map(([key, value]) => ({ key, value })),
    refurbishment: Object.entries(vehicle.refurbishment ?? {}).map(([key, value]) => ({ key, value: Array.isArray(value) ? value.join('\n') : value })),
    financial: Object.entries(vehicle.financial ?? {}).map(([key, value]) => ({
      key,
      value: typeof value === 'boolean' ? (value ? FINANCE_AVAILABLE : FINANCE_NOT_AVAILABLE) : value,
    })),
    status: vehicle.status,
    soldPrice: vehicle.soldPrice === null ? '' : String(vehicle.soldPrice),
    soldAt: vehicle.soldAt ? vehicle.soldAt.slice(0, 10) : '',
  };
}

/** Every field through the one cleaner: the description keeps its lines, the rest are one line. */
function text(form: FormData, name: string): string {
  return cleanText(form.get(name), { multiline: name === 'description' });
}

function rows(form: FormData, name: MapName): MapRow[] {
  const keys = form.getAll(`${name}.key`);
  const values = form.getAll(`${name}.value`);
  return keys.slice(0, MAX_MAP_ROWS * 2).map((key, index) => {
    const value = values[index];
    // A value may be a textarea whose lines are list entries (key-value-editor 'lines').
    return { key: cleanLine(key), value: cleanText(value, { multiline: true }) };
  });
}

/** The form's fields as sent. Map rows come as parallel `{map}.key` / `{map}.value` fields. */
export function valuesFromForm(form: FormData): VehicleFormValues {
  const status = text(form, 'status');
  return {
    ...formText((field) => text(form, field)),
    featured: form.get('featured') !== null && form.get('featured') !== 'false',
    inspection: rows(form, 'inspection'),
    refurbishment: rows(form, 'refurbishment'),
    financial: rows(form, 'financial'),
    status: (VEHICLE_STATUSES as readonly string[]).includes(status) ? (status as VehicleStatus) : 'available',
  };
}

type FieldName = 'name' | 'price' | 'make' | 'model' | 'year' | 'variant' | 'owners' | 'registration' | 'fitnessFC' | 'tyrePoint' | 'description';
/** Messages are functions, so the schema (made once) speaks the language of each check. */
const short = (field: FieldName, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => t('tooLong', { label: t(`field_${field}`), max }) });
const isoDate = /^\d{4}-\d{2}-\d{2}$/;
function validDate(value: string): boolean {
  if (!isoDate.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A rule for every input but the maps: a new text field fails to compile until it has one. */
const scalarSchema = z.object({
  name: short('name', 120).min(1, { error: () => vehicleMessages.nameRequired }),
  categoryId: z
    .string()
    .transform((value) => parseId(value))
    .refine((value): value is number => value !== null, { error: () => vehicleMessages.categoryRequired }),
  price: short('price', 40).min(1, { error: () => vehicleMessages.priceRequired }),
  make: short('make', 60),
  model: short('model', 60),
  year: short('year', 20),
  variant: short('variant', 60),
  fuelType: z.union([z.enum(FUEL_TYPES), z.literal('')], { error: () => t('chooseFuel') }),
  transmission: z.union([z.enum(TRANSMISSIONS), z.literal('')], { error: () => t('chooseTransmission') }),
  bodyType: z.union([z.enum(Object.keys(BODY_TYPES) as [BodyType, ...BodyType[]]), z.literal('')], { error: () => t('chooseBody') }),
  colour: z.union([z.enum(Object.keys(COLOURS) as [Colour, ...Colour[]]), z.literal('')], { error: () => t('chooseColour') }),
  owners: short('owners', 40),
  registration: short('registration', 40),
  insuranceValidity: z
    .string()
    .trim()
    .refine((value) => value === '' || validDate(value), { error: () => t('insuranceDate') }),
  odometer: z
    .string()
    .trim()
    .refine((value) => value === '' || (/^\d{1,8}$/.test(value) && Number(value) <= 10_000_000), { error: () => t('odometer') })
    .transform((value) => (value === '' ? null : Number(value))),
  fitnessFC: short('fitnessFC', 80),
  tyrePoint: short('tyrePoint', 80),
  description: short('description', 5000),
  videoUrl: z
    .string()
    .trim()
    .max(500, { error: () => t('videoTooLong') })
    .refine(
      (value) => {
        if (value === '') return true;
        try {
          const url = new URL(value);
          return url.protocol === 'https:' || url.protocol === 'http:';
        } catch {
          return false;
        }
      },
      { error: () => t('videoUrl') },
    ),
  featured: z.boolean(),
  status: z.enum(VEHICLE_STATUSES),
  soldPrice: z.string().trim(),
  soldAt: z.string().trim(),
} satisfies Record<FormTextField | 'featured' | 'status', z.ZodType>);

function parseMap<T>(name: MapName, list: MapRow[], convert: (value: string) => T): { map: Record<string, T> | null; error?: string } {
  const map: Record<string, T> = {};
  const seen = new Set<string>();
  const item = t(`map_${name}`);
  for (const row of list) {
    const key = row.key.replace(/\s+/g, ' ').trim();
    const value = row.value.trim();
    // A row whose label is cleared is a row removed (that is how the form works without script).
    if (!key) {
      if (value) return { map: null, error: t('nameEach', { item }) };
      continue;
    }
    if (key.length > 80) return { map: null, error: t('nameTooLong', { start: key.slice(0, 20) }) };
    if (value.length > 2000) return { map: null, error: t('valueTooLong', { key }) };
    if (seen.has(key.toLowerCase())) return { map: null, error: t('appearsTwice', { key, item }) };
    seen.add(key.toLowerCase());
    map[key] = convert(value);
  }
  if (seen.size > MAX_MAP_ROWS) return { map: null, error: t('tooManyRows', { max: MAX_MAP_ROWS }) };
  return { map: seen.size > 0 ? map : null };
}

/** One entry per line: several lines become a list, one line stays text. */
export function refurbishmentValue(value: string): string | string[] {
  const lines = value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length > 1 ? lines : (lines[0] ?? '');
}

/** 'Available' / 'Not Available' are the yes/no of a finance option; anything else is its text. */
export function financialValue(value: string): string | boolean {
  const lower = value.trim().toLowerCase();
  if (lower === FINANCE_AVAILABLE.toLowerCase()) return true;
  if (lower === FINANCE_NOT_AVAILABLE.toLowerCase()) return false;
  return value.trim();
}

export type ParsedVehicle = Omit<z.output<typeof scalarSchema>, 'soldPrice' | 'soldAt'> &
  VehicleMaps & {
    soldPrice: number | null;
    soldAt: string | null;
  };

export type VehicleParseResult = { ok: true; vehicle: ParsedVehicle } | { ok: false; errors: VehicleFieldErrors; message: string };

/** Checks the form the way the server must; the first problem is also the toast's text. */
export function parseVehicleValues(values: VehicleFormValues): VehicleParseResult {
  const errors: VehicleFieldErrors = {};
  const scalar = scalarSchema.safeParse(values);
  if (!scalar.success) {
    for (const issue of scalar.error.issues) {
      const field = issue.path[0] as keyof VehicleFormValues | undefined;
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  const inspection = parseMap('inspection', values.inspection, (value) => value);
  const refurbishment = parseMap('refurbishment', values.refurbishment, refurbishmentValue);
  const financial = parseMap('financial', values.financial, financialValue);
  if (inspection.error) errors.inspection = inspection.error;
  if (refurbishment.error) errors.refurbishment = refurbishment.error;
  if (financial.error) errors.financial = financial.error;

  let soldPrice: number | null = null;
  let soldAt: string | null = null;
  if (values.status === 'sold') {
    const digits = values.soldPrice.replace(/[₹,\s]/g, '');
    if (!/^\d{1,12}$/.test(digits) || Number(digits) <= 0) errors.soldPrice = t('soldPrice');
    else soldPrice = Number(digits);
    if (!validDate(values.soldAt.trim())) errors.soldAt = t('soldAt');
    else if (values.soldAt.trim() > new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)) errors.soldAt = t('soldInFuture');
    else soldAt = values.soldAt.trim();
  }

  const first = Object.values(errors)[0];
  if (first || !scalar.success) return { ok: false, errors, message: first ?? t('checkForm') };
  return {
    ok: true,
    vehicle: {
      ...scalar.data,
      inspection: inspection.map,
      refurbishment: refurbishment.map,
      financial: financial.map,
      soldPrice,
      soldAt,
    },
  };
}
