import type { Generated } from 'kysely';

/**
 * The tables as Kysely sees them, identical on SQLite and PostgreSQL. To keep one code path
 * over both dialects, timestamps are ISO-8601 text (they sort correctly as text), flags are
 * 0/1 integers and maps are JSON text; `server/db/rows.ts` turns them into app types.
 */

export interface CategoryTable {
  id: Generated<number>;
  name: string;
  slug: string;
  /** The optional image, stored like a vehicle image (see VehicleImageTable). */
  image_key: string | null;
  image_width: number | null;
  image_height: number | null;
  image_widths: string | null;
  created_at: string;
  updated_at: string;
}

export interface VehicleTable {
  id: Generated<number>;
  category_id: number;
  name: string;
  make: string;
  model: string;
  variant: string;
  year: string;
  fuel_type: string;
  transmission: string;
  /** As the dealer typed it: digits, a formatted amount, text, or empty. */
  price: string;
  /** The digits of `price` as a number, when it has any; for sorting, JSON-LD and statistics. */
  price_rupees: number | null;
  owners: string;
  registration: string;
  insurance_validity: string;
  odometer: number | null;
  fitness_fc: string;
  tyre_point: string;
  description: string;
  featured: number;
  inspection: string | null;
  refurbishment: string | null;
  financial: string | null;
  video_url: string;
  status: 'available' | 'reserved' | 'sold';
  sold_price: number | null;
  sold_at: string | null;
  /** Lower-cased make, model, name, variant, year, category and description: what search matches. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

export interface VehicleImageTable {
  id: Generated<number>;
  vehicle_id: number;
  position: number;
  /** Storage key without the width suffix: variants live at `${key}-${width}.webp`. */
  key: string;
  width: number;
  height: number;
  /** Comma-separated widths of the stored WebP variants, smallest first. */
  variant_widths: string;
  created_at: string;
}

export interface DB {
  categories: CategoryTable;
  vehicles: VehicleTable;
  vehicle_images: VehicleImageTable;
}
