import en from './en/sell.json';
import hi from './hi/sell.json';
import { defineTexts } from './texts.ts';

/** Texts of selling a car: the estimate, the sell form, booking an inspection and the chat message. */
export const sellText = defineTexts('sell', en, hi);

