import { describe, expect, it } from 'vitest';
import { untranslatedWords } from '../../app/lib/i18n/kept-words.ts';
import { paiseAsRupeesText, parseRupeesAsPaise, rupeesToPaise } from '../../app/lib/money.ts';
import { cancellationMoneyText, handoverMoneyText, onlineRefundText, settlementMoneyText } from '../../app/features/rentals/rental-money.ts';
import { HOUR_MS, quoteRental } from '../../app/features/rentals/rental-price.ts';
import { renterMessage } from '../../server/rentals/notify.ts';
import type { Booking } from '../../server/rentals/store.ts';
import type { RentalPolicy } from '../../app/features/rentals/rental-facts.ts';

/** Money said by how it moved (docs/decisions/099): the gateway's refunds to the card or UPI, the desk's cash, UPI and card, and nothing. */

describe('rupees typed at the desk, kept in paise', () => {
  it('reads rupees with grouping, a rupee sign and up to two digits of paise, exactly', () => {
    expect(parseRupeesAsPaise('2200')).toBe(220_000);
    expect(parseRupeesAsPaise('₹ 2,200')).toBe(220_000);
    expect(parseRupeesAsPaise('2200.5')).toBe(220_050);
    expect(parseRupeesAsPaise('0.10')).toBe(10);
    expect(rupeesToPaise(2200)).toBe(220_000);
    expect(paiseAsRupeesText(220_050)).toBe('2200.50');
    expect(paiseAsRupeesText(220_000)).toBe('2200');
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '-5', '22.005', '1e3', '99999999999']) expect(parseRupeesAsPaise(text), text).toBeNull();
  });
});

describe('the wording of money by how it moved', () => {
  it('says a refund through the gateway goes to the card or UPI paid with', () => {
    expect(onlineRefundText(220_000)).toBe('Refunded ₹2,200 to your card/UPI (the payment method you paid with).');
    expect(settlementMoneyText({ direction: 'returned', paise: 220_000, method: 'online', reference: null }, { window: '7 working days' })).toBe(
      'Refunded ₹2,200 to your card/UPI (the payment method you paid with); your bank shows it within 7 working days.',
    );
  });

  it('says money paid in person comes back in person, by cash, UPI or card', () => {
    expect(settlementMoneyText({ direction: 'returned', paise: 220_000, method: 'cash', reference: null })).toBe(
      '₹2,200 returned to you in cash at the return.',
    );
    expect(settlementMoneyText({ direction: 'returned', paise: 220_000, method: 'upi', reference: '412345678901' })).toBe(
      '₹2,200 sent to your UPI at the return (reference 412345678901).',
    );
    expect(settlementMoneyText({ direction: 'returned', paise: 220_000, method: 'card', reference: 'A1B2C3' })).toBe(
      '₹2,200 refunded to your card at the return (reference A1B2C3).',
    );
  });

  it('says charges beyond the deposit were paid, and how', () => {
    expect(settlementMoneyText({ direction: 'collected', paise: 50_000, method: 'cash', reference: null })).toBe(
      '₹500 of charges beyond the deposit paid in cash at the return.',
    );
    expect(settlementMoneyText({ direction: 'collected', paise: 50_000, method: 'upi', reference: '998877665544' })).toBe(
      '₹500 of charges beyond the deposit paid by UPI at the return (reference 998877665544).',
    );
  });

  it('says so when nothing moves', () => {
    expect(settlementMoneyText({ direction: 'none', paise: 0, method: null, reference: null }, { deposit: 5000 })).toBe(
      'Nothing to return: the charges came to the whole deposit.',
    );
    expect(settlementMoneyText({ direction: 'none', paise: 0, method: null, reference: null }, { deposit: 0 })).toBe(
      'Nothing to return and nothing more to pay.',
    );
    expect(cancellationMoneyText({ paise: 0, paidPaise: 0 })).toBe('Nothing to refund: nothing was paid yet.');
    expect(cancellationMoneyText({ paise: 0, paidPaise: 300_000 })).toBe('Nothing to refund: by the cancellation terms, what you paid is kept.');
  });

  it('says what was paid at the handover', () => {
    expect(handoverMoneyText({ paise: 720_000, method: 'cash', reference: null })).toBe('₹7,200 paid in cash at the handover.');
    expect(handoverMoneyText({ paise: 720_000, method: 'upi', reference: '412345678901' })).toBe(
      '₹7,200 paid by UPI at the handover (reference 412345678901).',
    );
    expect(handoverMoneyText({ paise: 0, method: 'online', reference: null })).toBe('Already paid online: nothing was due at the handover.');
  });

  it('says every one in Hindi without English', () => {
    const texts = [
      onlineRefundText(220_000, { window: '7 कार्य दिवस' }, 'hi'),
      ...(['cash', 'upi', 'card', 'online'] as const).map((method) =>
        settlementMoneyText({ direction: 'returned', paise: 220_000, method, reference: '41234' }, {}, 'hi'),
      ),
      ...(['cash', 'upi', 'card'] as const).map((method) =>
        settlementMoneyText({ direction: 'collected', paise: 50_000, method, reference: '41234' }, {}, 'hi'),
      ),
      ...(['cash', 'upi', 'card', 'online'] as const).map((method) =>
        handoverMoneyText({ paise: method === 'online' ? 0 : 720_000, method, reference: null }, 'hi'),
      ),
      settlementMoneyText({ direction: 'none', paise: 0, method: null, reference: null }, { deposit: 5000 }, 'hi'),
      cancellationMoneyText({ paise: 0, paidPaise: 0 }, 'hi'),
    ];
    expect(texts.flatMap(untranslatedWords)).toEqual([]);
    expect(settlementMoneyText({ direction: 'returned', paise: 220_000, method: 'cash', reference: null }, {}, 'hi')).toBe(
      'वापसी पर ₹2,200 आपको कैश में लौटाए गए।',
    );
  });
});

