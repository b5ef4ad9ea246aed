import en from './texts/en/rentalDesk.json' with { type: 'json' };
import hi from './texts/hi/rentalDesk.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of the rental services: their error messages, and the mails and SMS about bookings and licences. */
export const rentalDeskText = defineTexts('rentalDesk', en, hi);
