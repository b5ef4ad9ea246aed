import { Hono } from 'hono';
import { z } from 'zod';
import type { AppServices } from '../../services.ts';
import { AppError, InvalidInputError, RateLimitedError } from '../../errors.ts';
import { currentUser } from '../../auth/session.ts';
import { ownLicenceView } from '../licences.ts';
import { receiveLicenceUpload } from './licence-upload.ts';
import { describeRoute } from '../../http/openapi.ts';
import { licenceAnswerSchema } from '../../../app/lib/schemas/api-answers.ts';
import { MAX_IMAGE_BYTES } from '../../../app/lib/uploads.ts';

/**
 * The driving licence through the Android app's API (cookie session): `GET /me/licence` (its
 * review status, null when none is on file) and `POST /me/licence` (multipart: number,
 * dateOfBirth, front, back), the same services as the profile page.
 */
export function apiLicence(services: AppServices) {
  const api = new Hono();

  const mine = describeRoute({ tag: 'Rentals', summary: 'My driving licence and its review status', auth: true, ok: { status: 200, schema: licenceAnswerSchema, description: '`licence` is null when none is on file.' } });
  api.get('/me/licence', mine, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401, { 'Cache-Control': 'no-store' });
    return c.json({ licence: await ownLicenceView(services.database, user.id) } satisfies z.input<typeof licenceAnswerSchema>, 200, { 'Cache-Control': 'no-store' });
  });

  const photo = z.file().max(MAX_IMAGE_BYTES).meta({ description: 'A photo of that side of the card, checked by its content (not its name).' });
  const upload = describeRoute({
    tag: 'Rentals',
    summary: 'Upload my driving licence (number, date of birth, both sides) for review',
    description: 'A new upload replaces the one on file and waits for review again.',
    auth: true,
    body: { kind: 'multipart', schema: z.object({ number: z.string(), dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD' }), front: photo, back: photo }) },
    ok: { status: 201, schema: licenceAnswerSchema, description: 'Stored; its status is pending.' },
    refusals: { 400: '', 409: 'The licence on file is approved: it can no longer be replaced.', 413: '', 429: '' },
  });
  api.post('/me/licence', upload, async (c) => {
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
    return c.json({ licence: await ownLicenceView(services.database, user.id) } satisfies z.input<typeof licenceAnswerSchema>, 201, { 'Cache-Control': 'no-store' });
  });

  return api;
}
