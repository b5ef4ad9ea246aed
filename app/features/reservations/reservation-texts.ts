import en from './texts/en/reservation.json' with { type: 'json' };
import hi from './texts/hi/reservation.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of reserving a car for sale: the button, the pay page, the profile's list, the mails and SMS, the messages. */
export const reservationText = defineTexts('reservation', en, hi);
