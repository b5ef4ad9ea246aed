import en from './en/home.json' with { type: 'json' };
import hi from './hi/home.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The home page (storefront and listing) and the category page. */
export const homeText = defineTexts('home', en, hi);
