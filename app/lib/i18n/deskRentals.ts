import en from './en/deskRentals.json' with { type: 'json' };
import hi from './hi/deskRentals.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin's rental desk: the timeline, a booking's handover and return, the licence reviews. */
export const deskRentalsText = defineTexts('deskRentals', en, hi);
