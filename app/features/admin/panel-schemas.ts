import { z } from 'zod';
import { adminShellText as t } from './admin-shell-texts.ts';
import { idField } from '../../lib/schemas/fields.ts';

/** The dashboard's one form (decision 109): "Retry now" on a failing job, by its id. */
export const retryJobSchema = z.object({
  intent: z.literal('retry-job', { error: () => t('unknownAction') }),
  id: idField(() => t('jobNotFound')),
});
