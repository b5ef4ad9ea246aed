import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import { rentalFacts } from '../../app/features/rentals/rental-facts.ts';
import { amountInWords } from '../../app/features/sales/amount-in-words.ts';
import { rupeesToPaise } from '../../app/lib/money.ts';
import { saveLanguageChoice } from '../../server/accounts/profiles.ts';
import { documentsOfUser, openDocument } from '../../server/documents/documents.ts';
import { createBooking, getBooking } from '../../server/rentals/bookings.ts';
import { confirmBooking, handOver, returnCar, settleDeposit, type RentalDeskServices } from '../../server/rentals/lifecycle.ts';
import { issueRentalDocuments, runRentalDocumentsJob } from '../../server/rentals/rental-documents.ts';
import { rentalPolicy } from '../../server/rentals/store.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { addFleetCar, addRenter, deskServices, fullChecklist, movableClock, saveRentalSettings } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * A rental's documents (docs/decisions/119) on SQLite and PostgreSQL: the agreement at the
 * confirmation and the tax invoice at the settlement, read back with pdftotext in English and
 * Hindi; the rental series consecutive under twenty settlements at once; no invoice without
 * the dealer's GSTIN (the booking settles, the desk is told why); nobody else downloads them.
 */

const { dialect } = sharedServer();
const DAY = 24 * HOUR_MS;
const ADMIN = 'admin@gaadibazaar.in';
/** A real GSTIN whose check character holds (Maharashtra, state 27). */
const GSTIN = '27AAPFU0939F1ZV';
const DEALER = { dealerLegalName: 'Gaadi Bazaar Motors LLP', dealerAddress: 'Andheri East, Mumbai 400069', dealerGstin: GSTIN };

