import { ConflictError, ForbiddenError, InvalidInputError, UpstreamError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { PaymentError, type PaymentGateway, type ProviderPayment } from './gateway.ts';
import { settlementOf, type LedgerServices, type PaymentOwner, type ProvenPayment } from './ledger.ts';

/**
 * Checkout confirmation, for every owner alike (docs/decisions/021, 051, 106): the browser hands
 * back Checkout's answer; the payment is believed only on Razorpay's proof — the answer's
 * signature, HMAC-SHA256(order_id|payment_id) with our key secret, for the owner's own order —
 * and what was paid is asked of Razorpay, never taken from the browser. The owner's `settle`
 * then records it by its own rules (what it owes, what it holds), once (server/payments/ledger.ts).
 */

/** Checkout's answer as the browser posts it. */
export type CheckoutAnswer = { orderId: string; paymentId: string; signature: string };

/** The owner's words for each refusal, in its page's language. */
export type CheckoutTexts = {
  notConfigured: string;
  fieldsRequired: string;
  notThisOrder: string;
  notVerified: string;
  checkFailed: string;
  notCaptured: string;
};

export type CheckoutServices = LedgerServices & { logger: Pick<Logger, 'warn'>; payments: PaymentGateway | null };

/**
 * Verifies Checkout's answer for `owner`'s order (`ownOrderId`: the order it made; null when it
 * has none) and settles the proven payment with `settle`. Errors: InvalidInputError (online
 * payment not configured, a value missing), ForbiddenError (a forged signature, another order),
 * UpstreamError (Razorpay could not be asked), ConflictError (Razorpay has not captured it yet,
 * and it was never settled before); and whatever `settle` throws.
 */
export async function confirmCheckout<T>(
  services: CheckoutServices,
  input: { owner: PaymentOwner; ownOrderId: string | null; answer: CheckoutAnswer; texts: CheckoutTexts },
  settle: (payment: ProvenPayment) => Promise<T>,
): Promise<T> {
  const { answer, texts } = input;
  if (!services.payments) throw new InvalidInputError(texts.notConfigured);
  if (!answer.orderId || !answer.paymentId || !answer.signature) throw new InvalidInputError(texts.fieldsRequired);
  if (!input.ownOrderId || input.ownOrderId !== answer.orderId) throw new ForbiddenError(texts.notThisOrder);
  if (!services.payments.verifyPaymentSignature(answer)) throw new ForbiddenError(texts.notVerified);
  let payment: ProviderPayment;
  try {
    payment = await services.payments.fetchPayment(answer.paymentId);
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    services.logger.warn({ err: error, owner: input.owner.kind, ownerId: input.owner.id }, 'payments: the payment could not be checked with Razorpay');
    throw new UpstreamError(texts.checkFailed);
  }
  if (payment.orderId !== answer.orderId) throw new ForbiddenError(texts.notThisOrder);
  // A payment settled before is answered as it stands, whatever Razorpay says of it now (refunded since).
  if (payment.status !== 'captured' && (await settlementOf(services.database.db, answer.paymentId)) === null) throw new ConflictError(texts.notCaptured);
  return settle({ orderId: answer.orderId, paymentId: answer.paymentId, amountPaise: payment.amountPaise, currency: payment.currency });
}
