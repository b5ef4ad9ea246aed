import type { AppServices } from '../../services.ts';
import { licenceText as lt } from '../../../app/features/rentals/licence-texts.ts';
import { InvalidInputError, RateLimitedError } from '../../errors.ts';
import { submitLicence, type Licence } from '../licences.ts';
import { consumeRateLimit } from '../../security/rate-limit.ts';
import { readUploadForm, uploadsFrom, uploadTempDir, type UploadForm } from '../../http/forms.ts';
import { imageTooLarge } from '../../../app/lib/uploads.ts';
import { cleanLine } from '../../../app/lib/input.ts';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { licenceAgeProblem, licenceFieldsSchema } from '../../../app/features/rentals/licence-schemas.ts';
import { parseIsoDate } from '../../../app/features/rentals/licence.ts';
import { indiaDay } from '../../../app/lib/india-time.ts';

/** Uploads of a licence per person: enough for a few retakes, not for filling the disk. */
export const LICENCE_UPLOAD_LIMIT = { limit: 20, windowMs: 60 * 60 * 1000 };

const licenceUploadMessages = () => ({
  tooLarge: lt('uploadTooLarge', { size: imageTooLarge().match(/\d+ MB/)?.[0] ?? '15 MB' }),
  tooManyFiles: lt('uploadTooManyFiles'),
  fileTooLarge: imageTooLarge(),
});

/**
 * The licence form as the profile page and the Android API send it (multipart: `number`,
 * `dateOfBirth`, `front`, `back`), for the signed-in `userId`: counted against the person's
 * limit before the body is read, parsed, stored, the temporary files removed whatever happens.
 * Throws from the error vocabulary (FormReadError included) with the form's field names.
 */
export async function receiveLicenceUpload(
  services: AppServices,
  request: Request,
  userId: string,
  /** Filled with what was typed, so a refused form can show it again. */
  typed: { number?: string; dateOfBirth?: string } = {},
): Promise<Licence> {
  const limit = await consumeRateLimit(services.database, { key: `licence-upload:${userId}`, ...LICENCE_UPLOAD_LIMIT, now: services.clock.now() });
  if (!limit.allowed) {
    await request.body?.cancel().catch(() => {});
    throw new RateLimitedError(lt('tooManyUploads'), limit.retryAfterSeconds);
  }
  const form: UploadForm = await readUploadForm(request, { tempDir: uploadTempDir(services.config.dataDir), messages: licenceUploadMessages() });
  try {
    typed.number = cleanLine(form.fields.get('number'), 40);
    typed.dateOfBirth = cleanLine(form.fields.get('dateOfBirth'), 20);
    const parsed = parseWith(licenceFieldsSchema, { number: form.fields.get('number') ?? undefined, dateOfBirth: form.fields.get('dateOfBirth') ?? undefined });
    // Old enough on India's date today: a rule of the moment, so beside the schema, not in it.
    const dateOfBirth = parseIsoDate(typeof form.fields.get('dateOfBirth') === 'string' ? String(form.fields.get('dateOfBirth')) : '');
    const ageProblem = dateOfBirth === null ? null : licenceAgeProblem(dateOfBirth, indiaDay(services.clock.now()));
    const front = uploadsFrom(form, 'front')[0] ?? null;
    const back = uploadsFrom(form, 'back')[0] ?? null;
    if (!parsed.ok || ageProblem) {
      const errors: Record<string, string> = { ...(parsed.ok ? {} : parsed.fields), ...(ageProblem ? { dateOfBirth: ageProblem } : {}) };
      if (!front) errors.front = lt('addFrontPhoto');
      if (!back) errors.back = lt('addBackPhoto');
      throw new InvalidInputError(lt('checkMarkedFields'), errors);
    }
    const licence = await submitLicence(services, { userId, ...parsed.value, front, back });
    return licence;
  } finally {
    await form.discard();
  }
}
