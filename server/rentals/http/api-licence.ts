import { Hono } from 'hono';
import type { AppServices } from '../../services.ts';
import { AppError, InvalidInputError, RateLimitedError } from '../../errors.ts';
import { currentUser } from '../../auth/session.ts';
import { ownLicenceView } from '../licences.ts';
import { receiveLicenceUpload } from './licence-upload.ts';

/**
 * The driving licence through the Android app's API (cookie session): `GET /me/licence` (its
 * review status, null when none is on file) and `POST /me/licence` (multipart: number,
 * dateOfBirth, front, back), the same services as the profile page.
 */
export function apiLicence(services: AppServices) {
  const api = new Hono();

  api.get('/me/licence', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401, { 'Cache-Control': 'no-store' });
    return c.json({ licence: await ownLicenceView(services.database, user.id) }, 200, { 'Cache-Control': 'no-store' });
  });

  api.post('/me/licence', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) {
      await c.req.raw.body?.cancel().catch(() => {});
      return c.json({ error: 'Please sign in first.' }, 401);
    }
    try {
      await receiveLicenceUpload(services, c.req.raw, user.id);
    } catch (error) {
      if (!(error instanceof AppError)) {
        services.logger.error({ err: error }, 'licence upload failed');
        return c.json({ error: 'Failed to upload your licence. Please try again.' }, 500);
      }
      const headers: Record<string, string> = error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
      const fields = error instanceof InvalidInputError ? error.fields : {};
      return c.json({ error: error.message, fields }, error.status as 400, headers);
    }
    return c.json({ licence: await ownLicenceView(services.database, user.id) }, 201, { 'Cache-Control': 'no-store' });
  });

  return api;
}
