import { z } from 'zod';

/**
 * Paging of the API's lists that grow (`?page=&perPage=`, answered `{ items, page, perPage,
 * total }`). A page size above the cap is served at the cap (the answer's `perPage` says so);
 * anything that is not a whole number is refused, naming the parameter.
 */
export const API_PER_PAGE_DEFAULT = 20;
export const API_PER_PAGE_MAX = 50;
/** Far past any list a person has; keeps the offset a small number. */
const PAGE_MAX = 10_000;

function wholeNumber(name: string, fallback: number, max: number, description: string) {
  const message = `${name} must be a whole number from 1${name === 'perPage' ? '' : ` to ${max}`}.`;
  return z
    .string({ error: message })
    .optional()
    .meta({ description })
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return fallback;
      const value = /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : NaN;
      if (!(value >= 1) || (name !== 'perPage' && value > max)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return Math.min(value, max);
    });
}

export const pageQuerySchema = z.object({
  page: wholeNumber('page', 1, PAGE_MAX, 'The page, from 1 (1 when not given).'),
  perPage: wholeNumber(
    'perPage',
    API_PER_PAGE_DEFAULT,
    API_PER_PAGE_MAX,
    `Items a page: ${API_PER_PAGE_DEFAULT} when not given, at most ${API_PER_PAGE_MAX} (a larger number is served as ${API_PER_PAGE_MAX}).`,
  ),
});

export type PageAsked = z.output<typeof pageQuerySchema>;

/** The slice of an in-memory list for a page, with the paging fields. */
export function pageOf<Item>(all: readonly Item[], { page, perPage }: PageAsked): { items: Item[]; page: number; perPage: number; total: number } {
  return { items: all.slice((page - 1) * perPage, page * perPage), page, perPage, total: all.length };
}
