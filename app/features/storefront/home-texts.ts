import en from './texts/en/home.json' with { type: 'json' };
import hi from './texts/hi/home.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The home page (storefront and listing) and the category page. */
export const homeText = defineTexts('home', en, hi);
