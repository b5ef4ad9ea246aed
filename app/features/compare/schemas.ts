import { z } from 'zod';
import { parseCompareIds } from './compare.ts';

/**
 * `GET /api/v1/compare`: the compare page's one parameter, read by the page's own reader
 * (parseCompareIds), which never refuses a text: an entry that is not a car id, or one past the
 * limit, is left out and counted. The API parses its query with this schema and its document
 * describes the same one (decision 109).
 */
export const compareQuerySchema = z.object({
  ids: z
    .string()
    .optional()
    .meta({ description: 'Car ids joined by commas, e.g. 12,34,56.' })
    .transform((ids) => parseCompareIds(ids)),
});
