import { DELETE_CONFIRMATION_WORD, privacyMessages } from '../../app/features/accounts/privacy.ts';
import type { Auth } from '../auth/auth.ts';
import type { Database } from '../db/connection.ts';
import { ConflictError, InvalidInputError, RateLimitedError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { phoneDigits, type LeadIds } from '../leads/leads.ts';
import type { Storage } from '../media/storage.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { getProfile, type Profile } from './profiles.ts';
import { OPEN_BOOKING_STATUSES } from '../../app/features/rentals/rentals.ts';
import type { Clock } from '../clock.ts';
import { accountText as t } from '../../app/lib/i18n/account.ts';
import { allPersonalData } from '../privacy/all-personal-data.ts';
import type { ExportContext, FileCleanup, Person } from '../privacy/personal-data.ts';

/**
 * A person's rights under India's DPDP Act 2023 (docs/decisions/013): a copy of everything we
 * hold about them, and erasure of their account. Plain inputs, plain data; the /profile pages
 * and the Android API call the same functions.
 */

/**
 * The download's sections, in order: each domain declares the section for its tables
 * (server/privacy/personal-data.ts), so a new feature that keeps personal data adds its own and
 * the download, the API and the tests pick it up.
 */
const exportSections = allPersonalData.flatMap((declaration) => ('section' in declaration.export ? [declaration.export] : []));

export type PersonalDataExport = { exportedAt: string; site: string } & Record<string, unknown>;

/** Everything we hold about this person, as one JSON-ready object. */
export async function exportPersonalData(input: { database: Database; siteOrigin: string; userId: string }, now: Date): Promise<PersonalDataExport> {
  const profile = await getProfile(input.database, input.userId);
  const context: ExportContext = { ...input, profile, leads: await leadIdsOf(input.database, profile), now };
  const entries = await Promise.all(exportSections.map(async ({ section, gather }) => [section, await gather(context)] as const));
  return { exportedAt: now.toISOString(), site: input.siteOrigin, ...Object.fromEntries(entries) };
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
  const admins = await database.db
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return Number(admins?.count ?? 0) <= 1;
}

/** Password accounts confirm with their password; Google-only accounts type DELETE. */
export async function deleteConfirmationFor(database: Database, userId: string): Promise<'password' | 'word'> {
  const credential = await database.db
    .selectFrom('account')
    .select('id')
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
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
 * Deletes the account and everything tied to it, as each domain declares it
 * (server/privacy/all-personal-data.ts): the better-auth user with its sessions,
 * sign-in methods and pending tokens; our profile, wishlist, phone codes, admin record and
 * outbox copies; their driving licence with its photos; and the leads they sent, erased with
 * their photos (as the privacy page says). Their rental bookings stay, anonymised, for the
 * dealer's accounts (decision 029), as do reservations; an account with a booking in progress is refused
 * (ConflictError 'rental-open').
 * The last admin is refused (ConflictError), so the shop is never left without one; a missing
 * or wrong confirmation is an InvalidInputError.
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  input: { userId: string; password?: string | undefined; confirmationWord?: string | undefined },
): Promise<DeleteAccountResult> {
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
  const openBooking = await db
    .selectFrom('rental_bookings')
    .select('id')
    .where('user_id', '=', user.id)
    .where('kind', '=', 'booking')
    .where('status', 'in', OPEN_BOOKING_STATUSES)
    .executeTakeFirst();
  if (openBooking) throw new ConflictError(privacyMessages.openRental).because('rental-open');
  // A held car and its token need the person too (decision 080).
  const openReservation = await db.selectFrom('car_reservations').select('id').where('user_id', '=', user.id).where('status', '=', 'active').executeTakeFirst();
  if (openReservation) throw new ConflictError(privacyMessages.openReservation).because('reservation-open');

  const profile = await getProfile(deps.database, user.id);
  const person: Person = { userId: user.id, email: user.email, normalisedEmail: email, profile, leads: await leadIdsOf(deps.database, profile) };
  // Each domain erases what it declared: rows kept on their own first (the leads, with their
  // photos), then the rest in one transaction, backwards so the account row goes last, then the
  // files those rows pointed to.
  let leadsErased = 0;
  for (const { erase } of allPersonalData) if ('alone' in erase) leadsErased += await erase.alone(deps, person);
  const cleanups: FileCleanup[] = [];
  for (const { erase } of allPersonalData) if (erase.files) cleanups.push(await erase.files(deps.database, person));
  await db.transaction().execute(async (trx) => {
    for (const { erase } of allPersonalData.toReversed()) if ('rows' in erase) await erase.rows(trx, person);
  });
  for (const cleanup of cleanups) await cleanup(deps);
  deps.logger.info({ leadsErased }, "privacy: an account was deleted at its owner's request");
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
