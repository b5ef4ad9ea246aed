import type { MetaDescriptor } from 'react-router';
import type { PublicConfig } from './public-config.ts';
import { siteShareImage, type ShareImage } from './share-image.ts';

import { commonText as t } from './i18n/common.ts';
import { currentLanguage } from './i18n/current.ts';
import { LANGUAGE_TAGS, LANGUAGES, pathInLanguage } from './i18n/language.ts';

type SeoInput = {
  site: Pick<PublicConfig, 'siteName' | 'siteOrigin'>;
  /** Path and query of the canonical page, e.g. '/vehicle/12', without the language prefix. */
  path: string;
  title?: string;
  description?: string;
  keywords?: string;
  /** The link preview's picture; the site's card when the page has none of its own. */
  image?: ShareImage;
  type?: 'website' | 'product';
  /** Pages about one visitor (login, profile, admin) stay out of search engines. */
  noIndex?: boolean;
  /** With noIndex: crawlers may still follow the page's links (a listing's thin variations). */
  followLinks?: boolean;
};

/**
 * Title, description, canonical, Open Graph, Twitter and robots tags for one page. Every page has
 * a share image with its size, type and alt text (decision 086): preview clients that fetch
 * nothing they cannot size show no picture at all.
 */
export function seo(input: SeoInput): MetaDescriptor[] {
  const { site } = input;
  const language = currentLanguage();
  const title = input.title ? `${input.title} | ${site.siteName}` : `${site.siteName} | ${t('defaultTitle')}`;
  const description = input.description ?? t('defaultDescription');
  // Each language's page is canonical at its own address, and names the other (decision 087).
  const addressIn = (other: (typeof LANGUAGES)[number]) => new URL(pathInLanguage(input.path, other), site.siteOrigin).href;
  const url = addressIn(language);
  const image = input.image ?? siteShareImage(site.siteName);
  // The app's own address even with a CDN for photos (MEDIA_PUBLIC_BASE_URL): only the app makes
  // a missing share variant, and a preview is fetched once per link, not once per visitor.
  const imageUrl = new URL(image.path, site.siteOrigin).href;
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { name: 'keywords', content: input.keywords ?? t('defaultKeywords') },
    { name: 'robots', content: input.noIndex ? (input.followLinks ? 'noindex,follow' : 'noindex,nofollow') : 'index,follow' },
    { tagName: 'link', rel: 'canonical', href: url },
    ...(input.noIndex
      ? []
      : [
          ...LANGUAGES.map((other) => ({ tagName: 'link', rel: 'alternate', hrefLang: LANGUAGE_TAGS[other].html, href: addressIn(other) })),
          { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: addressIn('en') },
        ]),
    { property: 'og:site_name', content: site.siteName },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:locale', content: LANGUAGE_TAGS[language].og },
    ...LANGUAGES.filter((other) => other !== language).map((other) => ({ property: 'og:locale:alternate', content: LANGUAGE_TAGS[other].og })),
    { property: 'og:image', content: imageUrl },
    ...(imageUrl.startsWith('https:') ? [{ property: 'og:image:secure_url', content: imageUrl }] : []),
    { property: 'og:image:type', content: image.type },
    { property: 'og:image:width', content: String(image.width) },
    { property: 'og:image:height', content: String(image.height) },
    { property: 'og:image:alt', content: image.alt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: imageUrl },
    { name: 'twitter:image:alt', content: image.alt },
  ];
  return tags;
}

type RootData = { site: PublicConfig };

/** The site configuration from the root loader, for meta functions. */
export function siteFromMatches(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): PublicConfig {
  const root = matches.find((match) => match?.id === 'root')?.loaderData as RootData | undefined;
  return (
    root?.site ?? {
      siteName: 'Gaadi Bazaar',
      siteOrigin: 'http://localhost:3000',
      sellerPhone: '',
      whatsappNumber: '',
      androidAppUrl: '',
      contactEmail: '',
      contactAddress: '',
      mediaBaseUrl: '',
    }
  );
}

/**
 * The `meta` of an admin screen: its title, never indexed, canonical at the address it was
 * opened at (several admin screens have an alias).
 */
/** The meta function of a page whose tags depend on nothing but the site (its name in a description, say). */
export function pageMeta(page: Omit<SeoInput, 'site'> | ((site: PublicConfig) => Omit<SeoInput, 'site'>)) {
  return ({ matches }: { matches: Parameters<typeof siteFromMatches>[0] }): MetaDescriptor[] => {
    const site = siteFromMatches(matches);
    return seo({ site, ...(typeof page === 'function' ? page(site) : page) });
  };
}

export function adminPageMeta(title: string) {
  return ({ matches, location }: { matches: Parameters<typeof siteFromMatches>[0]; location: { pathname: string } }): MetaDescriptor[] =>
    seo({ site: siteFromMatches(matches), path: location.pathname, title, noIndex: true });
}
