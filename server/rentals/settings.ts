import { z } from 'zod';
import { declareSettings, say } from '../settings/declarations.ts';

/**
 * Self-drive rental's settings (decision 020): hours, days and whole rupees. Delivery goes to
 * the test drives' service areas (server/test-drives/settings.ts).
 */
export const rentalSettings = declareSettings('rentals', {
  /** Hours a car rests between two bookings (cleaning, inspection); part of every hold. */
  rentalBufferHours: { schema: z.coerce.number().int().min(0, say('bufferNegative')).max(48, say('bufferMax')), default: 2, label: 'rentalBufferHoursLabel' },
  /** Hours a pickup must be ahead of the booking. */
  rentalMinNoticeHours: {
    schema: z.coerce.number().int().min(0, say('minNoticeNegative')).max(168, say('minNoticeMax')),
    default: 3,
    label: 'rentalMinNoticeHoursLabel',
  },
  /** How many days ahead a car can be booked. */
  rentalHorizonDays: { schema: z.coerce.number().int().min(1, say('horizonMin')).max(365, say('horizonMax')), default: 90, label: 'rentalHorizonDaysLabel' },
  /** Hours after the return time before the late fee starts. */
  rentalGraceHours: { schema: z.coerce.number().int().min(0, say('graceNegative')).max(24, say('graceMax')), default: 1, label: 'rentalGraceHoursLabel' },
  rentalLateFeePerHour: {
    schema: z.coerce.number().int().min(0, say('lateFeeNegative')).max(100_000, say('lateFeeMax')),
    default: 200,
    label: 'rentalLateFeePerHourLabel',
  },
  /** Free cancellation until this many hours before pickup. */
  rentalFreeCancelHours: {
    schema: z.coerce.number().int().min(0, say('freeCancelNegative')).max(720, say('freeCancelMax')),
    default: 24,
    label: 'rentalFreeCancelHoursLabel',
  },
  /** Days of rent kept for a cancellation inside that period (before pickup). */
  rentalLateCancelKeepDays: {
    schema: z.coerce.number().int().min(0, say('keepDaysNegative')).max(30, say('keepDaysMax')),
    default: 1,
    label: 'rentalLateCancelKeepDaysLabel',
  },
  rentalDeliveryFee: {
    schema: z.coerce.number().int().min(0, say('deliveryFeeNegative')).max(100_000, say('deliveryFeeMax')),
    default: 500,
    label: 'rentalDeliveryFeeLabel',
  },
  /** GST in percent on rent, damage protection and delivery: 18% is what the dealer's accountant confirms per car class (decision 066). */
  rentalGstPercent: {
    schema: z.coerce.number(say('gstNumber')).int(say('gstWhole')).min(0, say('gstNegative')).max(40, say('gstMax')),
    default: 18,
    label: 'rentalGstPercentLabel',
  },
  /** The optional damage-protection plan: its fee per started day, and the damage it caps a renter's liability at. */
  rentalProtectionPerDay: {
    schema: z.coerce.number().int(say('protectionWhole')).min(0, say('protectionNegative')).max(10_000, say('protectionMax')),
    default: 250,
    label: 'rentalProtectionPerDayLabel',
  },
  rentalProtectionCap: {
    schema: z.coerce.number().int(say('capWhole')).min(0, say('capNegative')).max(1_000_000, say('capMax')),
    default: 3000,
    label: 'rentalProtectionCapLabel',
  },
  /** Working days within which a refund (a cancellation's, the deposit's) reaches the renter. */
  rentalRefundWorkingDays: {
    schema: z.coerce.number().int(say('refundDaysWhole')).min(1, say('refundDaysRange')).max(30, say('refundDaysRange')),
    default: 7,
    label: 'rentalRefundWorkingDaysLabel',
  },
});