let opened: TestDatabase;
let services: RentalDeskServices;
const startMs = Date.parse('2026-11-20T06:30:00Z');
const clock = movableClock(startMs);
const base = Math.ceil((startMs + 5 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;

beforeAll(async () => {
  opened = await openTestDatabase(dialect);
  services = deskServices(opened.database, clock);
});
afterAll(async () => opened?.cleanup());

/** A document's text as poppler's pdftotext reads it (NFC, so a nukta reads one way). */
async function documentText(id: number): Promise<string> {
  const file = await openDocument(services, id, { desk: true });
  expect(file).not.toBeNull();
  const bytes = Buffer.from(await new Response(file!.body).arrayBuffer());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8').normalize('NFC');
}

/** A booking confirmed by the desk (the renter's licence approved), `carName` its car. */
async function confirmedBooking(options: { language?: 'en' | 'hi'; fromMs?: number; carName?: string } = {}) {
  clock.set(startMs);
  const carName = options.carName ?? `Docs Swift ${Math.random().toString(36).slice(2, 7)}`;
  const carId = await addFleetCar(services, carName);
  const renter = await addRenter(opened.database);
  if (options.language) await saveLanguageChoice(opened.database, renter.userId, options.language);
  const fromMs = options.fromMs ?? base;
  const booking = await createBooking(services, { userId: renter.userId, vehicleId: carId, fromMs, toMs: fromMs + 51 * HOUR_MS, pickup: 'hub' });
  await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
  return { renter, booking, carName };
}

/** Handed over with the pickup's money, taken back 50 km over the allowance and an hour late (₹800 of charges), not yet settled. */
async function returnedBooking(options: { language?: 'en' | 'hi'; fromMs?: number } = {}) {
  const made = await confirmedBooking(options);
  const { booking } = made;
  clock.set(booking.fromMs);
  await handOver(services, {
    bookingId: booking.id,
    odometerOut: 10_000,
    fuelOut: 8,
    checklist: await fullChecklist(),
    collected: { amountPaise: rupeesToPaise(booking.quote.dueAtPickup), method: 'cash', reference: '' },
    actorEmail: ADMIN,
  });
  const returnedMs = booking.toMs + 1.5 * HOUR_MS;
  clock.set(returnedMs + 10 * 60_000);
  await returnCar(services, {
    bookingId: booking.id,
    odometerIn: 10_000 + 720 + 50,
    fuelIn: 8,
    returnedMs,
    fuelCharge: 0,
    checklist: await fullChecklist(),
    actorEmail: ADMIN,
  });
  return made;
}

const cash = { amountPaise: null, method: 'cash', reference: '' };

/**
 * Hindi as pdftotext reads it back: the i-matra where it is drawn, before its consonant (or
 * conjunct). The PDF is shaped right (looked at, decision 119); the text layer is in visual order.
 */
const asRead = (text: string) =>
  text.normalize('NFC').replace(/((?:[\u0915-\u0939\u0958-\u095F]\u093C?\u094D)*[\u0915-\u0939\u0958-\u095F]\u093C?)\u093F/g, '\u093F$1');

describe(`a rental's documents on ${dialect}`, () => {
  it('without the GSTIN in the settings the booking still settles, without an invoice, and the desk is told why; the agreement needs none', async () => {
    const { booking, renter } = await returnedBooking();
    const closed = await settleDeposit(services, { bookingId: booking.id, money: cash, actorEmail: ADMIN });
    expect(closed).toMatchObject({ status: 'closed', invoice: null, invoiceWithheld: 'dealer-gstin-missing' });
    const documents = await issueRentalDocuments(services, closed);
    expect(documents.map((document) => document.kind)).toEqual(['rental-agreement']);
    expect((await documentsOfUser(opened.database, renter.userId)).map((document) => document.number)).toEqual([`RA-${booking.id}`]);
  });

  it('confirmed: the agreement (made by the job) names the renter, the licence, the car, the charges and the terms from the terms page, in English', async () => {
    await saveRentalSettings(opened.database, DEALER);
    const { booking, renter, carName } = await confirmedBooking();
    // The confirmation queued the job; the worker's work, run here.
    const job = await opened.database.db
      .selectFrom('jobs')
      .select(['name', 'payload'])
      .where('name', '=', 'rental-documents')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ bookingId: booking.id });
    await runRentalDocumentsJob(services, JSON.parse(job.payload));
    const [agreement] = await documentsOfUser(opened.database, renter.userId);
    expect(agreement).toMatchObject({ kind: 'rental-agreement', number: `RA-${booking.id}`, language: 'en', ownerKind: 'rental-booking', ownerId: booking.id });
    const text = await documentText(agreement!.id);
    const terms = rentalFacts((await getBooking(opened.database, booking.id))!.terms, await rentalPolicy(services), 'en');
    for (const expected of [
      'Rental agreement',
      `RA-${booking.id}`,
      'Gaadi Bazaar Motors LLP',
      GSTIN,
      'Asha Verma',
      renter.phone,
      'MH0220190012345',
      carName,
      'MH-02',
      'Rent, 51 hours (2 days 3 hours)',
      '4,050.00',
      '5,000.00',
      'Terms',
      terms[0]!.label,
      terms[0]!.text.slice(0, 30),
    ])
      expect(text).toContain(expected);
  });

  it('settled: the tax invoice takes the rental series, names the GSTIN, adds its lines and tax up, says the amount in words; the deposit apart', async () => {
    const { booking, renter } = await returnedBooking();
    const closed = await settleDeposit(services, { bookingId: booking.id, money: cash, actorEmail: ADMIN });
    const invoice = closed.invoice!;
    expect(invoice.number).toMatch(/^RI\/2026-27\/\d{5}$/);
    expect(invoice.number).toHaveLength(16);
    // Rent ₹4,050 with its quoted GST ₹729; the charges ₹600 of extra km and ₹200 late hold 18%.
    expect(invoice.lines).toEqual([
      { kind: 'rent', sac: '997311', taxablePaise: 405_000, taxPaise: 72_900 },
      { kind: 'extra-km', sac: '997311', taxablePaise: 50_847, taxPaise: 9_153 },
      { kind: 'late', sac: '997311', taxablePaise: 16_949, taxPaise: 3_051 },
    ]);
    expect(invoice).toMatchObject({ taxablePaise: 472_796, taxPaise: 85_104, totalPaise: 557_900, depositPaise: 500_000, depositReturnedPaise: 420_000 });
    expect(invoice.taxLines).toEqual([
      { kind: 'cgst', rateBasisPoints: 900, amountPaise: 42_552 },
      { kind: 'sgst', rateBasisPoints: 900, amountPaise: 42_552 },
    ]);
    expect(invoice.taxablePaise + invoice.taxLines.reduce((sum, line) => sum + line.amountPaise, 0)).toBe(invoice.totalPaise);
    const documents = await issueRentalDocuments(services, closed);
    expect(documents.map((document) => document.kind)).toEqual(['rental-agreement', 'rental-invoice']);
    const text = await documentText(documents[1]!.id);
    for (const expected of [
      'Tax invoice',
      invoice.number,
      GSTIN,
      'Maharashtra (27)',
      'Asha Verma',
      '997311',
      '4,050.00',
      '4,727.96',
      'CGST at 9%',
      '425.52',
      '5,579.00',
      amountInWords(557_900, 'en'),
      'Deposit returned',
      '4,200.00',
    ])
      expect(text).toContain(expected);
    // The renter's own documents, and nobody else's: another person and another owner's id find nothing.
    expect((await documentsOfUser(opened.database, renter.userId)).map((document) => document.kind)).toEqual(['rental-invoice', 'rental-agreement']);
    expect(await openDocument(services, documents[1]!.id, { userId: renter.userId })).not.toBeNull();
    const stranger = await addRenter(opened.database);
    expect(await openDocument(services, documents[1]!.id, { userId: stranger.userId })).toBeNull();
    expect(await openDocument(services, documents[1]!.id, { desk: true }, { kind: 'sale', id: booking.id })).toBeNull();
    expect(await openDocument(services, documents[1]!.id, { desk: true }, { kind: 'rental-booking', id: booking.id + 1 })).toBeNull();
  });

  it('a renter who reads Hindi gets the agreement and the invoice in Hindi, the terms and the amount in Hindi words', async () => {
    const { booking } = await returnedBooking({ language: 'hi' });
    const closed = await settleDeposit(services, { bookingId: booking.id, money: cash, actorEmail: ADMIN });
    const documents = await issueRentalDocuments(services, closed);
    expect(documents.map((document) => [document.kind, document.language])).toEqual([
      ['rental-agreement', 'hi'],
      ['rental-invoice', 'hi'],
    ]);
    const agreement = await documentText(documents[0]!.id);
    const terms = rentalFacts(closed.terms, await rentalPolicy(services), 'hi');
    for (const expected of ['किराया अनुबंध', 'किराएदार', 'अनुबंध संख्या', 'डीलर के यहाँ', terms[0]!.text.slice(0, 10), terms[1]!.label, `RA-${booking.id}`])
      expect(agreement).toContain(asRead(expected));
    const invoice = await documentText(documents[1]!.id);
    for (const expected of ['कर बीजक', GSTIN, closed.invoice!.number, '5,579.00', 'पाँच हज़ार पाँच सौ उनासी रुपये मात्र', '4,200.00', '5,579.00', 'CGST 9%'])
      expect(invoice).toContain(asRead(expected));
  });

  it('twenty settlements at once take twenty consecutive numbers of the rental series', async () => {
    const returned = [];
    for (let index = 0; index < 20; index += 1) returned.push(await returnedBooking());
    const settled = await Promise.all(returned.map(({ booking }) => settleDeposit(services, { bookingId: booking.id, money: cash, actorEmail: ADMIN })));
    const serials = settled.map((booking) => Number(booking.invoice!.number.slice(-5))).sort((a, b) => a - b);
    expect(new Set(serials).size).toBe(20);
    expect(serials.at(-1)! - serials[0]!).toBe(19);
  }, 240_000);
});
