/**
 * The synthetic inventory of the benchmarks (bench/search.ts, bench/scale.ts): the demo
 * vehicles as templates with other variants, years, prices, cities and description sentences.
 */
import type { Insertable } from 'kysely';
import { priceDigits } from '../../app/lib/format.ts';
import { colourIn } from '../../server/catalog/dealer-text.ts';
import { filterColumns } from '../../server/catalog/filters.ts';
import { buildSearchText } from '../../server/catalog/search.ts';
import type { Database } from '../../server/db/connection.ts';
import { demoFitnessCertificate, demoVehicles, type DemoVehicle } from '../../server/db/demo/inventory.ts';
import type { VehicleImageTable, VehicleTable } from '../../server/db/schema.ts';
import type { random } from './common.ts';

const VARIANTS = [
  'LXi',
  'VXi',
  'ZXi',
  'ZXi+',
  'Sigma',
  'Delta',
  'Zeta',
  'Alpha',
  'E',
  'S',
  'SX',
  'SX(O)',
  'Asta',
  'Sportz',
  'Magna',
  'XE',
  'XM',
  'XZ+',
  'HTK',
  'HTX',
  'GTX+',
  'AX5',
  'AX7 L',
  'ZX CVT',
  'VX',
  'V',
  'G',
  'GX',
  'Highline',
  'Topline',
  'Style',
  'Technology',
  'Premium Plus',
  'M Sport',
];
const REGISTRATIONS = [
  'MH-02',
  'MH-04',
  'MH-12',
  'MH-14',
  'KA-01',
  'KA-05',
  'KA-51',
  'DL-3C',
  'DL-8C',
  'HR-26',
  'UP-16',
  'TN-09',
  'TN-22',
  'TS-08',
  'AP-39',
  'GJ-01',
  'GJ-05',
  'RJ-14',
  'WB-02',
  'KL-07',
  'PB-10',
  'MP-09',
];
const OWNERS = ['1st Owner', '1st Owner', '1st Owner', '2nd Owner', '2nd Owner', '3rd Owner'];
const CITIES = [
  'Mumbai',
  'Pune',
  'Bengaluru',
  'Delhi',
  'Gurugram',
  'Noida',
  'Chennai',
  'Hyderabad',
  'Ahmedabad',
  'Jaipur',
  'Kolkata',
  'Kochi',
  'Chandigarh',
  'Indore',
  'Lucknow',
  'Nagpur',
];
const COLOURS = ['pearl white', 'silver', 'grey', 'red', 'blue', 'black', 'brown', 'orange', 'beige', 'green'];
const SENTENCES = [
  (city: string) => `${city}-registered car with complete service records.`,
  (city: string) => `Driven mostly in ${city}, never taken on long trips.`,
  () => 'Accident-free, no flood history, all original papers available.',
  () => 'New battery and fresh set of tyres fitted last month.',
  () => 'Both keys, owner manual and original invoice available.',
  () => 'Touchscreen infotainment with Android Auto and Apple CarPlay.',
  () => 'Sunroof, cruise control and rear parking camera working perfectly.',
  () => 'Minor scratches on the rear bumper, otherwise very clean.',
  () => 'Insurance transferable; we arrange RC transfer at delivery.',
  () => 'Extended warranty valid for one more year.',
  () => 'Company-fitted CNG kit, cylinder hydro-tested.',
  () => 'Seven-seater, ideal for family trips and airport runs.',
  () => 'Easy finance with low down payment and EMI options.',
  (_city: string, colour: string) => `Finished in ${colour}, interiors professionally cleaned.`,
  () => 'Clutch overhauled and suspension bushes replaced at the last service.',
  () => 'Every service done at the authorised workshop on time.',
];

/** A classic that almost nobody stocks: the "rare word" of the query mix. */
const RARE: DemoVehicle = {
  ...demoVehicles.find((vehicle) => vehicle.category === 'Sedans')!,
  make: 'Hindustan Motors',
  model: 'Ambassador',
  name: 'Hindustan Motors Ambassador Grand',
  variant: 'Grand 1.8 ISZ',
  year: '2012',
  description: 'The last of the classic Ambassadors, restored with new upholstery and a rebuilt engine.',
};

