import en from './texts/en/deskRentals.json' with { type: 'json' };
import hi from './texts/hi/deskRentals.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin's rental desk: the timeline, a booking's handover and return, the licence reviews. */
export const deskRentalsText = defineTexts('deskRentals', en, hi);
