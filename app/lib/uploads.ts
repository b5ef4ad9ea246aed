import { formsText as t } from './i18n/forms.ts';

/**
 * The one size limit of a photo, whoever uploads it (an admin's vehicle or category photo, a
 * visitor's sell photo): what the server refuses (server/media/images.ts, server/http/body-limit.ts)
 * and what the pages say and check before sending.
 */
export const MAX_IMAGE_MB = 15;
export const MAX_IMAGE_BYTES = MAX_IMAGE_MB * 1024 * 1024;

/** Why a photo is refused for its size, in the language of the moment. */
export function imageTooLarge(): string {
  return t('imageTooLarge', { mb: MAX_IMAGE_MB });
}
