import en from './texts/en/rent.json' with { type: 'json' };
import hi from './texts/hi/rent.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of self-drive rental: the rental pages, the quote, the terms, the checklist and the renter's bookings. */
export const rentText = defineTexts('rent', en, hi);
