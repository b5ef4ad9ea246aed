/** The vehicle as the app sees it, shared by the server (which builds it) and the pages. */

export type VehicleStatus = 'available' | 'reserved' | 'sold';

/** A stored image: WebP variants of `widths` live at /media/{key}-{width}.webp. */
export type ImageRef = { key: string; width: number; height: number; widths: number[] };
/** A vehicle's stored photo as the admin edit page lists it (server/catalog/admin-images.ts). */
export type AdminImage = ImageRef & { id: number; position: number };

export type Vehicle = {
  id: number;
  categoryId: number;
  categoryName: string;
  categorySlug: string;
  name: string;
  make: string;
  model: string;
  variant: string;
  year: string;
  fuelType: string;
  transmission: string;
  price: string;
  priceRupees: number | null;
  owners: string;
  registration: string;
  insuranceValidity: string;
  odometer: number | null;
  fitnessFC: string;
  tyrePoint: string;
  description: string;
  featured: boolean;
  inspection: Record<string, string> | null;
  refurbishment: Record<string, string | string[]> | null;
  financial: Record<string, string | boolean> | null;
  videoUrl: string;
  status: VehicleStatus;
  soldPrice: number | null;
  soldAt: string | null;
  images: ImageRef[];
  createdAt: string;
  updatedAt: string;
};

/** What a card needs: small enough to send 50 of in a page. */
export type VehicleSummary = Pick<
  Vehicle,
  'id' | 'name' | 'make' | 'model' | 'variant' | 'year' | 'fuelType' | 'transmission' | 'odometer' | 'price' | 'featured' | 'status' | 'categoryName'
> & { cover: ImageRef | null };

export type Category = { id: number; name: string; slug: string; image: ImageRef | null; vehicleCount: number };

/** Card title: make + model, else the name, else 'Unnamed Vehicle'. */
export function cardTitle(vehicle: Pick<Vehicle, 'make' | 'model' | 'name'>): string {
  const makeModel = [vehicle.make, vehicle.model].map((part) => part.trim()).filter(Boolean).join(' ');
  return makeModel || vehicle.name.trim() || 'Unnamed Vehicle';
}

/** Details title: the name, else make + model, else 'Unnamed Vehicle'. */
export function detailTitle(vehicle: Pick<Vehicle, 'make' | 'model' | 'name'>): string {
  const makeModel = [vehicle.make, vehicle.model].map((part) => part.trim()).filter(Boolean).join(' ');
  return vehicle.name.trim() || makeModel || 'Unnamed Vehicle';
}

export function imageUrl(image: Pick<ImageRef, 'key'>, width: number): string {
  return `/media/${image.key}-${width}.webp`;
}

/** The largest variant not wider than `max`, or the smallest one. */
export function imageSrc(image: ImageRef, max = 800): string {
  const fitting = image.widths.filter((width) => width <= max);
  return imageUrl(image, fitting.at(-1) ?? image.widths[0] ?? image.width);
}

export function imageSrcSet(image: ImageRef): string {
  return image.widths.map((width) => `${imageUrl(image, width)} ${width}w`).join(', ');
}
