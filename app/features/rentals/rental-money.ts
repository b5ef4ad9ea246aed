/**
 * What a renter is told about money, worded by how it moved (docs/decisions/099): an online
 * payment goes back through the gateway to the card or UPI it came from; money paid at the desk
 * comes back at the desk, in cash or by UPI or card, with the transaction's reference; nothing to
 * give back is said as such. The pages, the mails and SMS and the API all use these sentences.
 */
import type { Language } from '../../lib/i18n/language.ts';
import { currentLanguage } from '../../lib/i18n/current.ts';
import { rentText as t } from './rent-texts.ts';
import { formatPaise, type MoneyMethod } from '../../lib/money.ts';

/** What the desk collected at the handover: `online` (with 0) when everything was paid online before. */
export type HandoverMoney = { paise: number; method: MoneyMethod; reference: string | null };

/** What moved at the settlement: the deposit returned, charges beyond it collected, or nothing. */
export type SettlementMoney = { direction: 'returned' | 'collected' | 'none'; paise: number; method: MoneyMethod | null; reference: string | null };

function withReference(reference: string | null, language: Language): string {
  return reference ? t('moneyReference', { reference }, language) : '';
}

/** "₹2,200 paid in cash at the handover." / "Already paid online: nothing was due at the handover." */
export function handoverMoneyText(money: HandoverMoney, language: Language = currentLanguage()): string {
  const amount = formatPaise(money.paise);
  const reference = withReference(money.reference, language);
  switch (money.method) {
    case 'online':
      return t('moneyHandoverOnline', {}, language);
    case 'cash':
      return t('moneyHandoverCash', { amount, reference }, language);
    case 'upi':
      return t('moneyHandoverUpi', { amount, reference }, language);
    case 'card':
      return t('moneyHandoverCard', { amount, reference }, language);
  }
}

/**
 * A refund through the gateway to the card or UPI the renter paid with; `window` (how long the
 * bank takes) when it has only just been asked for.
 */
export function onlineRefundText(paise: number, options: { window?: string | undefined } = {}, language: Language = currentLanguage()): string {
  const amount = formatPaise(paise);
  return options.window ? t('moneyRefundedOnlineWithin', { amount, window: options.window }, language) : t('moneyRefundedOnline', { amount }, language);
}

/** The settlement at the return, by how the money moved; `window` for a refund through the gateway just asked for. */
export function settlementMoneyText(
  money: SettlementMoney,
  options: { window?: string | undefined; deposit?: number } = {},
  language: Language = currentLanguage(),
): string {
  const amount = formatPaise(money.paise);
  const reference = withReference(money.reference, language);
  if (money.direction === 'none' || money.paise === 0)
    return (options.deposit ?? 0) > 0 ? t('moneyNothingToReturn', {}, language) : t('moneySettledEven', {}, language);
  if (money.direction === 'returned') {
    switch (money.method) {
      case 'online':
        return onlineRefundText(money.paise, options, language);
      case 'upi':
        return t('moneyReturnedUpi', { amount, reference }, language);
      case 'card':
        return t('moneyReturnedCard', { amount, reference }, language);
      default:
        return t('moneyReturnedCash', { amount, reference }, language);
    }
  }
  switch (money.method) {
    case 'upi':
      return t('moneyCollectedUpi', { amount, reference }, language);
    case 'card':
      return t('moneyCollectedCard', { amount, reference }, language);
    default:
      return t('moneyCollectedCash', { amount, reference }, language);
  }
}

/**
 * A cancellation's or refusal's refund: paid online, back through the gateway; nothing paid yet
 * (a booking paid at pickup), nothing to refund; paid but nothing given back (the policy kept it), said so.
 */
export function cancellationMoneyText(
  refund: { paise: number; paidPaise: number; window?: string | undefined },
  language: Language = currentLanguage(),
): string {
  if (refund.paise > 0) return onlineRefundText(refund.paise, { window: refund.window }, language);
  return refund.paidPaise > 0 ? t('moneyNothingRefunded', {}, language) : t('moneyNothingPaid', {}, language);
}
