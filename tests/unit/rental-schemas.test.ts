import { describe, expect, it } from 'vitest';
import { parseWith } from '../../app/lib/form-errors.ts';
import {
  askedRange,
  checkoutAnswerSchema,
  rangeMessages,
  rentalBookingBodySchema,
  rentalBookingFormSchema,
  rentalMonthQuerySchema,
  rentalQuoteQuerySchema,
} from '../../app/features/rentals/schemas.ts';
import { pinCodeMessages } from '../../app/lib/pin-code.ts';

/** The renter's inputs, one schema each for the pages and the app's API (decision 048). */
describe('rental input schemas', () => {
  it('reads a page range, dropping a seconds part, and says what is wrong in the page’s words', () => {
    expect(askedRange(new URLSearchParams('from=2026-12-01T10:00:00&to=2026-12-02T10:00'))).toMatchObject({
      range: { from: '2026-12-01T10:00', to: '2026-12-02T10:00' },
      problem: null,
    });
    expect(askedRange(new URLSearchParams(''))).toEqual({ range: null, problem: null });
    expect(askedRange(new URLSearchParams('from=next+tuesday&to=2026-12-02T10:00')).problem).toBe(rangeMessages.unreadable);
    expect(askedRange(new URLSearchParams('from=2026-12-02T10:00&to=2026-12-01T10:00')).problem).toBe(rangeMessages.reversed);
  });

  it('asks a quote with a range or none, never half of one', () => {
    expect(parseWith(rentalQuoteQuerySchema, {})).toEqual({ ok: true, value: { range: null, delivery: false, pinCode: '', protection: false } });
    expect(parseWith(rentalQuoteQuerySchema, { from: '', to: '' })).toEqual({
      ok: true,
      value: { range: null, delivery: false, pinCode: '', protection: false },
    });
    const half = parseWith(rentalQuoteQuerySchema, { from: '2026-12-01T10:00' });
    expect(half.ok || half.fields).toEqual({ to: rangeMessages.to });
    const quote = parseWith(rentalQuoteQuerySchema, { from: '2026-12-01T10:00', to: '2026-12-01T18:00', pickup: 'delivery' });
    expect(quote.ok && quote.value).toMatchObject({ range: { from: '2026-12-01T10:00', to: '2026-12-01T18:00' }, delivery: true });
  });

  it('reads a booking from the page’s form and the app’s body with the same choices', () => {
    expect(parseWith(rentalBookingFormSchema, {})).toEqual({
      ok: true,
      value: { pickup: 'hub', payment: 'pay-at-pickup', pinCode: '', deliveryAddress: '', protection: false },
    });
    expect(parseWith(rentalBookingFormSchema, { pickup: 'delivery', pinCode: ' 400 069 ', payment: 'razorpay' })).toEqual({
      ok: true,
      value: { pickup: 'delivery', payment: 'razorpay', pinCode: '400069', deliveryAddress: '', protection: false },
    });
    const bad = parseWith(rentalBookingBodySchema, {
      carId: 1.5,
      from: '2026-12-02T10:00',
      to: '2026-12-01T10:00',
      pickup: 'airport',
      payment: 'cash',
      pinCode: { $ne: '' },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.fields).sort()).toEqual(['carId', 'payment', 'pickup', 'pinCode']);
    if (!bad.ok) expect(bad.fields.pinCode).toBe(pinCodeMessages.invalid);
    const reversed = parseWith(rentalBookingBodySchema, { carId: 7, from: '2026-12-02T10:00', to: '2026-12-01T10:00' });
    expect(reversed.ok || reversed.fields).toEqual({ to: rangeMessages.reversed });
    const good = parseWith(rentalBookingBodySchema, { carId: '7', from: '2026-12-01T10:00', to: '2026-12-02T10:00' });
    expect(good.ok && good.value).toMatchObject({ carId: 7, from: '2026-12-01T10:00', pickup: 'hub', payment: 'pay-at-pickup', pinCode: '' });
  });

  it('reads an availability month, or none for this month', () => {
    expect(parseWith(rentalMonthQuerySchema, {})).toEqual({ ok: true, value: {} });
    expect(parseWith(rentalMonthQuerySchema, { month: '2026-12' })).toEqual({ ok: true, value: { month: '2026-12' } });
    for (const month of ['', '2026-13', '1999-12', '2026-1', '2026-12\u0000', '999999-12']) {
      expect(parseWith(rentalMonthQuerySchema, { month }), month).toMatchObject({ ok: false, error: 'month must be a month such as 2026-12.' });
    }
  });

  it('passes Checkout’s answer on as text, empty where a field is missing or not text, for the service to check', () => {
    expect(checkoutAnswerSchema.parse({ razorpay_order_id: 'order_1', razorpay_payment_id: 'pay_1', razorpay_signature: 'ab'.repeat(200) })).toEqual({
      orderId: 'order_1',
      paymentId: 'pay_1',
      signature: 'ab'.repeat(100),
    });
    expect(checkoutAnswerSchema.parse({ razorpay_order_id: ['order_1'], razorpay_payment_id: 42 })).toEqual({ orderId: '', paymentId: '', signature: '' });
  });
});
