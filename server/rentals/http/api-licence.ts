import { Hono } from 'hono';
import { rentalDeskText as t } from '../../../app/features/rentals/rental-desk-texts.ts';
import { licenceText as lt } from '../../../app/features/rentals/licence-texts.ts';
import { z } from 'zod';
import { licenceFieldsSchema } from '../../../app/features/rentals/licence-schemas.ts';
import type { AppServices } from '../../services.ts';
import { currentUser } from '../../auth/session.ts';
import { ownLicenceView } from '../licences.ts';
import { receiveLicenceUpload } from './licence-upload.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { licenceAnswerSchema } from '../../http/api-answers.ts';
import { MAX_IMAGE_BYTES } from '../../../app/lib/uploads.ts';

/**
 * The driving licence through the Android app's API (cookie session): `GET /me/licence` (its
 * review status, null when none is on file) and `POST /me/licence` (multipart: number,
 * dateOfBirth, front, back), the same services as the profile page.
 */
export function apiLicence(services: AppServices) {
  const api = new Hono();

  const mine = describeRoute({
    tag: 'Rentals',
    summary: 'My driving licence and its review status',
    auth: true,
    ok: { status: 200, schema: licenceAnswerSchema, description: '`licence` is null when none is on file.' },
  });
  api.get('/me/licence', mine, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    return c.json({ licence: await ownLicenceView(services.database, user.id) } satisfies z.input<typeof licenceAnswerSchema>, 200, {
      'Cache-Control': 'no-store',
    });
  });

  const photo = z.file().max(MAX_IMAGE_BYTES).meta({ description: 'A photo of that side of the card, checked by its content (not its name).' });
  const upload = describeRoute({
    tag: 'Rentals',
    summary: 'Upload my driving licence (number, date of birth, both sides) for review',
    description: 'A new upload replaces the one on file and waits for review again.',
    auth: true,
    // The typed fields are documented by the schema that reads them; the photos are read as files.
    body: { kind: 'multipart', schema: licenceFieldsSchema.extend({ front: photo, back: photo }) },
    ok: { status: 201, schema: licenceAnswerSchema, description: 'Stored; its status is pending.' },
    refusals: { 400: '', 409: 'The licence on file is approved: it can no longer be replaced.', 413: '', 429: '' },
  });
  api.post('/me/licence', upload, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) {
      await c.req.raw.body?.cancel().catch(() => {});
      return problem(c, 401, t('signInFirst'));
    }
    try {
      await receiveLicenceUpload(services, c.req.raw, user.id);
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: lt('uploadFailed'), log: 'licence upload failed' });
    }
    return c.json({ licence: await ownLicenceView(services.database, user.id) } satisfies z.input<typeof licenceAnswerSchema>, 201, {
      'Cache-Control': 'no-store',
    });
  });

  return api;
}
