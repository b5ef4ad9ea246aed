import { sitemapEntries } from '../../server/catalog/vehicles.ts';
import { appContext } from '../context.ts';
import { paths } from '../lib/paths.ts';
import type { Route } from './+types/sitemap';
import { currentLanguage } from '../lib/i18n/current.ts';
import { LANGUAGE_TAGS, LANGUAGES, pathInLanguage } from '../lib/i18n/language.ts';

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

export async function loader({ context }: Route.LoaderArgs) {
  const { database, config } = context.get(appContext);
  const { categories, vehicles, rentals } = await sitemapEntries(database);
  // /sitemap.xml lists the English pages, /hi/sitemap.xml the Hindi ones; each entry names its
  // page in both languages, as the pages' own hreflang links do (decision 087).
  const language = currentLanguage();
  const address = (path: string, inLanguage: (typeof LANGUAGES)[number]) => escapeXml(new URL(pathInLanguage(path, inLanguage), config.siteOrigin).href);
  const entry = (path: string, lastModified?: string) =>
    `<url><loc>${address(path, language)}</loc>${lastModified ? `<lastmod>${lastModified.slice(0, 10)}</lastmod>` : ''}${LANGUAGES.map(
      (other) => `<xhtml:link rel="alternate" hreflang="${LANGUAGE_TAGS[other].html}" href="${address(path, other)}"/>`,
    ).join('')}</url>`;
  // Only canonical addresses (decision 086): bare /categories shows the first category, whose
  // own address is its canonical, so it is listed only while there is no category at all.
  const urls = [
    entry(paths.home),
    ...(categories.length === 0 ? [entry(paths.categories())] : []),
    entry(paths.about),
    entry(paths.contact),
    entry(paths.sellVehicle),
    entry(paths.requestVehicle),
    entry(paths.privacy),
    ...categories.map((category) => entry(paths.categories(category.slug), category.updated_at)),
    ...vehicles.map((vehicle) => entry(paths.vehicle(vehicle.id), vehicle.updated_at)),
    entry(paths.rent()),
    entry(paths.rentTerms),
    ...rentals.map((car) => entry(paths.rentalCar(car.id), car.updated_at)),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
