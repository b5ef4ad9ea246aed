import en from './texts/en/deskReservations.json' with { type: 'json' };
import hi from './texts/hi/deskReservations.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The desk's reservations of cars for sale: the list on the dashboard and a car's page, and its answers. */
export const deskReservationsText = defineTexts('deskReservations', en, hi);
