import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import type { PaymentOwnerKind } from '../db/schema.ts';
import { ForbiddenError, InvalidInputError } from '../errors.ts';
import type { PaymentGateway } from './gateway.ts';
import { ownerOfOrder, type LedgerServices, type ProvenPayment } from './ledger.ts';

/**
 * Razorpay's webhook, for every owner alike (docs/decisions/021, 106): the raw body's signature
 * is checked with the webhook secret; a `payment.captured` or `order.paid` event's payment goes
 * to the owner of its order, found by the order's charge in the ledger, and is settled there by
 * the owner's own rules, once (the ledger's unique key on the payment).
 */

/** Each owner kind's settlement of a proven payment of one of its orders. */
export type PaymentSettlers = Record<PaymentOwnerKind, (payment: ProvenPayment) => Promise<object | null>>;

type WebhookEvent = { event?: unknown; payload?: { payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown; currency?: unknown } } } };

/**
 * Input: the raw body and its X-Razorpay-Signature. Returns whether the event settled a payment of
 * one of our orders, and whose. Other events, and orders no owner made, are acknowledged and
 * ignored. Errors: ForbiddenError (bad signature, or no webhook secret), InvalidInputError (not
 * JSON), PaymentError (Razorpay could not be asked what was paid: it sends the event again).
 */
export async function handlePaymentWebhook(
  services: LedgerServices & { payments: PaymentGateway | null },
  input: { rawBody: string; signature: string },
  settlers: PaymentSettlers,
): Promise<{ handled: boolean; owner?: PaymentOwnerKind }> {
  if (!services.payments || !services.payments.verifyWebhookSignature(input.rawBody, input.signature)) throw new ForbiddenError(t('webhookSignature'));
  let event: WebhookEvent;
  try {
    event = JSON.parse(input.rawBody) as WebhookEvent;
  } catch {
    throw new InvalidInputError(t('webhookNotJson'));
  }
  if (event.event !== 'payment.captured' && event.event !== 'order.paid') return { handled: false };
  const payment = event.payload?.payment?.entity;
  if (!payment || typeof payment.id !== 'string' || typeof payment.order_id !== 'string') return { handled: false };
  const owner = await ownerOfOrder(services.database.db, payment.order_id);
  if (!owner) return { handled: false };
  // The signed event says what was paid; without those fields, Razorpay is asked.
  const paid =
    typeof payment.amount === 'number' && typeof payment.currency === 'string'
      ? { amountPaise: payment.amount, currency: payment.currency }
      : await services.payments.fetchPayment(payment.id);
  const settled = await settlers[owner.kind]({ orderId: payment.order_id, paymentId: payment.id, amountPaise: paid.amountPaise, currency: paid.currency });
  return settled === null ? { handled: false } : { handled: true, owner: owner.kind };
}
