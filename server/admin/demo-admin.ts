import { randomBytes } from 'node:crypto';
import type { AppServices } from '../services.ts';
import { addAdminRecord, findAccountByEmail } from '../auth/admins.ts';

/**
 * Demo mode only: an admin for the first ADMIN_EMAILS address, verified, so a newcomer can sign
 * in at once. The password is DEMO_ADMIN_PASSWORD, or generated and printed. Production never
 * creates an account by itself.
 */
export async function ensureDemoAdmin(
  services: AppServices,
  password: string | undefined,
): Promise<{ email: string; generatedPassword: string | null } | null> {
  const email = services.config.adminEmails[0];
  if (!email || services.config.mode !== 'demo') return null;
  const existing = await findAccountByEmail(services.database, email);
  let generatedPassword: string | null = null;
  if (!existing) {
    generatedPassword = password ? null : randomBytes(9).toString('base64url');
    await services.auth.api.signUpEmail({ body: { email, password: password ?? generatedPassword!, name: 'Demo Admin' } });
  }
  await services.database.db
    .updateTable('user')
    .set({ emailVerified: services.database.dialect === 'postgres' ? true : 1 })
    .where('email', '=', email)
    .execute();
  await addAdminRecord(services.database, email, null, services.clock.now());
  return { email, generatedPassword };
}
