import type { Selectable } from 'kysely';
import {
  SUMMARY_TEXT_FIELDS,
  VEHICLE_TEXT_FIELDS,
  type Category,
  type ImageRef,
  type Vehicle,
  type SummaryTextField,
  type VehicleSummary,
  type VehicleTextField,
} from '../../app/lib/vehicle.ts';
import type { CategoryTable, VehicleImageTable, VehicleTable } from '../db/schema.ts';

/** Turns stored rows (0/1 flags, JSON text) into the app's types: the one place that knows both. */

/** The columns that hold text. */
type StoredVehicle = Selectable<VehicleTable>;
type TextColumn = { [Column in keyof StoredVehicle]: StoredVehicle[Column] extends string ? Column : never }[keyof StoredVehicle];

/** Where each text field of a vehicle (app/lib/vehicle.ts) is stored; a new field must be given its column here. */
export const vehicleTextColumns = {
  name: 'name',
  make: 'make',
  model: 'model',
  variant: 'variant',
  year: 'year',
  fuelType: 'fuel_type',
  transmission: 'transmission',
  bodyType: 'body_type',
  colour: 'colour',
  price: 'price',
  owners: 'owners',
  registration: 'registration',
  insuranceValidity: 'insurance_validity',
  fitnessFC: 'fitness_fc',
  tyrePoint: 'tyre_point',
  description: 'description',
  videoUrl: 'video_url',
} as const satisfies Record<VehicleTextField, TextColumn>;

type StoredText<Field extends VehicleTextField> = Record<(typeof vehicleTextColumns)[Field], string>;

/** The text fields `fields` as read from their columns. */
function textFromRow<Field extends VehicleTextField>(row: StoredText<Field>, fields: readonly Field[]): Record<Field, string> {
  return Object.fromEntries(fields.map((field) => [field, row[vehicleTextColumns[field]]])) as Record<Field, string>;
}

/** The columns for every text field, as an admin typed it, trimmed. */
export function textColumns(input: Record<VehicleTextField, string>): StoredText<VehicleTextField> {
  return Object.fromEntries(VEHICLE_TEXT_FIELDS.map((field) => [vehicleTextColumns[field], input[field].trim()])) as StoredText<VehicleTextField>;
}

/** How an image is stored: vehicle photos, category images and sell offers' photos alike. */
export type StoredImage = Pick<Selectable<VehicleImageTable>, 'key' | 'width' | 'height' | 'variant_widths'>;

export function toImageRef(row: StoredImage): ImageRef {
  return {
    key: row.key,
    width: row.width,
    height: row.height,
    widths: row.variant_widths.split(',').map(Number),
  };
}

function parseMap<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) return value as T;
  } catch {
    // A map that does not parse is shown as absent rather than breaking the page.
  }
  return null;
}

export function toVehicle(row: Selectable<VehicleTable> & { category_name: string; category_slug: string }, images: ImageRef[]): Vehicle {
  return {
    id: row.id,
    categoryId: row.category_id,
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    ...textFromRow(row, VEHICLE_TEXT_FIELDS),
    priceRupees: row.price_rupees === null ? null : Number(row.price_rupees),
    odometer: row.odometer,
    featured: Boolean(row.featured),
    inspection: parseMap(row.inspection),
    refurbishment: parseMap(row.refurbishment),
    financial: parseMap(row.financial),
    status: row.status,
    soldPrice: row.sold_price === null ? null : Number(row.sold_price),
    soldAt: row.sold_at,
    images,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type SummaryRow = StoredText<SummaryTextField> &
  Pick<Selectable<VehicleTable>, 'id' | 'price_rupees' | 'odometer' | 'featured' | 'status'> & { category_name: string };

export function toSummary(row: SummaryRow, cover: ImageRef | null): VehicleSummary {
  return {
    id: row.id,
    ...textFromRow(row, SUMMARY_TEXT_FIELDS),
    priceRupees: row.price_rupees === null ? null : Number(row.price_rupees),
    odometer: row.odometer,
    featured: Boolean(row.featured),
    status: row.status,
    categoryName: row.category_name,
    cover,
  };
}

export function toCategory(
  row: Pick<Selectable<CategoryTable>, 'id' | 'name' | 'slug' | 'image_key' | 'image_width' | 'image_height' | 'image_widths'> & {
    vehicle_count: number | string;
    fleet_count?: number | string;
  },
): Category {
  const image =
    row.image_key && row.image_width && row.image_height && row.image_widths
      ? toImageRef({ key: row.image_key, width: row.image_width, height: row.image_height, variant_widths: row.image_widths })
      : null;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    image,
    vehicleCount: Number(row.vehicle_count),
    fleetCount: Number(row.fleet_count ?? 0),
  };
}
