import type { Database } from '../db/connection.ts';
import { paths } from '../../app/lib/paths.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../app/lib/i18n/language.ts';

/** The signed-in person as better-auth knows them. */
export type AuthUser = {
  id: string;
  email: string;
  name: string;
  image?: string | null | undefined;
  emailVerified: boolean;
  createdAt: Date | string;
};

export type Profile = {
  userId: string;
  email: string;
  name: string;
  photoUrl: string;
  phone: string;
  phoneVerified: boolean;
  createdAt: string | null;
  lastLoginAt: string | null;
  updatedAt: string | null;
  /** The language the person chose with the switch (decision 087), or null before they chose. */
  language: Language | null;
};

function toIso(value: Date | string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export async function getProfile(database: Database, userId: string): Promise<Profile | null> {
  const row = await database.db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.user_id,
    email: row.email,
    name: row.name,
    photoUrl: row.photo_url,
    phone: row.phone,
    phoneVerified: Boolean(row.phone_verified),
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
    updatedAt: row.updated_at,
    language: isLanguage(row.language) ? row.language : null,
  };
}

/**
 * The profile record, created from the auth account when it is missing (SPEC 4, Profile
 * load): email, name, photo, created from the account's creation time. An existing record is
 * never overwritten here.
 */
export async function ensureProfile(database: Database, user: AuthUser, nowMs: number): Promise<Profile> {
  const existing = await getProfile(database, user.id);
  if (existing) return existing;
  const now = new Date(nowMs).toISOString();
  await database.db
    .insertInto('profiles')
    .values({
      user_id: user.id,
      email: user.email,
      name: user.name ?? '',
      photo_url: user.image ?? '',
      phone: '',
      phone_verified: 0,
      created_at: toIso(user.createdAt) ?? now,
      last_login_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
  return (await getProfile(database, user.id))!;
}

/** Called at every sign-in: the profile exists and lastLoginAt is now. */
export async function recordLogin(database: Database, user: AuthUser, nowMs: number): Promise<Profile> {
  await ensureProfile(database, user, nowMs);
  const now = new Date(nowMs).toISOString();
  await database.db.updateTable('profiles').set({ last_login_at: now }).where('user_id', '=', user.id).execute();
  return (await getProfile(database, user.id))!;
}

/** A phone number on file that was verified by OTP: what booking a rental car or a test drive needs. */
export function hasVerifiedPhone(profile: Pick<Profile, 'phone' | 'phoneVerified'> | null): boolean {
  return Boolean(profile?.phoneVerified && profile.phone);
}

/** A person's name as the site shows and the desk calls them: the profile's, else the account's ('' without either). */
export function personName(profile: Pick<Profile, 'name'> | null | undefined, user: Pick<AuthUser, 'name'> | null | undefined): string {
  return profile?.name || user?.name || '';
}

/**
 * Who a booking (a test drive, an inspection, a car reservation) is kept for, as the desk calls
 * and writes: the person's name (personName); the profile's phone; the account's email, else the profile's.
 */
export async function bookingContact(database: Database, profile: Profile): Promise<{ name: string; phone: string; email: string }> {
  const user = await database.db.selectFrom('user').select(['email', 'name']).where('id', '=', profile.userId).executeTakeFirst();
  return { name: personName(profile, user), phone: profile.phone, email: user?.email ?? profile.email };
}

/** SPEC 4: complete when there is a name (profile or account) and a verified phone. */
export function isProfileComplete(user: Pick<AuthUser, 'name'>, profile: Profile | null): boolean {
  return Boolean(personName(profile, user).trim()) && Boolean(profile?.phoneVerified);
}

/** Where a person goes after signing in (SPEC 4). */
export function pathAfterSignIn(user: Pick<AuthUser, 'name'>, profile: Profile | null): typeof paths.home | typeof paths.profileComplete {
  return isProfileComplete(user, profile) ? paths.home : paths.profileComplete;
}

/** Saves the verified phone and the name (SPEC 7, Save profile (verification)). */
export async function saveVerifiedPhone(database: Database, userId: string, input: { name: string; phone: string }, nowMs: number) {
  const now = new Date(nowMs).toISOString();
  await database.db
    .updateTable('profiles')
    .set({ name: input.name.trim(), phone: input.phone, phone_verified: 1, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Renames the person on their profile (the app's profile screen); the phone is left as it is. */
export async function saveProfileName(database: Database, userId: string, name: string, nowMs: number) {
  await database.db
    .updateTable('profiles')
    .set({ name: name.trim(), updated_at: new Date(nowMs).toISOString() })
    .where('user_id', '=', userId)
    .execute();
}

/** The language a person's later mails and SMS are written in (decision 087): their choice, else English. */
export async function languageOfPerson(database: Database, userId: string): Promise<Language> {
  return (await languageChoiceOf(database, userId)) ?? DEFAULT_LANGUAGE;
}

/** The choice from the language switch, kept for every device the person signs in on. */
export async function saveLanguageChoice(database: Database, userId: string, language: Language): Promise<void> {
  await database.db.updateTable('profiles').set({ language }).where('user_id', '=', userId).execute();
}

/** A signed-in person's choice from the switch or the app: kept in their profile, made now if they have none yet. */
export async function chooseLanguage(database: Database, user: AuthUser, language: Language, nowMs: number): Promise<void> {
  await ensureProfile(database, user, nowMs);
  await saveLanguageChoice(database, user.id, language);
}

/** The person's own choice, or null before they made one (their browser's language then rules). */
export async function languageChoiceOf(database: Database, userId: string): Promise<Language | null> {
  const row = await database.db.selectFrom('profiles').select('language').where('user_id', '=', userId).executeTakeFirst();
  return isLanguage(row?.language) ? row.language : null;
}
