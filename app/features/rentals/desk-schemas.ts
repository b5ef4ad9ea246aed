import { z } from 'zod';
import { deskRentalsText as t } from './desk-rentals-texts.ts';
import { parseIndiaDateTime } from '../../lib/india-time.ts';
import { cleanLine, cleanText } from '../../lib/input.ts';
import { parseRupeesAsPaise } from '../../lib/money.ts';
import { FUEL_EIGHTHS_MAX } from './rentals.ts';
import { MAX_ODOMETER_KM } from '../../lib/vehicle.ts';
import { idField } from '../../lib/schemas/fields.ts';

/**
 * The rental desk's forms (the desk page's blocks and requests, a booking's handover, return and
 * settlement), read by these schemas (decision 109): each field refused with its own sentence,
 * shown beside it. What depends on the booking (a handover not before its pickup, a refund not
 * above its deposit, money methods) is the lifecycle service's to say.
 */

type WholeLabel = 'theOdometer' | 'theFuelLevel' | 'theFuelCharge' | 'theDepositRefund';

/** A whole number from 0 to `max` as the desk types it (₹, commas and spaces allowed); its label is read when refused. */
function wholeNumber(label: WholeLabel, max: number) {
  const refused = () => t('wholeNumberRange', { label: t(label), max });
  return z
    .string({ error: refused })
    .transform((typed) => cleanLine(typed, 12).replace(/[₹,\s]/g, ''))
    .refine((text) => /^\d{1,15}$/.test(text) && Number(text) <= max, { error: refused })
    .transform(Number);
}

/** A date-time in India time (`2026-12-01T10:00`); undefined when left empty (the service takes now). */
function deskTime(message: () => string) {
  return z
    .string()
    .optional()
    .transform((typed, ctx) => {
      const text = cleanLine(typed, 16);
      if (!text) return undefined;
      const ms = parseIndiaDateTime(text);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: message() });
        return z.NEVER;
      }
      return ms;
    });
}

/** A required date-time in India time. */
function requiredTime(message: () => string) {
  return z
    .string({ error: message })
    .transform((typed) => parseIndiaDateTime(cleanLine(typed, 16)))
    .refine((ms) => ms !== null, { error: message })
    .transform((ms) => ms as number);
}

const line = (max: number) =>
  z
    .string()
    .optional()
    .transform((typed) => cleanLine(typed, max));

/** Money the desk took or gave in person, as typed: the amount (rupees, read into paise), how, and the reference; the service checks them. */
function deskMoney<Prefix extends 'collected' | 'settle'>(prefix: Prefix) {
  return {
    [`${prefix}Amount`]: line(20).transform((text) => (text ? parseRupeesAsPaise(text) : null)),
    [`${prefix}Method`]: line(10),
    [`${prefix}Reference`]: line(200),
  } as Record<`${Prefix}Amount`, z.ZodType<number | null, string | undefined>> &
    Record<`${Prefix}Method` | `${Prefix}Reference`, z.ZodType<string, string | undefined>>;
}

/** Why a booking is refused, told to the customer. */
export const deskRefusalSchema = z.object({
  reason: z
    .string()
    .optional()
    .transform((typed) => cleanText(typed, { maxLength: 300 })),
});

/** The desk page's block: a car out of the fleet for a while. */
export const deskBlockSchema = z.object({
  vehicleId: idField(() => t('chooseCar')),
  from: requiredTime(() => t('giveBlockTimes')),
  to: requiredTime(() => t('giveBlockTimes')),
  note: line(200),
});

/** The handover: odometer and fuel out, when, and the money collected. */
export const deskHandoverSchema = z.object({
  odometerOut: wholeNumber('theOdometer', MAX_ODOMETER_KM),
  fuelOut: wholeNumber('theFuelLevel', FUEL_EIGHTHS_MAX),
  handedOverAt: deskTime(() => t('giveHandoverTime')),
  ...deskMoney('collected'),
});

/** The return (and its preview): odometer and fuel in, when, and the fuel shortfall in rupees. */
export const deskReturnSchema = z.object({
  odometerIn: wholeNumber('theOdometer', MAX_ODOMETER_KM),
  fuelIn: wholeNumber('theFuelLevel', FUEL_EIGHTHS_MAX),
  fuelCharge: wholeNumber('theFuelCharge', 100_000),
  returnedAt: deskTime(() => t('giveReturnTime')),
});

/** Settling the deposit: the refund in rupees and the money given back in person. */
export const deskSettleSchema = z.object({
  depositRefund: wholeNumber('theDepositRefund', 10_000_000),
  ...deskMoney('settle'),
});
