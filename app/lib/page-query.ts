/**
 * The query parameters a public page reads, each page's list declared beside the code that
 * parses it (the listing's in schemas/listing.ts, a car's calculator in emi-calculator.ts) and
 * read only through `pageQuery`, so a page can never depend on a parameter it did not declare.
 * The page cache keys a page by exactly these (server/http/page-cache.ts): a page asked with any
 * other parameter, one that is not a known tracking parameter, is rendered and never stored
 * (decision 092).
 */

/**
 * Parameters that say where a visitor came from and change nothing on the page: a WhatsApp or
 * ad campaign's `utm_*`, and the click ids that ad networks and apps add to shared links. They
 * are dropped from a page's address before it is rendered or cached, on the server and in the
 * browser alike, so a share burst of `/?utm_source=whatsapp` is the home page itself.
 */
const TRACKING_NAMES = new Set([
  'fbclid',
  'gclid',
  'gbraid',
  'wbraid',
  'dclid',
  'msclkid',
  'igshid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'yclid',
  'srsltid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
]);

export function isTrackingParameter(name: string): boolean {
  return name.startsWith('utm_') || TRACKING_NAMES.has(name);
}

/** `search` without its tracking parameters ('' when nothing is left), its other parameters as they were written. */
export function withoutTracking(search: string): string {
  if (search === '' || search === '?') return '';
  const kept = search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => {
      if (pair === '') return false;
      const name = pair.split('=')[0]!;
      try {
        return !isTrackingParameter(decodeURIComponent(name.replaceAll('+', ' ')));
      } catch {
        return true;
      }
    });
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

/** The parameters of `url` a page declared in `declared`, in that order, with every value of each. */
export function pageQuery(url: URL, declared: readonly string[]): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of declared) for (const value of url.searchParams.getAll(name)) query.append(name, value);
  return query;
}
