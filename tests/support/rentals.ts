import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalStorage } from '../../server/media/storage.ts';
import type { ChecklistInput } from '../../server/rentals/checklists.ts';
import { CHECKLIST_ITEMS } from '../../app/features/rentals/rental-checklist.ts';
import sharp from 'sharp';
import { createSettingsCache, type Settings } from '../../server/admin/settings.ts';
import { createCategory, createVehicle } from '../../server/catalog/vehicles.ts';
import type { Clock } from '../../server/clock.ts';
import type { Database } from '../../server/db/connection.ts';
import { saveRentalTerms } from '../../server/rentals/fleet.ts';
import type { RentalServices } from '../../server/rentals/store.ts';
import type { RentalDeskServices } from '../../server/rentals/lifecycle.ts';
import type { PaymentGateway } from '../../server/payments/gateway.ts';
import { createLogger } from '../../server/logger.ts';
import { createMailer } from '../../server/notify/mail.ts';
import { createJobSignal } from '../../server/jobs/worker.ts';
import type { RentalTermsInput } from '../../app/features/rentals/rentals.ts';
import { openServerDatabase } from './database.ts';
import type { HttpClient } from './http-client.ts';
import type { VehicleInput } from '../../app/lib/vehicle.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * Rental fixtures for tests of the rental services against a real database (both dialects):
 * a fleet car with terms, a renter with a verified phone and a licence, and a clock the test
 * moves by hand.
 */

export const swiftTerms: RentalTermsInput = {
  hourlyRate: 150,
  dailyRate: 1800,
  weeklyRate: null,
  kmPerDay: 240,
  extraKmRate: 12,
  deposit: 5000,
  fuelPolicy: 'full-to-full',
  minAge: 21,
  minHours: 4,
  seats: 5,
  commercialRegistration: true,
  deliveryAvailable: true,
};

export type MovableClock = Clock & { set(ms: number): void; advance(ms: number): void };

export function movableClock(startMs: number): MovableClock {
  let now = startMs;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** The services the rental functions take, over a test database, with a hand-moved clock. */
export function rentalServices(database: Database, clock: Clock): RentalServices {
  return {
    database,
    clock,
    settingsCache: createSettingsCache({ ttlMs: 0, clock }),
    config: { siteName: 'Gaadi Bazaar', adminEmails: ['admin@gaadibazaar.in'], contactAddress: 'Andheri East hub' },
  };
}

/** The rental services plus mail and SMS into the outbox, and an optional payment adapter. */
export function deskServices(database: Database, clock: Clock, payments: PaymentGateway | null = null): RentalDeskServices {
  const logger = createLogger('silent');
  const config = {
    siteName: 'Gaadi Bazaar',
    adminEmails: ['admin@gaadibazaar.in'],
    contactAddress: 'Andheri East hub',
    siteOrigin: 'http://localhost:4220',
    mode: 'test' as const,
    outboxEnabled: true,
    mail: { smtpUrl: undefined, from: 'Gaadi Bazaar <no-reply@gaadibazaar.in>' },
    sms: { provider: 'outbox' as const },
  };
  return {
    ...rentalServices(database, clock),
    config: config as unknown as RentalDeskServices['config'],
    logger,
    mailer: createMailer({ config, database, logger, clock }),
    jobs: createJobSignal(),
    payments,
    privateStorage: createLocalStorage(mkdtempSync(path.join(tmpdir(), 'gaadi-private-'))),
  };
}

/** A small JPEG in one colour, as a phone's checklist photo stands in. */
export async function colourPhoto(seed: number): Promise<Uint8Array> {
  const colour = { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 31) % 256 };
  return new Uint8Array(
    await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
      .jpeg()
      .toBuffer(),
  );
}

/** A complete checklist (the five required photos) with these damage notes, for the services. */
export async function fullChecklist(damage: Array<{ note: string; isNew?: boolean; charge?: number }> = []): Promise<ChecklistInput> {
  const photos: ChecklistInput['photos'] = {};
  for (const [index, item] of CHECKLIST_ITEMS.entries()) photos[item] = { name: `${item}.jpg`, source: await colourPhoto(index + 1) };
  return {
    photos,
    damage: await Promise.all(damage.map(async (item, index) => ({ ...item, photo: { name: `damage-${index}.jpg`, source: await colourPhoto(40 + index) } }))),
  };
}

/** The outbox messages to one recipient, oldest first. */
export async function outboxFor(database: Database, recipient: string) {
  const rows = await database.db
    .selectFrom('outbox_messages')
    .select(['channel', 'subject', 'body'])
    .where('recipient', '=', recipient.toLowerCase())
    .orderBy('id')
    .execute();
  return rows;
}

