import en from './en/sell.json';
import hi from './hi/sell.json';
import { defineTexts } from './texts.ts';

/** Texts of selling a car: the estimate, the sell form, booking an inspection and the chat message. */
export const sellText = defineTexts('sell', en, hi);

/** The seller's fuel and gearbox (the form's values stay English) as the page's language names them. */
export function sellFuelText(fuel: string): string {
  const key = `fuel_${fuel}`;
  return key in en ? sellText(key as Parameters<typeof sellText>[0]) : fuel;
}

export function sellTransmissionText(transmission: string): string {
  const key = `transmission_${transmission}`;
  return key in en ? sellText(key as Parameters<typeof sellText>[0]) : transmission;
}
