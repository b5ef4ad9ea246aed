import en from './texts/en/sell.json' with { type: 'json' };
import hi from './texts/hi/sell.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of selling a car: the estimate, the sell form, booking an inspection and the chat message. */
export const sellText = defineTexts('sell', en, hi);
