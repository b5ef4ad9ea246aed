import type { PaymentGateway } from '../payments/gateway.ts';
import type { Metrics } from './metrics.ts';

/**
 * The payment adapter with every call to the provider counted by outcome (gaadi_payments_total,
 * gaadi_refunds_total). Wrapped where the server puts its services together, so the payment
 * code itself stays as it is: what it asks of the provider, and how that went, is exactly what
 * passes through this interface (decision 111).
 */
export function countedGateway(gateway: PaymentGateway, metrics: Pick<Metrics, 'payment' | 'refund'>): PaymentGateway {
  const counted = async <T>(call: Promise<T>, ok: () => void, failed: () => void): Promise<T> => {
    try {
      const result = await call;
      ok();
      return result;
    } catch (error) {
      failed();
      throw error;
    }
  };
  const judged = (valid: boolean) => {
    metrics.payment(valid ? 'verified' : 'signature_refused');
    return valid;
  };
  // Spread first: a call added to the interface later passes through (uncounted) instead of going missing.
  return {
    ...gateway,
    createOrder: (input) =>
      counted(
        gateway.createOrder(input),
        () => metrics.payment('order_created'),
        () => metrics.payment('order_failed'),
      ),
    verifyPaymentSignature: (input) => judged(gateway.verifyPaymentSignature(input)),
    verifyWebhookSignature: (rawBody, signature) => judged(gateway.verifyWebhookSignature(rawBody, signature)),
    fetchPayment: (paymentId) =>
      counted(
        gateway.fetchPayment(paymentId),
        () => {},
        () => metrics.payment('fetch_failed'),
      ),
    refund: (input) =>
      counted(
        gateway.refund(input),
        () => metrics.refund('refunded'),
        () => metrics.refund('failed'),
      ),
  };
}
