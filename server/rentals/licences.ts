import { randomUUID } from 'node:crypto';
import { licenceText as t } from '../../app/features/rentals/licence-texts.ts';
import { licenceApprovedLocked, LICENCE_SIDES, type LicenceSide, type LicenceStatus } from '../../app/features/rentals/licence.ts';
import { paths } from '../../app/lib/paths.ts';
import type { AppServices } from '../services.ts';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { DB, DrivingLicenceTable } from '../db/schema.ts';
import { recordAudit } from '../audit/audit.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import { checkPixelBudget, ImageRejectedError, inspectImage, storeSinglePhoto, type Upload } from '../media/images.ts';
import { escapeHtml } from '../html.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import { changeAndQueue, queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import { indiaIso } from '../../app/lib/india-time.ts';

/**
 * Renters' driving licences: a number, a date of birth and photos of both sides, uploaded once
 * and replaceable until an admin approves them. The photos live in the private storage
 * (`services.privateStorage`, DATA_DIR/private), which nothing serves publicly: they are read
 * only through `readLicencePhoto`, whose callers let through the owner and admins alone.
 */

export type Licence = {
  userId: string;
  number: string;
  dateOfBirth: string;
  status: LicenceStatus;
  refusalReason: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A licence as the review list shows it, with whose it is. */
export type LicenceForReview = Licence & { name: string; email: string; phone: string; phoneVerified: boolean };

/** The columns toLicence reads: the photos' keys are read only to serve or replace the photos. */
type LicenceRow = Omit<Selectable<DrivingLicenceTable>, 'front_key' | 'back_key'>;

function toLicence(row: LicenceRow): Licence {
  return {
    userId: row.user_id,
    number: row.number,
    dateOfBirth: row.date_of_birth,
    status: row.status,
    refusalReason: row.refusal_reason,
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const licenceColumns = ['user_id', 'number', 'date_of_birth', 'status', 'refusal_reason', 'reviewed_by', 'reviewed_at', 'created_at', 'updated_at'] as const;

/** The person's licence, or null when none is on file. */
export async function getLicence(database: Database, userId: string): Promise<Licence | null> {
  const row = await database.db.selectFrom('driving_licences').select(licenceColumns).where('user_id', '=', userId).executeTakeFirst();
  return row ? toLicence(row) : null;
}

export type LicenceSummary = {
  status: LicenceStatus;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  refusalReason: string | null;
};

/**
 * The person's licence status and date of birth, or null when none is on file. Booking rules
 * read it (server/rentals/bookings.ts): a booking may be requested while the licence awaits
 * review, and is confirmed only once it is approved.
 */
export async function licenceStatusFor(database: Database, userId: string): Promise<LicenceSummary | null> {
  const row = await database.db
    .selectFrom('driving_licences')
    .select(['status', 'date_of_birth', 'refusal_reason'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? { status: row.status, dateOfBirth: row.date_of_birth, refusalReason: row.refusal_reason } : null;
}

type SubmitDeps = Pick<AppServices, 'database' | 'privateStorage' | 'clock' | 'logger'>;

/** A photo refused by its content, marked on its own field of the form. */
function photoRefused(side: LicenceSide, error: ImageRejectedError): InvalidInputError {
  const message = t(side === 'front' ? 'frontPhotoNotUsable' : 'backPhotoNotUsable', { why: error.message });
  return new InvalidInputError(message, { [side]: message });
}

/**
 * Puts a licence on file, or replaces one that is not approved yet (a refused one goes back to
 * review). Both photos are checked by their content before either is stored; the photos the
 * new ones replaced are deleted once these are recorded (recordLicence).
 */
export async function submitLicence(
  deps: SubmitDeps,
  input: { userId: string; number: string; dateOfBirth: string; front: Upload | null; back: Upload | null },
): Promise<Licence> {
  const { database, privateStorage, clock } = deps;
  const missing: Partial<Record<LicenceSide, string>> = {};
  if (!input.front) missing.front = t('addFrontPhoto');
  if (!input.back) missing.back = t('addBackPhoto');
  if (!input.front || !input.back) throw new InvalidInputError(Object.values(missing).join(' '), missing);
  const existing = await database.db
    .selectFrom('driving_licences')
    .select(['status', 'front_key', 'back_key'])
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  if (existing?.status === 'approved') throw new ConflictError(licenceApprovedLocked());

  const photos = { front: input.front, back: input.back };
  const sizes: Array<{ width: number; height: number }> = [];
  for (const side of LICENCE_SIDES) {
    try {
      sizes.push(await inspectImage(photos[side].source));
    } catch (error) {
      if (error instanceof ImageRejectedError) throw photoRefused(side, error);
      throw error;
    }
  }
  checkPixelBudget(sizes, 'front');

  // Random names: a key says nothing about whose licence it is.
  const stem = `licences/${randomUUID()}`;
  const keys = { front: `${stem}-front.webp`, back: `${stem}-back.webp` };
  const stored: string[] = [];
  let replaced: LicencePhotos | null;
  try {
    for (const side of LICENCE_SIDES) {
      try {
        await storeSinglePhoto(privateStorage, photos[side].source, keys[side]);
      } catch (error) {
        if (error instanceof ImageRejectedError) throw photoRefused(side, error);
        throw error;
      }
      stored.push(keys[side]);
    }
    replaced = await recordLicence(database, input.userId, existing ?? null, {
      number: input.number,
      date_of_birth: input.dateOfBirth,
      front_key: keys.front,
      back_key: keys.back,
      status: 'pending',
      refusal_reason: null,
      reviewed_by: null,
      reviewed_at: null,
      updated_at: new Date(clock.now()).toISOString(),
    });
  } catch (error) {
    await Promise.allSettled(stored.map((key) => privateStorage.delete(key)));
    throw error;
  }
  if (replaced) {
    await Promise.allSettled([replaced.front_key, replaced.back_key].map((key) => privateStorage.delete(key)));
  }
  return (await getLicence(database, input.userId))!;
}

type LicencePhotos = { status: LicenceStatus; front_key: string; back_key: string };

/**
 * Records the new licence over `seen` (the row read before the photos were stored, or null) and
 * answers the photos it replaced, for the caller to delete. The row is replaced only while it is
 * still the one seen (compare-and-set on its photo key), so of two uploads at once each replaces
 * a different row and deletes that row's photos: none is left in storage unreferenced. An upload
 * that lost the race reads the row again and tries once more. Never over an approved licence,
 * even when an approval lands meanwhile.
 */
async function recordLicence(
  database: Database,
  userId: string,
  seen: LicencePhotos | null,
  changes: Omit<Insertable<DrivingLicenceTable>, 'user_id' | 'created_at'> & { front_key: string; updated_at: string },
): Promise<LicencePhotos | null> {
  let current = seen;
  for (;;) {
    if (current?.status === 'approved') throw new ConflictError(licenceApprovedLocked());
    const written = current
      ? await database.db
          .updateTable('driving_licences')
          .set(changes)
          .where('user_id', '=', userId)
          .where('front_key', '=', current.front_key)
          .where('status', '!=', 'approved')
          .executeTakeFirst()
          .then((result) => Number(result.numUpdatedRows))
      : await database.db
          .insertInto('driving_licences')
          .values({ user_id: userId, created_at: changes.updated_at, ...changes })
          .onConflict((conflict) => conflict.column('user_id').doNothing())
          .executeTakeFirst()
          .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0));
    if (written > 0) return current;
    current =
      (await database.db.selectFrom('driving_licences').select(['status', 'front_key', 'back_key']).where('user_id', '=', userId).executeTakeFirst()) ?? null;
  }
}

/** One side's photo as a stream; the caller has checked the viewer is the owner or an admin. */
export async function readLicencePhoto(
  deps: Pick<AppServices, 'database' | 'privateStorage'>,
  input: { userId: string; side: LicenceSide },
): Promise<{ body: ReadableStream; size: number } | null> {
  const row = await deps.database.db.selectFrom('driving_licences').select(['front_key', 'back_key']).where('user_id', '=', input.userId).executeTakeFirst();
  if (!row) return null;
  return deps.privateStorage.get(input.side === 'front' ? row.front_key : row.back_key);
}

/** How many licences wait for review. Errors: none. */
export async function countLicencesWaiting(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom('driving_licences')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  // PostgreSQL answers counts as text.
  return Number(row?.count ?? 0);
}

/** Licences to review, waiting ones first (oldest first), then the rest newest first. */
export async function listLicences(database: Database, options: { status?: LicenceStatus; limit?: number } = {}): Promise<LicenceForReview[]> {
  let query = database.db
    .selectFrom('driving_licences')
    .leftJoin('profiles', 'profiles.user_id', 'driving_licences.user_id')
    .select([
      'driving_licences.user_id',
      'driving_licences.number',
      'driving_licences.date_of_birth',
      'driving_licences.status',
      'driving_licences.refusal_reason',
      'driving_licences.reviewed_by',
      'driving_licences.reviewed_at',
      'driving_licences.created_at',
      'driving_licences.updated_at',
      'profiles.name as profile_name',
      'profiles.email as profile_email',
      'profiles.phone',
      'profiles.phone_verified',
    ]);
  if (options.status) query = query.where('driving_licences.status', '=', options.status);
  const rows = await query
    .orderBy('driving_licences.updated_at', 'asc')
    .limit(options.limit ?? 200)
    .execute();
  // better-auth's ids are a uuid column on PostgreSQL and text here: looked up by value, not joined.
  const ids = rows.map((row) => row.user_id);
  const users = ids.length ? await database.db.selectFrom('user').select(['id', 'email', 'name']).where('id', 'in', ids).execute() : [];
  const userById = new Map(users.map((user) => [String(user.id), user]));
  const list = rows.map((row) => ({
    ...toLicence(row),
    name: row.profile_name || userById.get(row.user_id)?.name || '',
    email: userById.get(row.user_id)?.email ?? row.profile_email ?? '',
    phone: row.phone ?? '',
    phoneVerified: Boolean(row.phone_verified),
  }));
  const waiting = list.filter((licence) => licence.status === 'pending');
  const rest = list.filter((licence) => licence.status !== 'pending').reverse();
  return [...waiting, ...rest];
}

export type LicenceDecision = { decision: 'approve' } | { decision: 'refuse'; reason: string };

type ReviewDeps = Pick<AppServices, 'database' | 'clock' | 'mailer' | 'logger' | 'config' | 'jobs'>;

/**
 * An admin approves or refuses a licence awaiting review (a refused one may be approved after
 * all, and an approved one refused). Audit-logged; the customer is told by mail and, when their
 * phone is verified, SMS, queued in the decision's transaction (decision 069).
 */
export async function reviewLicence(deps: ReviewDeps, input: { userId: string; adminEmail: string } & LicenceDecision): Promise<Licence> {
  const { database, clock } = deps;
  const before = await getLicence(database, input.userId);
  if (!before) throw new NotFoundError(t('noLongerOnFile'));
  const now = new Date(clock.now()).toISOString();
  const status: LicenceStatus = input.decision === 'approve' ? 'approved' : 'refused';
  const reason = input.decision === 'refuse' ? input.reason : null;
  return changeAndQueue(deps, async (trx) => {
    await trx
      .updateTable('driving_licences')
      .set({ status, refusal_reason: reason, reviewed_by: input.adminEmail, reviewed_at: now, updated_at: now })
      .where('user_id', '=', input.userId)
      .execute();
    const after = (await getLicence({ ...database, db: trx }, input.userId))!;
    await recordAudit(
      { database: { ...database, db: trx }, clock },
      {
        actorEmail: input.adminEmail,
        action: input.decision,
        entity: 'driving-licence',
        entityId: input.userId,
        summary: input.decision === 'approve' ? `Approved the driving licence ${after.number}` : `Refused the driving licence ${after.number}: ${reason}`,
        before: { status: before.status, refusalReason: before.refusalReason },
        after: { status: after.status, refusalReason: after.refusalReason },
      },
    );
    await tellCustomer(trx, deps, after);
    return after;
  });
}

/** Queues the customer's mail and SMS about the review in `db`, the review's transaction. */
async function tellCustomer(db: Kysely<DB>, deps: ReviewDeps, licence: Licence): Promise<void> {
  const { config } = deps;
  // better-auth's ids are a uuid column on PostgreSQL and text here: two lookups, no join.
  const user = await db.selectFrom('user').select(['email', 'name']).where('id', '=', licence.userId).executeTakeFirst();
  const profile = await db.selectFrom('profiles').select(['name', 'phone', 'phone_verified']).where('user_id', '=', licence.userId).executeTakeFirst();
  const person = user
    ? { email: user.email, name: user.name, profile_name: profile?.name ?? '', phone: profile?.phone ?? '', phone_verified: profile?.phone_verified ?? 0 }
    : null;
  if (!person) return;
  const profileUrl = new URL(paths.profile, config.siteOrigin).href;
  const approved = licence.status === 'approved';
  // Told by the desk's decision, outside the customer's own request: in the customer's language.
  const language = await languageOfPerson({ ...deps.database, db }, licence.userId);
  const subject = approved ? t('mailApprovedSubject', {}, language) : t('mailRefusedSubject', {}, language);
  const lines = approved
    ? [t('mailApprovedLine', {}, language)]
    : [t('mailRefusedLine', { reason: licence.refusalReason ?? '' }, language), t('mailUploadAgain', {}, language)];
  const name = person.profile_name || person.name;
  const greeting = name ? t('mailHello', { name }, language) : t('mailHelloThere', {}, language);
  const text = [greeting, '', ...lines, '', profileUrl, '', config.siteName].join('\n');
  const html = `<p>${escapeHtml(greeting)}</p>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(profileUrl)}">${escapeHtml(profileUrl)}</a></p><p>${escapeHtml(config.siteName)}</p>`;
  const smsText = approved
    ? t('smsApproved', { site: config.siteName }, language)
    : t('smsRefused', { site: config.siteName, reason: licence.refusalReason ?? '' }, language);
  // Queued for the worker (decision 069): a mail server that is down delays the message, never the review.
  await queueMail(db, deps, { to: person.email, subject, text, html });
  await queuePhoneMessage(db, deps, {
    userId: licence.userId,
    phone: person.phone && person.phone_verified ? person.phone : null,
    language,
    sms: smsText.slice(0, 300),
    whatsapp: approved
      ? whatsappTemplate('licence_approved', { link: profileUrl })
      : whatsappTemplate('licence_refused', { reason: licence.refusalReason ?? '', link: profileUrl }),
    push: pushOfSms(config.siteName, smsText.slice(0, 300), paths.profile, language),
  });
}

/** The person's own licence as their pages show it, with the photos' private addresses. */
export async function ownLicenceView(database: Database, userId: string) {
  const licence = await getLicence(database, userId);
  if (!licence) return null;
  const version = `?v=${encodeURIComponent(licence.updatedAt)}`;
  return {
    number: licence.number,
    dateOfBirth: licence.dateOfBirth,
    status: licence.status,
    refusalReason: licence.refusalReason,
    updatedAt: indiaIso(Date.parse(licence.updatedAt)),
    frontUrl: paths.licencePhoto(userId, 'front') + version,
    backUrl: paths.licencePhoto(userId, 'back') + version,
  };
}
