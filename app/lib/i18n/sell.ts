import en from './en/sell.json' with { type: 'json' };
import hi from './hi/sell.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of selling a car: the estimate, the sell form, booking an inspection and the chat message. */
export const sellText = defineTexts('sell', en, hi);

