import { DELETE_CONFIRMATION_WORD, privacyMessages } from '../../app/lib/privacy.ts';
import { cardTitle } from '../../app/lib/vehicle.ts';
import type { Auth } from '../auth/auth.ts';
import type { Database } from '../db/connection.ts';
import { ConflictError, InvalidInputError, RateLimitedError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { eraseLeads, phoneDigits, type LeadIds } from '../leads/leads.ts';
import { sellImageUrls, withImages } from '../leads/sell.ts';
import { toVehicleRequest } from '../leads/requests.ts';
import type { Storage } from '../media/storage.ts';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import { discardImages } from '../catalog/admin-images.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { getProfile, type Profile } from './profiles.ts';
import { listWishlist } from './wishlist.ts';
import { OPEN_BOOKING_STATUSES } from '../../app/lib/rentals.ts';
import { getLicence } from '../rentals/licences.ts';
import { listOwnBookings } from '../rentals/bookings.ts';
import { checklistsOf } from '../rentals/checklists.ts';
import type { Clock } from '../clock.ts';
import { reservationQuery, toDeskReservation } from '../reservations/store.ts';
import { offerOf } from '../../app/lib/inspection-desk.ts';
import { accountText as t } from '../../app/lib/i18n/account.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * A person's rights under India's DPDP Act 2023 (docs/decisions/013): a copy of everything we
 * hold about them, and erasure of their account. Plain inputs, plain data; the /profile pages
 * and the Android API call the same functions.
 */

type ExportContext = { database: Database; siteOrigin: string; userId: string; profile: Profile | null; now: Date };

/**
 * One entry per kind of data, each gathered by its own function: a new feature that keeps
 * personal data (bookings, test drives) adds its section here and the download, the API and
 * the tests pick it up.
 */
const exportSections = {
  account: async ({ database, userId }: ExportContext) => {
    const user = await database.db.selectFrom('user').select(['id', 'email', 'name', 'emailVerified', 'createdAt']).where('id', '=', userId).executeTakeFirst();
    const methods = await database.db.selectFrom('account').select('providerId').where('userId', '=', userId).execute();
    if (!user) return null;
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: Boolean(user.emailVerified),
      createdAt: new Date(user.createdAt).toISOString(),
      signInMethods: methods.map((method) => (method.providerId === 'credential' ? 'password' : method.providerId)),
    };
  },
  profile: async ({ profile }: ExportContext) => profile,
  // The photos themselves stay private (the person sees them on /profile): the download says they are on file.
  drivingLicence: async ({ database, userId }: ExportContext) => {
    const licence = await getLicence(database, userId);
    if (!licence) return null;
    const { userId: _userId, ...record } = licence;
    return { ...record, photos: { front: t('photoOnFile'), back: t('photoOnFile'), note: t('licencePhotosNote') } };
  },
  rentalBookings: async ({ database, userId }: ExportContext) =>
    Promise.all((await listOwnBookings(database, userId, { all: true })).map(async (booking) => ({
      id: booking.id,
      vehicleId: booking.vehicleId,
      car: booking.carName,
      status: booking.status,
      from: booking.from,
      to: booking.to,
      pickup: booking.pickup,
      pinCode: booking.pinCode || null,
      quote: booking.quote,
      paymentMethod: booking.paymentMethod,
      amountPaid: booking.amountPaid,
      amountRefunded: booking.amountRefunded,
      odometerOut: booking.odometerOut,
      odometerIn: booking.odometerIn,
      returnedAt: booking.returnedAt,
      charges: booking.charges,
      depositRefund: booking.depositRefund,
      createdAt: booking.createdAt,
      // The handover and return readings and what each photo shows; the photos stay private, as the licence's.
      checklists: Object.values(await checklistsOf(database, booking.id))
        .filter((record) => record !== null)
        .map((record) => ({ stage: record.stage, odometer: record.odometer, fuelEighths: record.fuel, recordedAt: record.recordedAt, photos: record.photos.map(({ item, note, isNew, charge }) => ({ item, note, newDamage: isNew, charge, photo: 'on file' })) })),
    }))),
  wishlist: async ({ database, userId }: ExportContext) =>
    (await listWishlist(database, userId)).map((item) =>
      item.available
        ? { vehicleId: item.vehicle.id, title: cardTitle(item.vehicle), name: item.vehicle.name, year: item.vehicle.year, price: item.vehicle.price, available: true, addedAt: item.addedAt }
        : { vehicleId: item.vehicleId, title: item.title, available: false, addedAt: item.addedAt },
    ),
  vehicleRequests: async ({ database, profile }: ExportContext) => {
    const ids = await leadIdsOf(database, profile);
    if (ids.requestIds.length === 0) return [];
    const rows = await database.db.selectFrom('vehicle_requests').selectAll().where('id', 'in', ids.requestIds).orderBy('id').execute();
    // As the admin list shows them, without the time of the last admin change.
    return rows.map(toVehicleRequest).map(({ updatedAt: _updatedAt, ...request }) => request);
  },
  sellSubmissions: async ({ database, profile, siteOrigin }: ExportContext) => {
    const ids = await leadIdsOf(database, profile);
    if (ids.sellIds.length === 0) return [];
    const rows = await database.db.selectFrom('sell_submissions').selectAll().where('id', 'in', ids.sellIds).orderBy('id').execute();
    return (await withImages(database, rows)).map((submission) => ({
      id: submission.id,
      name: submission.name,
      phone: submission.phone,
      vehicle: submission.vehicle,
      year: submission.year,
      price: submission.price,
      description: submission.description,
      status: submission.status,
      notes: submission.notes,
      photos: sellImageUrls(siteOrigin, submission.images),
      createdAt: submission.createdAt,
    }));
  },
  testDrives: async ({ database, userId }: ExportContext) =>
    (await database.db.selectFrom('test_drives').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map((row) => ({
      id: row.id,
      vehicleId: row.vehicle_id,
      vehicle: row.vehicle_title,
      mode: row.mode,
      pinCode: row.pin_code,
      street: row.street,
      landmark: row.landmark,
      name: row.name,
      phone: row.phone,
      email: row.email,
      slotStart: row.slot_start,
      status: row.status,
      remindedAt: row.reminded_at,
      createdAt: row.created_at,
    })),
  // Every reservation, paid or not, with the contact details given for it (decision 080).
  reservations: async ({ database, userId }: ExportContext) =>
    (await reservationQuery(database.db).where('car_reservations.user_id', '=', userId).orderBy('car_reservations.id').execute()).map((row) => {
      const { userId: _userId, paymentOrderId: _order, ...reservation } = toDeskReservation(row);
      return reservation;
    }),
  // The seller's car, the estimate they were shown and the inspection they booked (decision 081).
  inspections: async ({ database, userId, now }: ExportContext) =>
    (await database.db.selectFrom('inspections').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map((row) => ({
      id: row.id,
      car: JSON.parse(row.car) as unknown,
      estimate: JSON.parse(row.estimate) as unknown,
      mode: row.mode,
      pinCode: row.pin_code || null,
      street: row.street || null,
      landmark: row.landmark || null,
      name: row.name,
      phone: row.phone,
      email: row.email,
      slotStart: indiaDateTimeParam(row.slot_start),
      status: row.status,
      // What the desk recorded of the car and the offer made for it (decision 084).
      condition: row.condition ? (JSON.parse(row.condition) as unknown) : null,
      notes: row.notes,
      odometer: row.odometer,
      photos: row.photos ? (JSON.parse(row.photos) as unknown[]).length : 0,
      recordedAt: row.recorded_at,
      offer: offerOf(row, now.getTime()),
      createdAt: row.created_at,
    })),
};

export type PersonalDataExport = { exportedAt: string; site: string } & {
  [Section in keyof typeof exportSections]: Awaited<ReturnType<(typeof exportSections)[Section]>>;
};

/** Everything we hold about this person, as one JSON-ready object. */
export async function exportPersonalData(input: { database: Database; siteOrigin: string; userId: string }, now: Date): Promise<PersonalDataExport> {
  const context: ExportContext = { ...input, profile: await getProfile(input.database, input.userId), now };
  const entries = await Promise.all(Object.entries(exportSections).map(async ([key, gather]) => [key, await gather(context)] as const));
  return { exportedAt: now.toISOString(), site: input.siteOrigin, ...Object.fromEntries(entries) } as PersonalDataExport;
}

/** The file name of the download: the site and the day, never the person's name or email. */
export function exportFileName(now: Date): string {
  return `my-data-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * The forms in which a verified Indian number may have been typed into a lead form: with the
 * country code, the 10 digits alone, or with the trunk 0. Exact matches only, so a stranger's
 * number that merely ends the same way is never counted as theirs.
 */
function phoneForms(e164Phone: string): string[] {
  const digits = e164Phone.replace(/\D/g, '');
  if (digits.length < 10) return [digits];
  const national = digits.slice(-10);
  return [...new Set([digits, national, `0${national}`])];
}

/**
 * The leads this person sent. Leads carry no account id (the forms work signed out), so they
 * are matched by the phone number the person proved is theirs by OTP; an unverified number
 * matches nothing, or anyone could claim another person's requests by typing their number.
 */
export async function leadIdsOf(database: Database, profile: Profile | null): Promise<LeadIds> {
  if (!profile?.phoneVerified || !profile.phone) return { requestIds: [], sellIds: [] };
  const forms = phoneForms(profile.phone);
  const [requests, sells] = await Promise.all([
    database.db.selectFrom('vehicle_requests').select('id').where(phoneDigits, 'in', forms).execute(),
    database.db.selectFrom('sell_submissions').select('id').where(phoneDigits, 'in', forms).execute(),
  ]);
  return { requestIds: requests.map((row) => row.id), sellIds: sells.map((row) => row.id) };
}

/** Whether this email holds the only admin record: deleting it would leave the shop without an admin. */
export async function isLastAdmin(database: Database, email: string): Promise<boolean> {
  const record = await database.db.selectFrom('admins').select('email').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (!record) return false;
  const admins = await database.db.selectFrom('admins').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
  return Number(admins?.count ?? 0) <= 1;
}

/** Password accounts confirm with their password; Google-only accounts type DELETE. */
export async function deleteConfirmationFor(database: Database, userId: string): Promise<'password' | 'word'> {
  const credential = await database.db.selectFrom('account').select('id').where('userId', '=', userId).where('providerId', '=', 'credential').executeTakeFirst();
  return credential ? 'password' : 'word';
}

export type DeleteAccountDeps = {
  database: Database;
  clock: Clock;
  storage: Storage;
  /** Where the driving-licence photos are (deleted with the account). */
  privateStorage?: Storage;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** better-auth's own password check (the hash format is its business, not ours). */
  verifyPassword: (hash: string, password: string) => Promise<boolean>;
};

/**
 * What deleting an account erased. A refusal is thrown from the error vocabulary with its
 * `reason` ('not-found', 'password-required', 'wrong-password', 'word-required', 'last-admin',
 * 'rate-limited'), which the Android API answers beside the message.
 */
export type DeleteAccountResult = { leadsErased: number };

/**
 * Deletes the account and everything tied to it: the better-auth user with its sessions,
 * sign-in methods and pending tokens; our profile, wishlist, phone codes, admin record and
 * outbox copies; their driving licence with its photos; and the leads they sent, erased with
 * their photos (as the privacy page says). Their rental bookings stay, anonymised, for the
 * dealer's accounts (decision 029); an account with a booking in progress is refused
 * (ConflictError 'rental-open').
 * The last admin is refused (ConflictError), so the shop is never left without one; a missing
 * or wrong confirmation is an InvalidInputError.
 */
export async function deleteAccount(deps: DeleteAccountDeps, input: { userId: string; password?: string | undefined; confirmationWord?: string | undefined }): Promise<DeleteAccountResult> {
  const { db } = deps.database;
  const user = await db.selectFrom('user').select(['id', 'email']).where('id', '=', input.userId).executeTakeFirst();
  if (!user) throw new InvalidInputError(t('accountGone')).because('not-found');

  const credential = await db.selectFrom('account').select('password').where('userId', '=', user.id).where('providerId', '=', 'credential').executeTakeFirst();
  if (credential) {
    const password = input.password ?? '';
    if (!password) throw new InvalidInputError(privacyMessages.passwordRequired).because('password-required');
    if (!credential.password || !(await deps.verifyPassword(credential.password, password))) {
      throw new InvalidInputError(privacyMessages.wrongPassword).because('wrong-password');
    }
  } else if ((input.confirmationWord ?? '').trim() !== DELETE_CONFIRMATION_WORD) {
    throw new InvalidInputError(privacyMessages.wordRequired).because('word-required');
  }

  const email = user.email.trim().toLowerCase();
  if (await isLastAdmin(deps.database, email)) throw new ConflictError(privacyMessages.lastAdmin).because('last-admin');

  // A booking in progress needs the person (a car out, a deposit to settle, a refund to send): they cancel or finish it first.
  const openBooking = await db.selectFrom('rental_bookings').select('id').where('user_id', '=', user.id).where('kind', '=', 'booking').where('status', 'in', OPEN_BOOKING_STATUSES).executeTakeFirst();
  if (openBooking) throw new ConflictError(privacyMessages.openRental).because('rental-open');
  // A held car and its token need the person too (decision 080).
  const openReservation = await db.selectFrom('car_reservations').select('id').where('user_id', '=', user.id).where('status', '=', 'active').executeTakeFirst();
  if (openReservation) throw new ConflictError(privacyMessages.openReservation).because('reservation-open');

  const profile = await getProfile(deps.database, user.id);
  const leads = await leadIdsOf(deps.database, profile);
  const leadsErased = await eraseLeads(deps, leads);
  const licence = await db.selectFrom('driving_licences').select(['front_key', 'back_key']).where('user_id', '=', user.id).executeTakeFirst();
  // The inspections' photos go with them (decision 084); a vehicle draft made from one keeps its own copies.
  const inspectionPhotos = (await db.selectFrom('inspections').select('photos').where('user_id', '=', user.id).execute()).flatMap((row) => parseStoredImages(row.photos));

  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('wishlist_entries').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('test_drives').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('inspections').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('phone_otps').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('driving_licences').where('user_id', '=', user.id).execute();
    // The licence reviews in the audit log named the licence number: only that a review happened stays.
    await trx.updateTable('audit_log').set({ summary: 'Reviewed a driving licence (the account was deleted)', before: null, after: null }).where('entity', '=', 'driving-licence').where('entity_id', '=', user.id).execute();
    // Rental bookings are the dealer's accounts and are kept (decision 029), without the person:
    // no account, no delivery PIN code, no desk note (it may name them).
    await trx.updateTable('rental_bookings').set({ user_id: null, pin_code: '', note: '' }).where('user_id', '=', user.id).execute();
    // Reservations and their refunds are kept the same way, without who made them.
    await trx.updateTable('car_reservations').set({ user_id: '', name: '', phone: '', email: '' }).where('user_id', '=', user.id).execute();
    const recipients = [user.email, email, ...(profile?.phone ? [profile.phone] : [])];
    await trx.deleteFrom('outbox_messages').where('recipient', 'in', recipients).execute();
    await trx.deleteFrom('profiles').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('admins').where('email', '=', email).execute();
    // Pending tokens name the person by id: as the whole value (password reset) or inside the
    // JSON of an account-linking state. Ids are UUIDs, so the substring cannot hit another's.
    await trx.deleteFrom('verification').where('value', 'like', `%${user.id}%`).execute();
    await trx.deleteFrom('session').where('userId', '=', user.id).execute();
    await trx.deleteFrom('account').where('userId', '=', user.id).execute();
    await trx.deleteFrom('user').where('id', '=', user.id).execute();
  });
  await discardImages(deps.storage, inspectionPhotos);
  if (licence && deps.privateStorage) {
    const { privateStorage } = deps;
    await Promise.allSettled([licence.front_key, licence.back_key].map((key) => privateStorage.delete(key)));
  }
  deps.logger.info({ leadsErased }, 'privacy: an account was deleted at its owner\'s request');
  return { leadsErased };
}

/** better-auth's own password check, for deleteAccount. */
export function passwordVerifier(auth: Auth): DeleteAccountDeps['verifyPassword'] {
  return async (hash, password) => (await auth.$context).password.verify({ hash, password });
}

/** Too many wrong passwords on the delete form: the same limit as signing in. */
/** Why deleting is refused for a while, in the language of the request being answered. */
export function deleteAttemptsLimited(): string {
  return t('deleteAttemptsLimited');
}

/**
 * Checks the limit on delete attempts (they test a password), then deletes. The web page and
 * the Android API both come through here.
 */
export async function deleteAccountLimited(
  deps: DeleteAccountDeps,
  input: { userId: string; password?: string | undefined; confirmationWord?: string | undefined },
): Promise<DeleteAccountResult> {
  const limit = await consumeRateLimit(deps.database, { key: `accountDelete:${input.userId}`, ...rateLimits.signIn, now: deps.clock.now() });
  if (!limit.allowed) throw new RateLimitedError(deleteAttemptsLimited(), limit.retryAfterSeconds).because('rate-limited');
  return deleteAccount(deps, input);
}

/** The ImageRefs kept as JSON on an inspection (migration 027), or none when there are none or they do not parse. */
function parseStoredImages(text: string | null): ImageRef[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as ImageRef[]) : [];
  } catch {
    return [];
  }
}