function indianPrice(rupees: number): string {
  const digits = String(rupees);
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest},${last3}`;
}

export type Generator = ReturnType<typeof random>;

function makeVehicle(rng: Generator, id: number, categoryIds: Map<string, number>): Insertable<VehicleTable> {
  // Roughly one vehicle in 2,000 is the rare classic (and at least one in every inventory).
  const template = id === 7 || rng.chance(0.0005) ? RARE : rng.pick(demoVehicles);
  const year = String(Math.min(2025, Math.max(2010, Number(template.year) + rng.int(-5, 3))));
  const variant = rng.chance(0.5) ? template.variant : rng.pick(VARIANTS);
  const name = rng.chance(0.3) ? '' : `${template.make} ${template.model} ${variant}`;
  const basePrice = priceDigits(template.price) ?? 500_000;
  const rupees = Math.round((basePrice * (0.7 + rng.next() * 0.6) * (1 + (Number(year) - Number(template.year)) * 0.06)) / 1000) * 1000;
  const price = rng.chance(0.5) ? indianPrice(rupees) : String(rupees);
  const city = rng.pick(CITIES);
  const colour = rng.pick(COLOURS);
  const sentences = Array.from({ length: rng.int(1, 3) }, () => rng.pick(SENTENCES)(city, colour));
  const description = [rng.chance(0.6) ? template.description : '', ...sentences].filter(Boolean).join(' ');
  const categoryName = template.category;
  const categoryId = categoryIds.get(categoryName)!;
  const roll = rng.next();
  const status = roll < 0.1 ? 'sold' : roll < 0.12 ? 'reserved' : 'available';
  const created = new Date(Date.UTC(2023, 0, 1) + id * 13 * 60_000 + rng.int(0, 600_000)).toISOString();
  const transmission = rng.chance(0.15) ? (template.transmission === 'Manual' ? 'Automatic' : 'Manual') : template.transmission;
  const owners = rng.pick(OWNERS);
  const registration = rng.pick(REGISTRATIONS);
  const searched = {
    make: template.make,
    model: template.model,
    name,
    variant,
    year,
    fuelType: template.fuelType,
    transmission,
    bodyType: template.bodyType,
    registration,
    categoryName,
    description,
  };
  return {
    id,
    category_id: categoryId,
    name,
    make: template.make,
    model: template.model,
    variant,
    year,
    fuel_type: template.fuelType,
    transmission,
    body_type: template.bodyType,
    colour: colourIn(colour),
    price,
    price_rupees: rupees,
    owners,
    registration,
    insurance_validity: `202${rng.int(5, 7)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    odometer: rng.chance(0.03) ? null : rng.int(3, 150) * 1000,
    fitness_fc: demoFitnessCertificate(template, created.slice(0, 10)),
    tyre_point: rng.chance(0.5) ? `${rng.int(5, 9) * 10}%` : '',
    description,
    featured: rng.chance(0.04) ? 1 : 0,
    inspection: template.inspection ? JSON.stringify(template.inspection) : null,
    refurbishment: template.refurbishment ? JSON.stringify(template.refurbishment) : null,
    financial: template.financial ? JSON.stringify(template.financial) : null,
    video_url: '',
    status,
    sold_price: status === 'sold' ? rupees : null,
    sold_at: status === 'sold' ? created : null,
    search_text: buildSearchText(searched),
    ...filterColumns({ ...searched, owners }),
    created_at: created,
    updated_at: created,
  };
}

/** Adds vehicles (and 1-5 image rows each) until there are `target`, in batched multi-row inserts. */
export async function fill(database: Database, rng: Generator, categoryIds: Map<string, number>, from: number, target: number) {
  const VEHICLE_BATCH = 500; // ~32 columns: 16k parameters, within SQLite's and PostgreSQL's limits
  const CHUNK = 5000; // vehicles per transaction
  for (let start = from + 1; start <= target; start += CHUNK) {
    const end = Math.min(target, start + CHUNK - 1);
    await database.db.transaction().execute(async (trx) => {
      for (let batchStart = start; batchStart <= end; batchStart += VEHICLE_BATCH) {
        const vehicles: Insertable<VehicleTable>[] = [];
        const images: Insertable<VehicleImageTable>[] = [];
        for (let id = batchStart; id <= Math.min(end, batchStart + VEHICLE_BATCH - 1); id++) {
          const vehicle = makeVehicle(rng, id, categoryIds);
          vehicles.push(vehicle);
          const count = rng.int(1, 5);
          for (let position = 0; position < count; position++) {
            images.push({
              vehicle_id: id,
              position,
              key: `vehicles/bench/${id}-${position}`,
              width: 1200,
              height: 900,
              variant_widths: '400,800,1200',
              created_at: vehicle.created_at,
            });
          }
        }
        await trx.insertInto('vehicles').values(vehicles).execute();
        for (let index = 0; index < images.length; index += 2000) {
          await trx
            .insertInto('vehicle_images')
            .values(images.slice(index, index + 2000))
            .execute();
        }
      }
    });
  }
}
