import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { installationId } from '../../server/db/installation.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createRazorpayGateway } from '../../server/payments/razorpay.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import { requestBooking, type RentalDeskServices } from '../../server/rentals/lifecycle.ts';
import { confirmCheckoutPayment, startOnlinePayment } from '../../server/rentals/payments.ts';
import { retryOwedRefunds } from '../../server/payments/refunds.ts';
import { confirmReservationPayment, startReservation, type ReservationServices } from '../../server/reservations/reservations.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCar, addRenter, deskServices, movableClock, saveRentalSettings, type MovableClock } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { createPostgresDatabase, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Two installations of the site on one Razorpay account (a staging beside the production, or a
 * site moved to a fresh database), on both databases: each refunds its own payments exactly
 * once, although their bookings, reservations and refunds have the same row ids, and a refund
 * answer that is not the refund asked for is never recorded as refunded (docs/decisions/093).
 * One Razorpay stand-in is the shared account: like Razorpay it answers a refund idempotency
 * key it has seen with that key's first refund, whatever payment the request names.
 *
 * The paid bookings and reservations are made by the services in the test against each
 * server's database, with a clock two days ahead (the servers' minute jobs never reach them);
 * the desk refuses and cancels them through each server's own pages, so each server's own
 * refund code and installation id are what Razorpay is asked with.
 */

const { dialect, url: sharedUrl } = sharedServer();

