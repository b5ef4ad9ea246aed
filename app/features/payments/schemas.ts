import { z } from 'zod';

/**
 * What Razorpay's webhook posts, as far as the server reads it (server/payments/webhook.ts,
 * decision 106), for the API's document: the server checks the signature of the raw body and
 * reads these fields itself; anything else in the event is Razorpay's and ignored.
 */
export const razorpayEventSchema = z
  .looseObject({
    event: z.string().meta({ description: "The event's name; `payment.captured` and `order.paid` settle a payment, any other is acknowledged and ignored." }),
    payload: z
      .looseObject({
        payment: z
          .looseObject({ entity: z.looseObject({ id: z.string(), order_id: z.string(), amount: z.int().optional(), currency: z.string().optional() }) })
          .optional(),
      })
      .optional(),
  })
  .meta({ description: 'Signed by X-Razorpay-Signature: HMAC-SHA256 of the raw body with the webhook secret.' });
