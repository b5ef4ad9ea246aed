import type { Database } from '../../server/db/connection.ts';
import { HttpClient, signUp, uniqueEmail, uniqueMobile } from './http-client.ts';

export type VerifiedPerson = { client: HttpClient; email: string; phone: string; userId: string };

/**
 * A person signed up on the server at `serverUrl` whose phone is verified, set in its database
 * (the OTP flow has tests of its own): what booking a test drive or an inspection asks for.
 */
export async function verifiedPerson(
  serverUrl: string,
  database: Database,
  options: { label: string; name: string; password: string },
): Promise<VerifiedPerson> {
  const client = new HttpClient(serverUrl);
  const email = uniqueEmail(options.label);
  await signUp(client, email, options.password);
  const userId = (await client.session())!.user.id;
  const phone = `+91${uniqueMobile()}`;
  const now = new Date().toISOString();
  await database.db
    .insertInto('profiles')
    .values({ user_id: userId, email, name: options.name, photo_url: '', phone, phone_verified: 1, created_at: now, last_login_at: null, updated_at: now })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ name: options.name, phone, phone_verified: 1 }))
    .execute();
  return { client, email, phone, userId };
}