/** The payments ledger's refunds of one owner kind (server/payments/ledger.ts). */
const refundRows = (database: Database, kind: 'rental-booking' | 'reservation') =>
  database.db.selectFrom('payment_ledger').where('entry', '=', 'refund').where('owner_kind', '=', kind);
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const DAY = 24 * HOUR_MS;
const startMs = Date.now() + 2 * DAY;
const base = Math.ceil((startMs + 4 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;
/** Rent 1,800 + 18% GST for a day of the fixture car, in paise. */
const RENT_PAISE = 212_400;

type Site = {
  name: string;
  server: TestServer;
  database: Database;
  clock: MovableClock;
  services: ReservationServices & RentalDeskServices;
  admin: HttpClient;
  offset: number;
  tokenPaise: number;
};

describe.skipIf(!sharedUrl)(`refunds of two installations on one Razorpay account (${dialect})`, () => {
  let standin: RazorpayStandin;
  const sites: Site[] = [];

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    const env = {
      APP_MODE: 'demo',
      DEMO_ADMIN_PASSWORD: PASSWORD,
      ADMIN_EMAILS: ADMIN,
      RAZORPAY_KEY_ID: STANDIN_KEY_ID,
      RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
      RAZORPAY_API_URL: standin.url,
      RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
    };
    // One after the other: two cores, and each start migrates and warms up.
    for (const [name, tokenRupees] of [
      ['production', 5000],
      ['staging', 6000],
    ] as const) {
      const server = await startTestServer({ dialect, seed: true, env });
      const database = openServerDatabase(server);
      // The staging's token differs, so its refund requests differ from the production's too.
      if (tokenRupees !== 5000) await saveRentalSettings(database, { reservationAmount: tokenRupees });
      const clock = movableClock(startMs);
      const desk = deskServices(
        database,
        clock,
        createRazorpayGateway({ keyId: STANDIN_KEY_ID, keySecret: STANDIN_KEY_SECRET, webhookSecret: STANDIN_WEBHOOK_SECRET, apiUrl: standin.url }),
      );
      const services = {
        ...desk,
        config: { ...desk.config, sellerPhone: '+919876543210' },
        pageCache: { clear: () => {} },
        listingTotals: { clear: () => {} },
        changeNotices: { announce: async () => {} },
      } as unknown as ReservationServices & RentalDeskServices;
      const admin = new HttpClient(server.url);
      expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
      sites.push({ name, server, database, clock, services, admin, offset: 0, tokenPaise: tokenRupees * 100 });
    }
  }, 400_000);

  afterAll(async () => {
    standin?.misanswerRefunds(null);
    for (const site of sites) {
      await site.database.close();
      await site.server.stop();
    }
    await standin?.close();
  });

  const refundsOf = (paymentId: string) => standin.refunds.filter((refund) => refund.payment_id === paymentId);

  /** A day's online booking of a fleet car of its own, paid in full through Checkout. */
  async function paidBooking(site: Site) {
    const carId = await addFleetCar(site.services, `Refund Key Swift ${site.offset}`);
    const renter = await addRenter(site.database);
    const fromMs = base + site.offset++ * 2 * DAY;
    const booking = await requestBooking(site.services, {
      userId: renter.userId,
      vehicleId: carId,
      fromMs,
      toMs: fromMs + DAY,
      pickup: 'hub',
      paymentMethod: 'razorpay',
    });
    const { orderId } = await startOnlinePayment(site.services, { userId: renter.userId, bookingId: booking.id });
    const paid = standin.pay(orderId);
    await confirmCheckoutPayment(site.services, {
      userId: renter.userId,
      bookingId: booking.id,
      orderId,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    return { bookingId: booking.id, paymentId: paid.razorpay_payment_id };
  }

  /** A reservation of a car for sale, its token paid through Checkout. */
  async function paidReservation(site: Site, carId: number) {
    const person = await addRenter(site.database, { licence: null });
    const checkout = await startReservation(site.services, { userId: person.userId, vehicleId: carId });
    const paid = standin.pay(checkout.orderId);
    await confirmReservationPayment(site.services, {
      userId: person.userId,
      reservationId: checkout.reservationId,
      orderId: checkout.orderId,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    return { reservationId: checkout.reservationId, paymentId: paid.razorpay_payment_id };
  }

  async function refuseAtDesk(site: Site, bookingId: number) {
    const answer = await site.admin.postForm(`/admin/rentals/bookings/${bookingId}`, { intent: 'refuse', reason: 'The car is in the workshop' });
    expect(answer.status).toBe(302);
  }

  async function cancelAtDesk(site: Site, reservationId: number) {
    const answer = await site.admin.postForm(`/admin/reservations/${reservationId}`, { intent: 'cancel', backTo: '/admin-panel' });
    expect(answer.status).toBe(303);
  }

  async function installationIdOf(site: Site): Promise<string> {
    return (await site.database.db.selectFrom('installation').select('installation_id').where('id', '=', 1).executeTakeFirstOrThrow()).installation_id;
  }

  it('bookings and reservations with the same row ids on a production and a staging: each payment is refunded once, each site records exactly its own refunds', async () => {
    const [production, staging] = sites as [Site, Site];
    const saleCars = (
      await production.database.db
        .selectFrom('vehicles')
        .select('id')
        .where('purpose', '=', 'sale')
        .where('status', '=', 'available')
        .orderBy('id')
        .limit(2)
        .execute()
    ).map((row) => Number(row.id));
    expect(saleCars).toHaveLength(2);

    type Paid = { bookings: Array<{ bookingId: number; paymentId: string }>; reservations: Array<{ reservationId: number; paymentId: string }> };
    const paid = new Map<Site, Paid>();
    for (const site of sites) {
      const bookings = [await paidBooking(site), await paidBooking(site)];
      const reservations = [await paidReservation(site, saleCars[0]!), await paidReservation(site, saleCars[1]!)];
      paid.set(site, { bookings, reservations });
    }
    const ours = paid.get(production)!;
    const theirs = paid.get(staging)!;
    // The two sites' rows have the same ids (both started from the same database), their payments are apart.
    expect(theirs.bookings.map((booking) => booking.bookingId)).toEqual(ours.bookings.map((booking) => booking.bookingId));
    expect(theirs.reservations.map((reservation) => reservation.reservationId)).toEqual(ours.reservations.map((reservation) => reservation.reservationId));
    expect(new Set([...paid.values()].flatMap((site) => [...site.bookings, ...site.reservations].map((item) => item.paymentId))).size).toBe(8);

    // The desk refuses the bookings and cancels the reservations, the production first, then the staging.
    for (const site of sites) {
      for (const { bookingId } of paid.get(site)!.bookings) await refuseAtDesk(site, bookingId);
      for (const { reservationId } of paid.get(site)!.reservations) await cancelAtDesk(site, reservationId);
    }

    // Razorpay: every payment refunded exactly once, in full.
    for (const site of sites) {
      const { bookings, reservations } = paid.get(site)!;
      for (const { paymentId } of bookings)
        expect(
          refundsOf(paymentId).map((refund) => refund.amount),
          `${site.name} ${paymentId}`,
        ).toEqual([RENT_PAISE]);
      for (const { paymentId } of reservations)
        expect(
          refundsOf(paymentId).map((refund) => refund.amount),
          `${site.name} ${paymentId}`,
        ).toEqual([site.tokenPaise]);
    }
    expect(standin.refunds).toHaveLength(8);

    // Each site: its refund rows refunded with the refund Razorpay made for that very payment, the same row ids as the other site's.
    const rowIds = new Map<Site, number[]>();
    for (const site of sites) {
      const { bookings, reservations } = paid.get(site)!;
      const rentalRows = await refundRows(site.database, 'rental-booking')
        .select(['id', 'payment_id', 'status', 'provider_refund_id', 'amount_paise'])
        .where(
          'payment_id',
          'in',
          bookings.map((booking) => booking.paymentId),
        )
        .orderBy('id')
        .execute();
      const reservationRows = await refundRows(site.database, 'reservation')
        .select(['id', 'payment_id', 'status', 'provider_refund_id', 'amount_paise'])
        .where(
          'payment_id',
          'in',
          reservations.map((reservation) => reservation.paymentId),
        )
        .orderBy('id')
        .execute();
      expect(rentalRows).toHaveLength(2);
      expect(reservationRows).toHaveLength(2);
      for (const row of [...rentalRows, ...reservationRows]) {
        expect(row.status, `${site.name} refund ${row.id}`).toBe('refunded');
        expect(row.provider_refund_id).toBe(refundsOf(row.payment_id!)[0]!.id);
      }
      rowIds.set(
        site,
        [...rentalRows, ...reservationRows].map((row) => Number(row.id)),
      );
      for (const { bookingId } of bookings)
        expect(await getBooking(site.database, bookingId)).toMatchObject({ status: 'refused', amountPaid: 2124, amountRefunded: 2124, refundOwedPaise: 0 });
      for (const { reservationId } of reservations) {
        const reservation = await site.database.db
          .selectFrom('car_reservations')
          .select(['status', 'amount_refunded_paise'])
          .where('id', '=', reservationId)
          .executeTakeFirstOrThrow();
        expect({ status: reservation.status, refunded: Number(reservation.amount_refunded_paise) }).toEqual({ status: 'cancelled', refunded: site.tokenPaise });
      }
    }
    expect(rowIds.get(staging)).toEqual(rowIds.get(production));

    // The keys sent: one per refund, each naming its payment and its site's own installation.
    const [productionId, stagingId] = [await installationIdOf(production), await installationIdOf(staging)];
    expect(productionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stagingId).not.toBe(productionId);
    const keys = standin.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/refund')).map((request) => request.idempotencyKey!);
    expect(new Set(keys).size).toBe(8);
    for (const [site, installation] of [
      [production, productionId],
      [staging, stagingId],
    ] as const) {
      const { bookings, reservations } = paid.get(site)!;
      for (const { paymentId } of bookings)
        expect(keys.filter((key) => key.includes(paymentId) && key.endsWith(installation) && key.startsWith('ledger-rental-booking-'))).toHaveLength(1);
      for (const { paymentId } of reservations)
        expect(keys.filter((key) => key.includes(paymentId) && key.endsWith(installation) && key.startsWith('ledger-reservation-'))).toHaveLength(1);
    }

    // Retries later on either site ask nothing more.
    for (const site of sites) {
      site.clock.set(startMs + DAY);
      expect(await retryOwedRefunds(site.services)).toEqual({ refunded: 0, owed: 0 });
    }
    expect(standin.refunds).toHaveLength(8);
  });

  it("a refund answered with another payment's refund, or another amount, stays owed and is not counted; once Razorpay answers properly it is refunded once", async () => {
    const [production] = sites as [Site];
    production.clock.set(startMs);
    const { bookingId, paymentId } = await paidBooking(production);
    const refundsBefore = standin.refunds.length;

    standin.misanswerRefunds('another-payment');
    production.server.expectErrorLog(/answered with a refund of another payment or amount/);
    await refuseAtDesk(production, bookingId);
    await production.server.waitForOutput(/answered with a refund of another payment or amount/);
    const owed = await refundRows(production.database, 'rental-booking')
      .select(['status', 'provider_refund_id', 'last_error', 'attempts'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(owed).toMatchObject({ status: 'owed', provider_refund_id: null });
    expect(owed.last_error).toMatch(
      new RegExp(
        `Razorpay answered with refund rfnd_\\w+ \\(payment pay_\\w+, ${RENT_PAISE} paise\\) instead of a refund of ${RENT_PAISE} paise of payment ${paymentId}; it is not counted as refunded\\.`,
      ),
    );
    expect(owed.last_error).not.toContain(`(payment ${paymentId},`);
    expect(await getBooking(production.database, bookingId)).toMatchObject({ status: 'refused', amountRefunded: 0, refundOwedPaise: RENT_PAISE });

    // A refund of this payment but of another amount is no better.
    standin.misanswerRefunds('another-amount');
    production.clock.set(startMs + DAY);
    expect(await retryOwedRefunds(production.services)).toEqual({ refunded: 0, owed: 1 });
    const still = await refundRows(production.database, 'rental-booking')
      .select(['status', 'last_error'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(still.status).toBe('owed');
    expect(still.last_error).toContain(`(payment ${paymentId}, ${RENT_PAISE - 100} paise) instead of a refund of ${RENT_PAISE} paise`);
    expect(await getBooking(production.database, bookingId)).toMatchObject({ amountRefunded: 0, refundOwedPaise: RENT_PAISE });
    expect(standin.refunds.length).toBe(refundsBefore);

    standin.misanswerRefunds(null);
    production.clock.set(startMs + 2 * DAY);
    expect(await retryOwedRefunds(production.services)).toEqual({ refunded: 1, owed: 0 });
    expect(refundsOf(paymentId).map((refund) => refund.amount)).toEqual([RENT_PAISE]);
    const done = await refundRows(production.database, 'rental-booking')
      .select(['status', 'provider_refund_id'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(done).toEqual({ status: 'refunded', provider_refund_id: refundsOf(paymentId)[0]!.id });
    expect(await getBooking(production.database, bookingId)).toMatchObject({ amountRefunded: 2124, refundOwedPaise: 0 });
  });

  it('the instances of one site read one installation id, made once however many ask at once, then kept; another database makes its own', async () => {
    /** An empty migrated database of this dialect, opened twice: two instances of one site. */
    async function oneSiteTwice() {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-installation-'));
      const created = dialect === 'postgres' ? await createPostgresDatabase() : null;
      const instances = [openDatabase({ dataDir, databaseUrl: created?.url }), openDatabase({ dataDir, databaseUrl: created?.url })] as const;
      await migrateToLatest(instances[0]);
      return {
        instances,
        cleanup: async () => {
          for (const database of instances) await database.close();
          await created?.drop();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    }
    const clock = movableClock(startMs);
    const site = await oneSiteTwice();
    const other = await oneSiteTwice();
    try {
      const ids = await Promise.all(Array.from({ length: 10 }, (_, index) => installationId({ database: site.instances[index % 2]!, clock })));
      expect(new Set(ids).size).toBe(1);
      const rows = await site.instances[0].db.selectFrom('installation').selectAll().execute();
      expect(rows).toEqual([{ id: 1, installation_id: ids[0], created_at: new Date(startMs).toISOString() }]);
      // Read once: the id is kept by each instance, whatever happens to the row afterwards.
      await site.instances[0].db.deleteFrom('installation').execute();
      expect(await installationId({ database: site.instances[1], clock })).toBe(ids[0]);
      expect(await installationId({ database: other.instances[0], clock })).not.toBe(ids[0]);
    } finally {
      await site.cleanup();
      await other.cleanup();
    }
  });
});
