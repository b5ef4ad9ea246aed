import en from './texts/en/purchases.json' with { type: 'json' };
import hi from './texts/hi/purchases.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of buying a car from a seller and of the dealer's books: the desk's forms, the registers, the seller's messages. */
export const purchasesText = defineTexts('purchases', en, hi);
