import { priceDigits } from '../../app/lib/format.ts';
import type { DemoVehicle } from '../../server/db/demo/inventory.ts';
import { searchFinds } from './search-rule.ts';

/**
 * The buyer's filters and sorts read independently of the server, on the demo inventory: what
 * a listing URL's parameters should give (decision 023). Values within a filter are ORed,
 * filters ANDed, all with the search.
 */

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const ranges = (text: string, scale: number) =>
  text.split(',').map((range) => {
    const [min, max] = range.split('-');
    return { min: min ? Number(min) * scale : -Infinity, max: max ? Number(max) * scale : Infinity };
  });
const within = (value: number | null, list: Array<{ min: number; max: number }>) =>
  value !== null && list.some((range) => value >= range.min && value < range.max);

/** Whether the car passes every filter in `params` (and the search `q`). */
export function passes(vehicle: DemoVehicle, params: URLSearchParams): boolean {
  const list = (name: string) => params.get(name)?.split(',') ?? null;
  const checks: Array<boolean | null> = [
    params.get('q') ? searchFinds(vehicle, params.get('q')!) : null,
    params.get('budget') ? within(priceDigits(vehicle.price), ranges(params.get('budget')!, 100_000)) : null,
    list('make') ? list('make')!.includes(slug(vehicle.make)) : null,
    list('model') ? list('model')!.includes(slug(vehicle.model)) : null,
    list('fuel') ? list('fuel')!.includes(vehicle.fuelType.toLowerCase()) : null,
    list('trans') ? list('trans')!.includes(vehicle.transmission.toLowerCase()) : null,
    list('body') ? list('body')!.includes(vehicle.bodyType) : null,
    params.get('year')
      ? (() => {
          const text = params.get('year')!;
          const [from, to] = text.includes('-') ? text.split('-') : [text, text];
          const year = Number(vehicle.year);
          return (!from || year >= Number(from)) && (!to || year <= Number(to));
        })()
      : null,
    params.get('km') ? within(vehicle.odometer, ranges(params.get('km')!, 1)) : null,
    list('owners')
      ? (() => {
          const owners = Number(/\d+/.exec(vehicle.owners)?.[0]);
          return list('owners')!.some((value) => (value === '3' ? owners >= 3 : owners === Number(value)));
        })()
      : null,
    list('color') ? list('color')!.includes(vehicle.colour) : null,
    list('state')
      ? list('state')!
          .map((code) => code.toUpperCase())
          .includes(vehicle.registration.slice(0, 2))
      : null,
  ];
  return checks.every((check) => check !== false);
}

/** The key a sort orders by, smaller first; cars without the value go last. */
export function sortKey(vehicle: DemoVehicle, sort: string): number {
  switch (sort) {
    case 'price_asc':
      return priceDigits(vehicle.price) ?? Infinity;
    case 'price_desc':
      return -(priceDigits(vehicle.price) ?? -Infinity);
    case 'year_desc':
      return -Number(vehicle.year);
    case 'km_asc':
      return vehicle.odometer ?? Infinity;
    default:
      throw new Error(`no sort ${sort}`);
  }
}

/** Listing URLs worth checking: each filter alone, with a search, and several together. */
export const filterQueries: string[] = [
  'budget=5-8',
  'budget=-3',
  'budget=20-',
  'budget=3-5,12-20',
  'budget=4.5-9',
  'make=maruti-suzuki',
  'make=hyundai,kia',
  'make=maruti-suzuki&model=swift',
  'make=toyota&model=innova-crysta,fortuner',
  'fuel=diesel',
  'fuel=cng,electric',
  'fuel=hybrid',
  'trans=automatic',
  'trans=manual',
  'body=suv',
  'body=hatchback,sedan',
  'body=pickup',
  'year=2021-',
  'year=-2019',
  'year=2020-2021',
  'year=2022',
  'km=-25000',
  'km=25000-50000,100000-',
  'km=-50000',
  'owners=1',
  'owners=2,3',
  'color=white',
  'color=red,maroon',
  'state=MH',
  'state=ka,dl',
  'q=maruti&fuel=petrol',
  'q=diesel&trans=automatic',
  'q=suv&budget=12-20',
  'q=creta&year=2021-',
  'q=warranty&body=hatchback',
  'q=pune&owners=1',
  'q=sunroof&color=white',
  'q=bengaluru&km=-50000',
  'q=zzzzqq&fuel=diesel',
  'budget=5-8&fuel=diesel',
  'budget=5-8,8-12&fuel=diesel,petrol&trans=manual',
  'body=suv&fuel=diesel&trans=automatic&year=2020-',
  'make=hyundai&body=suv&owners=1&km=-50000',
  'state=MH,KA&color=white,silver&budget=-8',
  'fuel=electric&budget=-3',
];
