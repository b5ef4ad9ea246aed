/**
 * The rental terms as sentences, each written once: the terms page (/rent/terms), the car page's
 * quote, the booking page, the mails and the app API all show these, so no page can promise what
 * the terms do not say (issue 25). Facts of every car come from the admin settings
 * (`RentalPolicy`), facts of one car from its rate card. Safe on both sides.
 */

import { formatRupees } from './format.ts';
import type { PricePolicy } from './rental-price.ts';
import { FUEL_POLICY_LABELS, type FuelPolicy } from './rentals.ts';

/** The admin's rental settings a renter reads (server/rentals/store.ts `rentalPolicy`). */
export type RentalPolicy = PricePolicy & {
  graceHours: number;
  lateFeePerHour: number;
  freeCancelHours: number;
  lateCancelKeepDays: number;
  /** With damage protection, the most a renter pays for damage in one booking. */
  protectionCap: number;
  /** Working days within which a refund (a cancellation's, the deposit's) reaches the renter. */
  refundWorkingDays: number;
};

/** The rate-card terms a renter reads. */
export type CarFactTerms = { kmPerDay: number | null; extraKmRate: number; fuelPolicy: FuelPolicy; deposit: number; minHours: number; minAge: number };

export type GeneralFactKey = 'deposit-return' | 'refund' | 'late-return' | 'cancellation' | 'protection' | 'delivery' | 'gst';
export type CarFactKey = 'km' | 'fuel' | 'deposit' | 'driver';
export type RentalFact<Key extends string = GeneralFactKey | CarFactKey> = { key: Key; label: string; text: string };

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Working days as the sentences say them: "7 working days". */
export function refundWindow(policy: Pick<RentalPolicy, 'refundWorkingDays'>): string {
  return plural(policy.refundWorkingDays, 'working day', 'working days');
}

/** The terms of every car, from the settings. */
export function generalFacts(policy: RentalPolicy): RentalFact<GeneralFactKey>[] {
  const keepDays = policy.lateCancelKeepDays;
  const kept = keepDays === 0 ? 'nothing is kept' : `${keepDays === 1 ? "one day's rent" : `${keepDays} days' rent`} and its GST are kept`;
  return [
    {
      key: 'deposit-return',
      label: 'Deposit return',
      text: `The deposit comes back after the return, less any charge for extra km, late return, fuel or damage, within ${refundWindow(policy)} (after the FASTag and challan checks).`,
    },
    { key: 'refund', label: 'Refunds', text: `A refund of an online payment reaches your original payment method within ${refundWindow(policy)}.` },
    {
      key: 'late-return',
      label: 'Late return',
      text: `${plural(policy.graceHours, 'hour', 'hours')} of grace after the return time, then ${formatRupees(policy.lateFeePerHour)} for each started late hour.`,
    },
    {
      key: 'cancellation',
      label: 'Cancellation',
      text: `Free until ${plural(policy.freeCancelHours, 'hour', 'hours')} before pickup; later ${kept}; after pickup the rent is not refunded. The deposit always comes back.`,
    },
    {
      key: 'protection',
      label: 'Damage protection',
      text: `Optional, ${formatRupees(policy.protectionPerDay)} a day: what you pay for damage in one booking is capped at ${formatRupees(policy.protectionCap)}. Without it you pay the repair cost of any damage.`,
    },
    { key: 'delivery', label: 'Delivery', text: `${formatRupees(policy.deliveryFee)} to your address in the PIN codes we serve; otherwise pick the car up at our hub.` },
    { key: 'gst', label: 'GST', text: `${policy.gstPercent}% GST is added to the rent, protection and delivery; not to the deposit.` },
  ];
}

/** The terms of one car, from its rate card. */
export function carFacts(terms: CarFactTerms): RentalFact<CarFactKey>[] {
  return [
    {
      key: 'km',
      label: 'Km',
      text: terms.kmPerDay === null ? 'Unlimited km.' : `${terms.kmPerDay} km a day included; extra km at ${formatRupees(terms.extraKmRate)} a km.`,
    },
    { key: 'fuel', label: 'Fuel', text: `${FUEL_POLICY_LABELS[terms.fuelPolicy]}; a shortfall is charged from the deposit.` },
    { key: 'deposit', label: 'Security deposit', text: `${formatRupees(terms.deposit)}, refundable, paid at pickup; never part of the price.` },
    { key: 'driver', label: 'Minimum', text: `${plural(terms.minHours, 'hour', 'hours')}; driver at least ${terms.minAge} years old with a valid licence.` },
  ];
}

/** Every fact a renter of this car reads beside a quote: the car's, then the settings'. */
export function rentalFacts(terms: CarFactTerms, policy: RentalPolicy): RentalFact[] {
  return [...carFacts(terms), ...generalFacts(policy)];
}
