import { z } from 'zod';

/**
 * How a listing URL's parameters are read (decision 023, 065): never refused, since listing
 * URLs are shared and crawled; a value that means nothing is dropped and named in a problem.
 * The pieces the filter table (catalogue.ts) and the listing schema (../schemas/listing.ts) are
 * made of.
 */

/** At most this many values of one filter count (a crafted URL with thousands is cut). */
const MAX_VALUES = 20;
const MAX_PARAM_LENGTH = 600;

/** A query parameter: once, several times (`fuel=petrol&fuel=diesel`) or not at all. */
export const param = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : typeof value === 'string' ? [value] : value));

/** A parameter read once: its first value, '' when absent. */
export const single = param.transform((values) => values[0] ?? '');

/**
 * The values of a list parameter. A plain GET form's checkboxes repeat the parameter; a link
 * joins the values with commas. Both mean the same list: trimmed, lower-cased, each once.
 */
function listValues(values: string[]): string[] {
  const value = values.join(',');
  // A crafted list longer than any real one is cut at the last whole value within the limit
  // (a single value that long is no value at all and is refused whole).
  const cut = value.length > MAX_PARAM_LENGTH ? value.lastIndexOf(',', MAX_PARAM_LENGTH) : value.length;
  const text = cut < 0 ? value.slice(0, MAX_PARAM_LENGTH) : value.slice(0, cut);
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, MAX_VALUES);
}

/** A parameter's value as read, and the sentence naming what was dropped (null: nothing). */
export type Forgiven<Value> = { value: Value; problem: string | null };

/** A list parameter whose values are each read by `item`: those it refuses are dropped, and `problem` says so. */
export function forgivingList<Item>(item: z.ZodType<Item>, problem: string) {
  return param.transform((values): Forgiven<Item[]> => {
    const read = listValues(values).map((value) => item.safeParse(value));
    const good = read.flatMap((result) => (result.success ? [result.data] : []));
    return { value: good, problem: good.length < read.length ? problem : null };
  });
}

/** One parameter read once by `schema`; blank means not given. */
export function forgivingSingle<Value>(schema: z.ZodType<Value>, problem: string) {
  return single.transform((text): Forgiven<Value | null> => {
    if (!text) return { value: null, problem: null };
    const result = schema.safeParse(text);
    return result.success ? { value: result.data, problem: null } : { value: null, problem };
  });
}

/** One of a record's keys (`Object.hasOwn`, so `constructor` is not a fuel). */
export const keyOf = <Key extends string>(record: Record<Key, unknown>) => z.enum(Object.keys(record) as [Key, ...Key[]]);
