/**
 * The one price rule of self-drive rental, in whole rupees: the quote a renter sees on /rent,
 * the booking stores and the API answers, the refund when a booking is cancelled, and the
 * charges at return. Safe on both sides; the server and the pages call the same functions.
 */

export const HOUR_MS = 60 * 60 * 1000;

/** The terms of one car that the price depends on (server/rentals/fleet.ts reads them). */
export type RentalRates = {
  hourlyRate: number;
  dailyRate: number;
  /** Each full 7 days cost this instead of 7 daily rates; null when the car has no weekly rate. */
  weeklyRate: number | null;
  /** Km included per day; null means unlimited. */
  kmPerDay: number | null;
  extraKmRate: number;
  deposit: number;
  /** A shorter booking is charged as this many hours. */
  minHours: number;
};

export type RentalQuote = {
  /** Billed hours: the booked time rounded up to the hour, at least the car's minimum. */
  hours: number;
  rent: number;
  deliveryFee: number;
  /** Refundable security deposit. */
  deposit: number;
  /** Km included for the whole booking; null when unlimited. */
  kmIncluded: number | null;
  extraKmRate: number;
  /** Rent, delivery fee and deposit: what the booking costs before any charge at return. */
  total: number;
  /** What is paid when booking: everything when paying online, nothing when paying at pickup. */
  payableNow: number;
};

/** Booked hours rounded up to the whole hour (`h = ceil(hours)`); 0 for an empty or reversed range. */
export function bookedHours(fromMs: number, toMs: number): number {
  return toMs > fromMs ? Math.ceil((toMs - fromMs) / HOUR_MS) : 0;
}

/**
 * Rent for `hours` billed hours: `d = floor(h / 24)` days at the daily rate plus the remaining
 * hours at the hourly rate, those capped at one day's rate; with a weekly rate each full 7 days
 * cost the weekly rate instead of 7 daily ones, and the days and hours past the last full week
 * are capped at one week's rate the same way. Each cap is what keeps the price from ever falling
 * as the booking grows (6 days and 23 hours would otherwise cost more than 7 days).
 */
export function rentFor(hours: number, rates: Pick<RentalRates, 'hourlyRate' | 'dailyRate' | 'weeklyRate'>): number {
  const h = Math.max(0, Math.ceil(hours));
  const days = Math.floor(h / 24);
  const rest = Math.min((h % 24) * rates.hourlyRate, rates.dailyRate);
  if (rates.weeklyRate === null) return days * rates.dailyRate + rest;
  // A weekly rate above seven daily rates would charge more for the seventh day than for the sixth.
  const week = Math.min(rates.weeklyRate, 7 * rates.dailyRate);
  const weeks = Math.floor(days / 7);
  return weeks * week + Math.min((days - weeks * 7) * rates.dailyRate + rest, week);
}

/** Km included: per-day allowance × `max(1, ceil(h / 24))`; null when unlimited. */
export function kmIncludedFor(hours: number, kmPerDay: number | null): number | null {
  return kmPerDay === null ? null : kmPerDay * Math.max(1, Math.ceil(hours / 24));
}

/** The quote for booking a car from `fromMs` to `toMs` (epoch milliseconds). */
export function quoteRental(
  rates: RentalRates,
  range: { fromMs: number; toMs: number },
  options: { deliveryFee?: number; payOnline?: boolean } = {},
): RentalQuote {
  const hours = Math.max(bookedHours(range.fromMs, range.toMs), rates.minHours);
  const rent = rentFor(hours, rates);
  const deliveryFee = options.deliveryFee ?? 0;
  const total = rent + deliveryFee + rates.deposit;
  return {
    hours,
    rent,
    deliveryFee,
    deposit: rates.deposit,
    kmIncluded: kmIncludedFor(hours, rates.kmPerDay),
    extraKmRate: rates.extraKmRate,
    total,
    payableNow: options.payOnline ? total : 0,
  };
}

/** The cancellation values from the admin settings. */
export type CancellationPolicy = {
  /** Free cancellation until this many hours before pickup (24). */
  freeCancelHours: number;
  /** Days of rent kept when cancelled later than that, before pickup (1). */
  lateCancelKeepDays: number;
};

