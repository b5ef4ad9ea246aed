import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * A booking's quote as lines (docs/decisions/066): rent, damage protection, delivery and GST,
 * with the refundable deposit apart and collected at pickup. The renter's choices are columns
 * of the booking (`protection`, `delivery_address`); the lines stay in the `quote` JSON, as the
 * quote always was. Bookings made before keep what they were charged: their quote is rewritten
 * into the new shape with rent and delivery as lines, no GST, and (paid online) the deposit
 * inside the online payment, which is how it was taken. The shape is written out here, not
 * imported, so this migration means the same thing whatever the code becomes.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema
    .alterTable('rental_bookings')
    .addColumn('protection', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('rental_bookings')
    .addColumn('delivery_address', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const rows = await sql<{
    id: number;
    quote: string;
    payment_method: string;
  }>`select id, quote, payment_method from rental_bookings where kind = 'booking'`.execute(db);
  for (const row of rows.rows) {
    let stored: Record<string, unknown>;
    try {
      stored = JSON.parse(row.quote) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (Array.isArray(stored.lines)) continue;
    const hours = Number(stored.hours ?? 0);
    const rent = Number(stored.rent ?? 0);
    const deliveryFee = Number(stored.deliveryFee ?? 0);
    const deposit = Number(stored.deposit ?? 0);
    const online = row.payment_method === 'razorpay';
    const days = Math.floor(hours / 24);
    const rest = hours % 24;
    const duration =
      days === 0
        ? `${hours} hour${hours === 1 ? '' : 's'}`
        : `${hours} hours (${[`${days} day${days === 1 ? '' : 's'}`, ...(rest ? [`${rest} hour${rest === 1 ? '' : 's'}`] : [])].join(' ')})`;
    const total = rent + deliveryFee;
    const quote = {
      hours,
      rent,
      protection: 0,
      deliveryFee,
      gstPercent: 0,
      gst: 0,
      lines: [
        { kind: 'rent', label: `Rent, ${duration}`, amount: rent },
        ...(deliveryFee ? [{ kind: 'delivery', label: 'Delivery to your address', amount: deliveryFee }] : []),
      ],
      total,
      deposit,
      depositAt: online ? 'online' : 'pickup',
      kmIncluded: stored.kmIncluded ?? null,
      extraKmRate: Number(stored.extraKmRate ?? 0),
      payableNow: online ? total + deposit : 0,
      dueAtPickup: online ? 0 : total + deposit,
    };
    await sql`update rental_bookings set quote = ${JSON.stringify(quote)} where id = ${row.id}`.execute(db);
  }
}
