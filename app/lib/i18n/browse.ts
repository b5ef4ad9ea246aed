import en from './en/browse.json' with { type: 'json' };
import hi from './hi/browse.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The buyer's filters, car cards, search, wishlist and offline pages: the texts of browsing the cars for sale. */
export const browseText = defineTexts('browse', en, hi);
