import en from './en/rental-desk.json';
import hi from './hi/rental-desk.json';
import { defineTexts } from './texts.ts';

/** Texts of the rental services: their error messages, and the mails and SMS about bookings and licences. */
export const rentalDeskText = defineTexts('rentalDesk', en, hi);
