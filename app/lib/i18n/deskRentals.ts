import en from './en/deskRentals.json';
import hi from './hi/deskRentals.json';
import { defineTexts } from './texts.ts';

/** The admin's rental desk: the timeline, a booking's handover and return, the licence reviews. */
export const deskRentalsText = defineTexts('deskRentals', en, hi);
