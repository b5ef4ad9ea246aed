/**
 * The online payment adapter's interface (Razorpay today; docs/decisions/021). Amounts are
 * paise. Pay at pickup needs no adapter: with no keys configured `payments` is null and every
 * booking is paid at the hub.
 */

export type PaymentOrder = { orderId: string; amountPaise: number; currency: 'INR' };

/** A payment as the provider knows it: amount in the currency's subunits (paise for INR). */
export type ProviderPayment = { paymentId: string; orderId: string | null; amountPaise: number; currency: string; status: string };

export interface PaymentGateway {
  readonly provider: 'razorpay';
  /** The public key the browser's Checkout opens with (never the secret). */
  readonly keyId: string;
  /** Creates an order for `amountPaise`; `receipt` is our reference (the booking). */
  createOrder(input: { amountPaise: number; receipt: string; notes?: Record<string, string> }): Promise<PaymentOrder>;
  /** Whether Checkout's callback signature is Razorpay's for this order and payment. */
  verifyPaymentSignature(input: { orderId: string; paymentId: string; signature: string }): boolean;
  /** Whether a webhook's X-Razorpay-Signature matches its raw body (false without a webhook secret). */
  verifyWebhookSignature(rawBody: string, signature: string): boolean;
  /** The payment as the provider recorded it (what was really paid, whatever a browser says). */
  fetchPayment(paymentId: string): Promise<ProviderPayment>;
  /**
   * Refunds `amountPaise` of a captured payment. The same `idempotencyKey` with the same amount
   * gives back the same refund, so a retry after a lost answer never refunds twice. The provider
   * keys that by the key alone, across all payments of the account: a key another refund used
   * first answers with that refund, which this rejects (PaymentError `REFUND_OF_ANOTHER_PAYMENT`)
   * rather than report it as this payment's. Resolves only with a refund of this payment and amount.
   */
  refund(input: { paymentId: string; amountPaise: number; idempotencyKey: string; notes?: Record<string, string> }): Promise<{ refundId: string }>;
}

/**
 * The code of a PaymentError for a refund answer that names another payment or another amount than
 * the one asked for: nothing was refunded for this payment, and asking again with the same key
 * gets the same answer (decision 093).
 */
export const REFUND_OF_ANOTHER_PAYMENT = 'REFUND_OF_ANOTHER_PAYMENT';

/** The provider refused or could not be reached; `message` is safe to log, `code` is the provider's (or ours, above). */
export class PaymentError extends Error {
  override name = 'PaymentError';
  constructor(
    message: string,
    readonly code: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
