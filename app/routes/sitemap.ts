import { sitemapEntries } from '../../server/catalog/vehicles.ts';
import { appContext } from '../context.ts';
import { paths } from '../lib/paths.ts';
import type { Route } from './+types/sitemap';

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

export async function loader({ context }: Route.LoaderArgs) {
  const { database, config } = context.get(appContext);
  const { categories, vehicles, rentals } = await sitemapEntries(database);
  const entry = (path: string, lastModified?: string) =>
    `<url><loc>${escapeXml(new URL(path, config.siteOrigin).href)}</loc>${lastModified ? `<lastmod>${lastModified.slice(0, 10)}</lastmod>` : ''}</url>`;
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
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
