import { commonText as t } from '../../lib/i18n/common.ts';
import { LANGUAGE_TAGS, pathInLanguage, type Language } from '../../lib/i18n/language.ts';

/** The brand colour of the top bar (Tailwind's brand-700, app/app.css): the phone's status bar and splash. */
export const THEME_COLOR = '#1e40af';

/** The icons Android asks for (192 and 512, one of them maskable), made by scripts/make-icons.mjs from public/favicon.svg. */
export const APP_ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;

export const APPLE_TOUCH_ICON = '/icons/apple-touch-icon-180.png';

/** A launcher label fits about 12 characters: the name, else its first word. */
export function shortName(siteName: string): string {
  const name = siteName.trim();
  return name.length <= 12 ? name : (name.split(/\s+/)[0] ?? name).slice(0, 12);
}

/**
 * The web app manifest: what an installed app is called, looks like and opens at. One app in
 * both languages (one id); installed from a Hindi page it opens at the Hindi home page.
 */
export function webAppManifest(siteName: string, language: Language) {
  return {
    id: '/',
    name: siteName,
    short_name: shortName(siteName),
    description: t('appDescription', {}, language),
    start_url: pathInLanguage('/', language),
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: THEME_COLOR,
    lang: LANGUAGE_TAGS[language].html,
    categories: ['shopping', 'travel'],
    icons: APP_ICONS,
  };
}