describe("the renter's closing mail and SMS, worded by how the deposit came back", () => {
  const rates = { hourlyRate: 100, dailyRate: 2000, weeklyRate: null, kmPerDay: 200, extraKmRate: 10, deposit: 5000, minHours: 4 };
  const pricePolicy = { gstPercent: 18, protectionPerDay: 300, deliveryFee: 500 };
  const policy: RentalPolicy = {
    ...pricePolicy,
    graceHours: 1,
    lateFeePerHour: 200,
    freeCancelHours: 24,
    lateCancelKeepDays: 1,
    protectionCap: 3000,
    refundWorkingDays: 7,
  };
  const fromMs = Date.UTC(2026, 11, 3, 4, 30);
  const booking = (settlement: Booking['settlement'], paymentMethod: Booking['paymentMethod'] = 'pay-at-pickup') =>
    ({
      id: 7,
      carName: 'Swift',
      fromMs,
      toMs: fromMs + 48 * HOUR_MS,
      pickup: 'hub',
      pinCode: '',
      deliveryAddress: '',
      protection: false,
      quote: quoteRental(rates, { fromMs, toMs: fromMs + 48 * HOUR_MS }, pricePolicy, { protection: false, delivery: false }),
      terms: { kmPerDay: 200, extraKmRate: 10, fuelPolicy: 'full-to-full', deposit: 5000, minHours: 4, minAge: 21 },
      note: '',
      paymentMethod,
      amountPaid: 9720,
      charges: {
        kmDriven: 300,
        extraKm: 0,
        extraKmCharge: 0,
        lateHours: 0,
        lateFee: 0,
        fuelCharge: 2800,
        damage: [],
        damageCharge: 0,
        total: 2800,
        depositRefund: 2200,
        amountDue: 0,
      },
      depositRefund: 2200,
      settlement,
    }) as unknown as Booking;
  const options = { siteName: 'Gaadi Bazaar', siteOrigin: 'https://gaadibazaar.in', policy, nowMs: fromMs + 50 * HOUR_MS, language: 'en' as const };

  it('paid in person and returned in cash: in cash at the return, never "to your payment method"', () => {
    const message = renterMessage('closed', booking({ direction: 'returned', paise: 220_000, method: 'cash', reference: null }), options);
    expect(message.text).toContain('₹2,200 returned to you in cash at the return.');
    expect(message.sms).toBe('Gaadi Bazaar: booking #7 closed. Charges ₹2,800. ₹2,200 returned to you in cash at the return.');
    expect(`${message.text} ${message.sms}`).not.toMatch(/payment method/);
  });

  it('returned by UPI: sent to your UPI, with the reference', () => {
    const message = renterMessage('closed', booking({ direction: 'returned', paise: 220_000, method: 'upi', reference: '412345678901' }), options);
    expect(message.sms).toContain('₹2,200 sent to your UPI at the return (reference 412345678901).');
  });

  it('paid online: refunded to the card or UPI paid with', () => {
    const message = renterMessage('closed', booking({ direction: 'returned', paise: 220_000, method: 'online', reference: null }, 'razorpay'), options);
    expect(message.text).toContain('Refunded ₹2,200 to your card/UPI (the payment method you paid with); your bank shows it within 7 working days.');
  });

  it('a cancellation with nothing paid says there is nothing to refund', () => {
    const message = renterMessage('cancelled', { ...booking(null), amountPaid: 0 }, { ...options, refund: 0 });
    expect(message.text).toContain('Nothing to refund: nothing was paid yet.');
    expect(message.sms).toBe('Gaadi Bazaar: booking #7 cancelled. Nothing to refund: nothing was paid yet.');
  });
});
