import en from './en/deskReservations.json' with { type: 'json' };
import hi from './hi/deskReservations.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The desk's reservations of cars for sale: the list on the dashboard and a car's page, and its answers. */
export const deskReservationsText = defineTexts('deskReservations', en, hi);
