import type { Database } from '../db/connection.ts';
import type { SessionUser } from '../auth/session.ts';
import { getProfile, personName } from './profiles.ts';
import { wishlistedIds } from './wishlist.ts';
import type { PersonalSummary } from '../../app/lib/personal.ts';

export type { PersonalSummary };

export const SIGNED_OUT_SUMMARY: PersonalSummary = { signedIn: false, name: null, wishlist: [] };

/**
 * The person looking (app/lib/personal.ts), for GET /api/v1/me/summary and a personal page's root
 * data (decision 127).
 */
export async function personalSummary(database: Database, user: SessionUser | null): Promise<PersonalSummary> {
  if (!user) return SIGNED_OUT_SUMMARY;
  const [profile, wishlist] = await Promise.all([getProfile(database, user.id), wishlistedIds(database, user.id)]);
  return { signedIn: true, name: personName(profile, user) || null, wishlist };
}