export type CancellationWindow = 'free' | 'late' | 'after-pickup';

export type CancellationRefund = {
  window: CancellationWindow;
  /** Rent kept under the policy (whether or not it was paid). */
  rentKept: number;
  /** What goes back to the renter of what was paid: the amount refunded. */
  refund: number;
};

/**
 * What cancelling gives back: free until `freeCancelHours` before pickup (everything paid comes
 * back); later, `lateCancelKeepDays` days of rent are kept; after pickup or for a no-show none of
 * the rent comes back. The deposit and an undelivered delivery fee always come back.
 */
export function cancellationRefund(
  booking: { rent: number; deliveryFee: number; deposit: number; dailyRate: number; pickupMs: number; paid: number; pickedUp: boolean },
  nowMs: number,
  policy: CancellationPolicy,
): CancellationRefund {
  const window: CancellationWindow =
    booking.pickedUp || nowMs >= booking.pickupMs ? 'after-pickup' : nowMs <= booking.pickupMs - policy.freeCancelHours * HOUR_MS ? 'free' : 'late';
  const rentKept = window === 'free' ? 0 : window === 'late' ? Math.min(booking.rent, booking.dailyRate * policy.lateCancelKeepDays) : booking.rent;
  const deliveryKept = window === 'after-pickup' && booking.pickedUp ? booking.deliveryFee : 0;
  const refund = Math.max(0, booking.paid - rentKept - deliveryKept);
  return { window, rentKept, refund };
}

/** The late-return values from the admin settings. */
export type LateReturnRule = { graceHours: number; lateFeePerHour: number };

export type ReturnCharges = {
  kmDriven: number;
  extraKm: number;
  extraKmCharge: number;
  /** Whole hours past the return time and the grace, each started hour counted. */
  lateHours: number;
  lateFee: number;
  fuelCharge: number;
  /**
   * New damage found at return, each with what the desk charged and its checklist photo
   * (app/lib/rental-checklist.ts). Absent on returns recorded before the checklist.
   */
  damage?: DamageCharge[];
  damageCharge?: number;
  total: number;
  /** The deposit less the charges, never below 0. */
  depositRefund: number;
  /** Charges the deposit does not cover, still owed. */
  amountDue: number;
};

export type DamageCharge = { note: string; charge: number; photoId: string };

/**
 * The charges at return: extra km × rate, late hours past the grace × late fee, the fuel
 * shortfall as the desk entered it, each new damage as the desk priced it; the deposit refund
 * is the deposit less these.
 */
export function returnCharges(input: {
  odometerOut: number;
  odometerIn: number;
  kmIncluded: number | null;
  extraKmRate: number;
  dueMs: number;
  returnedMs: number;
  fuelCharge: number;
  damage?: DamageCharge[];
  deposit: number;
  rule: LateReturnRule;
}): ReturnCharges {
  const kmDriven = Math.max(0, input.odometerIn - input.odometerOut);
  const extraKm = input.kmIncluded === null ? 0 : Math.max(0, kmDriven - input.kmIncluded);
  const extraKmCharge = extraKm * input.extraKmRate;
  const lateMs = input.returnedMs - input.dueMs - input.rule.graceHours * HOUR_MS;
  const lateHours = lateMs > 0 ? Math.ceil(lateMs / HOUR_MS) : 0;
  const lateFee = lateHours * input.rule.lateFeePerHour;
  const fuelCharge = Math.max(0, Math.round(input.fuelCharge));
  const damage = (input.damage ?? []).map((item) => ({ ...item, charge: Math.max(0, Math.round(item.charge)) }));
  const damageCharge = damage.reduce((sum, item) => sum + item.charge, 0);
  const total = extraKmCharge + lateFee + fuelCharge + damageCharge;
  return {
    kmDriven,
    extraKm,
    extraKmCharge,
    lateHours,
    lateFee,
    fuelCharge,
    damage,
    damageCharge,
    total,
    depositRefund: Math.max(0, input.deposit - total),
    amountDue: Math.max(0, total - input.deposit),
  };
}
