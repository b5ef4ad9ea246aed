import type { RentalTermsInput } from '../../../app/features/rentals/rentals.ts';
import { demoVehicles, type DemoVehicle } from './inventory.ts';

/**
 * The demo's self-drive fleet: the terms of each "Rental Cars" car of the inventory, by its
 * name. Rates follow what Indian self-drive operators charge (2026): hourly and daily rates,
 * a weekly rate on most cars, 200–300 km a day, ₹10–18 per extra km, a ₹3,000–5,000 deposit.
 * All are commercially registered (yellow or black plate), as self-drive rental requires.
 */
export const demoRentalTerms: Record<string, RentalTermsInput> = {
  'Swift Dzire Tour S CNG – Self Drive': {
    hourlyRate: 120,
    dailyRate: 1600,
    weeklyRate: 9800,
    kmPerDay: 240,
    extraKmRate: 10,
    deposit: 3000,
    fuelPolicy: 'like-for-like',
    minAge: 21,
    minHours: 4,
    seats: 5,
    commercialRegistration: true,
    deliveryAvailable: true,
  },
  'Maruti Suzuki Ertiga VXi': {
    hourlyRate: 180,
    dailyRate: 2600,
    weeklyRate: 16000,
    kmPerDay: 300,
    extraKmRate: 12,
    deposit: 5000,
    fuelPolicy: 'full-to-full',
    minAge: 21,
    minHours: 4,
    seats: 7,
    commercialRegistration: true,
    deliveryAvailable: true,
  },
  'Innova Crysta 7-Seater – Self Drive': {
    hourlyRate: 250,
    dailyRate: 3800,
    weeklyRate: 23000,
    kmPerDay: 300,
    extraKmRate: 16,
    deposit: 5000,
    fuelPolicy: 'full-to-full',
    minAge: 25,
    minHours: 8,
    seats: 7,
    commercialRegistration: true,
    deliveryAvailable: false,
  },
  'Maruti Suzuki Swift VXi – Self Drive': {
    hourlyRate: 110,
    dailyRate: 1500,
    weeklyRate: 9000,
    kmPerDay: 240,
    extraKmRate: 10,
    deposit: 3000,
    fuelPolicy: 'like-for-like',
    minAge: 21,
    minHours: 4,
    seats: 5,
    commercialRegistration: true,
    deliveryAvailable: true,
  },
  'Hyundai Creta S – Self Drive': {
    hourlyRate: 200,
    dailyRate: 2900,
    weeklyRate: null,
    kmPerDay: 250,
    extraKmRate: 14,
    deposit: 5000,
    fuelPolicy: 'full-to-full',
    minAge: 21,
    minHours: 24,
    seats: 5,
    commercialRegistration: true,
    deliveryAvailable: true,
  },
  'Mahindra Thar LX Convertible': {
    hourlyRate: 300,
    dailyRate: 4500,
    weeklyRate: 27000,
    kmPerDay: 200,
    extraKmRate: 18,
    deposit: 5000,
    fuelPolicy: 'full-to-full',
    minAge: 25,
    minHours: 8,
    seats: 4,
    commercialRegistration: true,
    deliveryAvailable: false,
  },
  'Honda Amaze S CVT': {
    hourlyRate: 150,
    dailyRate: 2200,
    weeklyRate: 13200,
    kmPerDay: 250,
    extraKmRate: 12,
    deposit: 4000,
    fuelPolicy: 'full-to-full',
    minAge: 21,
    minHours: 4,
    seats: 5,
    commercialRegistration: true,
    deliveryAvailable: true,
  },
};

/** Whether the seed puts this demo car in the rental fleet rather than the sale stock. */
export function isDemoRental(vehicle: DemoVehicle): boolean {
  return Object.hasOwn(demoRentalTerms, vehicle.name);
}

/** The demo's rental fleet: the cars /rent lists. */
export const demoFleetVehicles: DemoVehicle[] = demoVehicles.filter(isDemoRental);

/** The demo's sale stock: what the buy listing, search, categories and sitemap's vehicle pages show. */
export const demoSaleVehicles: DemoVehicle[] = demoVehicles.filter((vehicle) => !isDemoRental(vehicle));
