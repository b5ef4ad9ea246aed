import { describe, expect, it } from 'vitest';
import { formatPaise } from '../../app/lib/money.ts';

/** Amounts of payments and refunds as the desk reads them: what Razorpay counts (subunits), in the payment's own currency. */
describe('formatPaise', () => {
  it('shows whole rupees with Indian grouping and paise only when there are some', () => {
    expect(formatPaise(680_000)).toBe('₹6,800');
    expect(formatPaise(100)).toBe('₹1');
    expect(formatPaise(12_345_678_950)).toBe('₹12,34,56,789.50');
    expect(formatPaise(5)).toBe('₹0.05');
  });

  it('names another currency instead of passing it off as rupees', () => {
    expect(formatPaise(680_000, 'USD')).toBe('USD 6800.00');
    expect(formatPaise(1, 'EUR')).toBe('EUR 0.01');
  });
});