/** Saves rental settings as the admin form would. */
export async function saveRentalSettings(database: Database, values: Partial<Settings>): Promise<void> {
  const now = new Date().toISOString();
  for (const [key, value] of Object.entries(values)) {
    await database.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_by: 'test', updated_at: now })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
  }
}

let categoryId: number | null = null;
const categoryIds = new WeakMap<Database, number>();

/** A rental fleet car with these terms; returns its id. */
export async function addFleetCar(
  services: Pick<RentalServices, 'database' | 'clock'>,
  name = 'Swift Self Drive',
  terms: RentalTermsInput = swiftTerms,
): Promise<number> {
  categoryId = categoryIds.get(services.database) ?? null;
  if (categoryId === null) {
    categoryId = await createCategory(services.database, { name: `Rental Cars ${randomUUID().slice(0, 8)}` }, services.clock.now());
    categoryIds.set(services.database, categoryId);
  }
  const input: VehicleInput = {
    categoryId,
    name,
    make: 'Maruti Suzuki',
    model: 'Swift',
    variant: 'VXi',
    year: '2023',
    fuelType: 'Petrol',
    transmission: 'Manual',
    price: '',
    owners: '1st Owner',
    registration: 'MH-02',
    insuranceValidity: '',
    fitnessFC: '',
    tyrePoint: '',
    description: '',
    featured: false,
    odometer: 29000,
    inspection: null,
    refurbishment: null,
    financial: null,
    videoUrl: '',
    bodyType: 'hatchback',
    colour: '',
  } satisfies VehicleInput;
  const id = await createVehicle(services.database, input, [], services.clock.now());
  await saveRentalTerms(services, { vehicleId: id, terms });
  return id;
}

/** A fleet car added straight into a running test server's database (as the admin's form would); returns its id. */
export async function addFleetCarOn(
  server: { dataDir: string; databaseUrl: string | undefined },
  name: string,
  terms: RentalTermsInput = swiftTerms,
): Promise<number> {
  const database = openServerDatabase(server);
  try {
    return await addFleetCar({ database, clock: { now: () => Date.now() } }, name, terms);
  } finally {
    await database.close();
  }
}

/** A renter with a verified phone and, unless told otherwise, an approved licence; returns the user id. */
export async function addRenter(
  database: Database,
  options: { phoneVerified?: boolean; licence?: 'pending' | 'approved' | 'refused' | null; dateOfBirth?: string; email?: string } = {},
): Promise<{ userId: string; email: string; phone: string }> {
  const userId = randomUUID();
  const email = options.email ?? `renter-${userId.slice(0, 8)}@example.in`;
  const phone = `+9198${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const now = new Date().toISOString();
  await database.db
    .insertInto('profiles')
    .values({
      user_id: userId,
      email,
      name: 'Asha Verma',
      photo_url: '',
      phone,
      phone_verified: options.phoneVerified === false ? 0 : 1,
      created_at: now,
      last_login_at: now,
      updated_at: now,
    })
    .execute();
  const licence = options.licence === undefined ? 'approved' : options.licence;
  if (licence) {
    await database.db
      .insertInto('driving_licences')
      .values({
        user_id: userId,
        number: 'MH0220190012345',
        date_of_birth: options.dateOfBirth ?? '1990-05-17',
        front_key: 'licences/x-front',
        back_key: 'licences/x-back',
        status: licence,
        refusal_reason: licence === 'refused' ? 'The photo is blurred' : null,
        reviewed_by: null,
        reviewed_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return { userId, email, phone };
}

/** `2026-12-01T10:00`-style text for a moment, as requests write it. */
export const param = indiaDateTimeParam;

/** A phone's JPEG photo of one side of a licence, in one colour. */
async function licencePhoto(colour: { r: number; g: number; b: number }): Promise<Blob> {
  const bytes = await sharp({ create: { width: 900, height: 560, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

/** Sends a driving licence (number, date of birth, photos of both sides) through the app's API as `client`'s person. */
export async function sendLicence(client: HttpClient, number: string, dateOfBirth: string): Promise<Response> {
  const form = new FormData();
  form.append('number', number);
  form.append('dateOfBirth', dateOfBirth);
  form.append('front', await licencePhoto({ r: 30, g: 110, b: 160 }), 'front.jpg');
  form.append('back', await licencePhoto({ r: 160, g: 50, b: 50 }), 'back.jpg');
  return client.request('/api/v1/me/licence', { method: 'POST', body: form });
}
