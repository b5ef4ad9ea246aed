import en from './en/rent.json' with { type: 'json' };
import hi from './hi/rent.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of self-drive rental: the rental pages, the quote, the terms, the checklist and the renter's bookings. */
export const rentText = defineTexts('rent', en, hi);
