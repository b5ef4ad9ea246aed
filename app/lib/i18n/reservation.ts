import en from './en/reservation.json' with { type: 'json' };
import hi from './hi/reservation.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of reserving a car for sale: the button, the pay page, the profile's list, the mails and SMS, the messages. */
export const reservationText = defineTexts('reservation', en, hi);
