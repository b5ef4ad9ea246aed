/**
 * The online payment adapter's interface (Razorpay today; docs/decisions/021). Amounts are
 * paise. Pay at pickup needs no adapter: with no keys configured `payments` is null and every
 * booking is paid at the hub.
 */

export type PaymentOrder = { orderId: string; amountPaise: number; currency: 'INR' };

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
  /** Refunds `amountPaise` of a captured payment. */
  refund(input: { paymentId: string; amountPaise: number; notes?: Record<string, string> }): Promise<{ refundId: string }>;
}

/** The provider refused or could not be reached; `message` is safe to log, `code` is the provider's. */
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
