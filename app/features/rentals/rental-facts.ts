/**
 * The rental terms as sentences, each written once: the terms page (/rent/terms), the car page's
 * quote, the booking page, the mails and the app API all show these, so no page can promise what
 * the terms do not say (issue 25). Facts of every car come from the admin settings
 * (`RentalPolicy`), facts of one car from its rate card. Safe on both sides.
 */

import { formatRupees } from '../../lib/format.ts';
import { rentText as t } from './rent-texts.ts';
import type { Language } from '../../lib/i18n/language.ts';
import type { PricePolicy } from './rental-price.ts';
import { fuelPolicyLabels, type FuelPolicy } from './rentals.ts';

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

/** Working days as the sentences say them: "7 working days". */
export function refundWindow(policy: Pick<RentalPolicy, 'refundWorkingDays'>, language?: Language): string {
  return t('workingDays', { count: policy.refundWorkingDays }, language);
}

/** The terms of every car, from the settings. */
export function generalFacts(policy: RentalPolicy, language?: Language): RentalFact<GeneralFactKey>[] {
  const keepDays = policy.lateCancelKeepDays;
  const kept = keepDays === 0 ? t('keptNothing', {}, language) : t('keptDays', { count: keepDays }, language);
  const money = formatRupees;
  return [
    {
      key: 'deposit-return',
      label: t('factDepositReturn', {}, language),
      text: t('factDepositReturnText', { window: refundWindow(policy, language) }, language),
    },
    { key: 'refund', label: t('factRefunds', {}, language), text: t('factRefundsText', { window: refundWindow(policy, language) }, language) },
    {
      key: 'late-return',
      label: t('factLateReturn', {}, language),
      text: t('factLateReturnText', { grace: t('graceHours', { count: policy.graceHours }, language), fee: money(policy.lateFeePerHour) }, language),
    },
    {
      key: 'cancellation',
      label: t('factCancellation', {}, language),
      text: t('factCancellationText', { hours: t('hoursCount', { count: policy.freeCancelHours }, language), kept }, language),
    },
    {
      key: 'protection',
      label: t('factProtection', {}, language),
      text: t('factProtectionText', { perDay: money(policy.protectionPerDay), cap: money(policy.protectionCap) }, language),
    },
    { key: 'delivery', label: t('factDelivery', {}, language), text: t('factDeliveryText', { fee: money(policy.deliveryFee) }, language) },
    { key: 'gst', label: t('factGst', {}, language), text: t('factGstText', { percent: policy.gstPercent }, language) },
  ];
}

/** The terms of one car, from its rate card. */
export function carFacts(terms: CarFactTerms, language?: Language): RentalFact<CarFactKey>[] {
  return [
    {
      key: 'km',
      label: t('factKm', {}, language),
      text:
        terms.kmPerDay === null ? t('factKmUnlimited', {}, language) : t('factKmText', { km: terms.kmPerDay, rate: formatRupees(terms.extraKmRate) }, language),
    },
    { key: 'fuel', label: t('factFuel', {}, language), text: t('factFuelText', { policy: fuelPolicyLabels(language)[terms.fuelPolicy] }, language) },
    { key: 'deposit', label: t('factDeposit', {}, language), text: t('factDepositText', { deposit: formatRupees(terms.deposit) }, language) },
    {
      key: 'driver',
      label: t('factMinimum', {}, language),
      text: t('factMinimumText', { hours: t('hoursCount', { count: terms.minHours }, language), age: terms.minAge }, language),
    },
  ];
}

/** Every fact a renter of this car reads beside a quote: the car's, then the settings'. */
export function rentalFacts(terms: CarFactTerms, policy: RentalPolicy, language?: Language): RentalFact[] {
  return [...carFacts(terms, language), ...generalFacts(policy, language)];
}
