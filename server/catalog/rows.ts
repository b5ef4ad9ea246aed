import type { Selectable } from 'kysely';
import type { Category, ImageRef, Vehicle, VehicleSummary } from '../../app/lib/vehicle.ts';
import type { CategoryTable, VehicleImageTable, VehicleTable } from '../db/schema.ts';

/** Turns stored rows (0/1 flags, JSON text) into the app's types: the one place that knows both. */

export function toImageRef(row: Pick<Selectable<VehicleImageTable>, 'key' | 'width' | 'height' | 'variant_widths'>): ImageRef {
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

export function toVehicle(
  row: Selectable<VehicleTable> & { category_name: string; category_slug: string },
  images: ImageRef[],
): Vehicle {
  return {
    id: row.id,
    categoryId: row.category_id,
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    name: row.name,
    make: row.make,
    model: row.model,
    variant: row.variant,
    year: row.year,
    fuelType: row.fuel_type,
    transmission: row.transmission,
    price: row.price,
    priceRupees: row.price_rupees === null ? null : Number(row.price_rupees),
    owners: row.owners,
    registration: row.registration,
    insuranceValidity: row.insurance_validity,
    odometer: row.odometer,
    fitnessFC: row.fitness_fc,
    tyrePoint: row.tyre_point,
    description: row.description,
    featured: Boolean(row.featured),
    inspection: parseMap(row.inspection),
    refurbishment: parseMap(row.refurbishment),
    financial: parseMap(row.financial),
    videoUrl: row.video_url,
    status: row.status,
    soldPrice: row.sold_price === null ? null : Number(row.sold_price),
    soldAt: row.sold_at,
    images,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type SummaryRow = Pick<
  Selectable<VehicleTable>,
  'id' | 'name' | 'make' | 'model' | 'variant' | 'year' | 'fuel_type' | 'transmission' | 'odometer' | 'price' | 'featured' | 'status'
> & { category_name: string };

export function toSummary(row: SummaryRow, cover: ImageRef | null): VehicleSummary {
  return {
    id: row.id,
    name: row.name,
    make: row.make,
    model: row.model,
    variant: row.variant,
    year: row.year,
    fuelType: row.fuel_type,
    transmission: row.transmission,
    odometer: row.odometer,
    price: row.price,
    featured: Boolean(row.featured),
    status: row.status,
    categoryName: row.category_name,
    cover,
  };
}

export function toCategory(
  row: Pick<Selectable<CategoryTable>, 'id' | 'name' | 'slug' | 'image_key' | 'image_width' | 'image_height' | 'image_widths'> & {
    vehicle_count: number | string;
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
  };
}
