/** The vehicle as the app sees it, shared by the server (which builds it) and the pages. */
import { browseSharedText as t } from './i18n/browseShared.ts';

/** 'draft': an inventory draft from an inspection, seen by the admins only (decision 084). */
export type VehicleStatus = 'available' | 'reserved' | 'sold' | 'draft';

/** A stored image: WebP variants of `widths` live at /media/{key}-{width}.webp. */
export type ImageRef = { key: string; width: number; height: number; widths: number[] };
/** A vehicle's stored photo as the admin edit page lists it (server/catalog/admin-images.ts). */
export type AdminImage = ImageRef & { id: number; position: number };

/**
 * The text fields an admin types for a vehicle, as the pages show them: the one list the types
 * below, the admin form (vehicle-schema.ts) and the stored columns (server/catalog/rows.ts) are
 * made from, so a new field is added here and the compiler points at each place that needs it.
 */
/**
 * The highest odometer reading any form takes, in km: a car's odometer shows six digits, and no
 * car on the road has run 10 lakh km. A seller's km, the inspection record, and the rental desk's
 * readings at handover and return all hold to it.
 */
export const MAX_ODOMETER_KM = 999_999;

export const VEHICLE_TEXT_FIELDS = [
  'name',
  'make',
  'model',
  'variant',
  'year',
  'fuelType',
  'transmission',
  'bodyType',
  'colour',
  'price',
  'owners',
  'registration',
  'insuranceValidity',
  'fitnessFC',
  'tyrePoint',
  'description',
  'videoUrl',
] as const;
export type VehicleTextField = (typeof VEHICLE_TEXT_FIELDS)[number];

/** The text fields of `source` (a vehicle, a demo car), and nothing else. */
export function vehicleText(source: Record<VehicleTextField, string>): Record<VehicleTextField, string> {
  return Object.fromEntries(VEHICLE_TEXT_FIELDS.map((field) => [field, source[field]])) as Record<VehicleTextField, string>;
}

/** The text fields a card shows (VehicleSummary). */
export const SUMMARY_TEXT_FIELDS = [
  'name',
  'make',
  'model',
  'variant',
  'year',
  'fuelType',
  'transmission',
  'bodyType',
  'price',
] as const satisfies readonly VehicleTextField[];
export type SummaryTextField = (typeof SUMMARY_TEXT_FIELDS)[number];

/** The labelled lists of a vehicle: condition report, refurbishment work and finance options. */
export type VehicleMaps = {
  inspection: Record<string, string> | null;
  refurbishment: Record<string, string | string[]> | null;
  financial: Record<string, string | boolean> | null;
};

/** The fields an admin (or the demo seed) sets on a vehicle. */
export type VehicleInput = Record<VehicleTextField, string> &
  VehicleMaps & {
    categoryId: number;
    odometer: number | null;
    featured: boolean;
  };

export type Vehicle = VehicleInput & {
  id: number;
  categoryName: string;
  categorySlug: string;
  /** The digits of `price` as a number, when it has any. */
  priceRupees: number | null;
  status: VehicleStatus;
  soldPrice: number | null;
  soldAt: string | null;
  images: ImageRef[];
  createdAt: string;
  updatedAt: string;
};

/** What a card needs: small enough to send 50 of in a page. */
export type VehicleSummary = Pick<Vehicle, 'id' | SummaryTextField | 'priceRupees' | 'odometer' | 'featured' | 'status' | 'categoryName'> & {
  cover: ImageRef | null;
};

/** vehicleCount: sale stock not sold; fleetCount: rental fleet cars (listed on /rent, not here). */
export type Category = { id: number; name: string; slug: string; image: ImageRef | null; vehicleCount: number; fleetCount: number };

/** Card title: make + model, else the name, else 'Unnamed Vehicle'. */
export function cardTitle(vehicle: Pick<Vehicle, 'make' | 'model' | 'name'>): string {
  const makeModel = [vehicle.make, vehicle.model]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
  return makeModel || vehicle.name.trim() || t('unnamedVehicle');
}

/** Details title: the name, else make + model, else 'Unnamed Vehicle'. */
export function detailTitle(vehicle: Pick<Vehicle, 'make' | 'model' | 'name'>): string {
  const makeModel = [vehicle.make, vehicle.model]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
  return vehicle.name.trim() || makeModel || t('unnamedVehicle');
}

/**
 * A variant's address: this site's `/media/…`, or the same path under `mediaBase` (a CDN or the
 * bucket, MEDIA_PUBLIC_BASE_URL; pages get it from `useMediaBase`, decision 068).
 */
export function imageUrl(image: Pick<ImageRef, 'key'>, width: number, mediaBase = ''): string {
  return `${mediaBase}/media/${image.key}-${width}.webp`;
}

/** The largest variant not wider than `max`, or the smallest one. */
export function imageSrc(image: ImageRef, max = 800, mediaBase = ''): string {
  const fitting = image.widths.filter((width) => width <= max);
  return imageUrl(image, fitting.at(-1) ?? image.widths[0] ?? image.width, mediaBase);
}

export function imageSrcSet(image: ImageRef, mediaBase = ''): string {
  return image.widths.map((width) => `${imageUrl(image, width, mediaBase)} ${width}w`).join(', ');
}

/**
 * Whether a car is offered for test drives: for sale and not sold or reserved. Rental cars
 * (the fleet's `purpose`) are not offered either, once the vehicle carries one.
 */
export function offersTestDrive(vehicle: { status: string; purpose?: string }): boolean {
  // A rental fleet car is not for sale (decision 020); pages that have no purpose at hand only show cars for sale.
  return vehicle.status === 'available' && vehicle.purpose !== 'rental';
}
