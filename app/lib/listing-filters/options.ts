/**
 * What a car's body type, colour, fuel and transmission can be: the values the dealer picks
 * (the admin form), the buyer filters by (catalogue.ts) and the search index holds, with their
 * English names (the words the search index and the admin form use); what a page shows is read
 * through the label functions below (bodyTypeLabel, fuelLabel, …), in the page's language.
 */
import { browseText as t } from '../i18n/browse.ts';

/** Body types an admin picks per vehicle; the stored value is the key. */
export const BODY_TYPES = {
  hatchback: 'Hatchback',
  sedan: 'Sedan',
  suv: 'SUV',
  muv: 'MUV',
  luxury: 'Luxury',
  pickup: 'Pickup',
  coupe: 'Coupe',
  convertible: 'Convertible',
  van: 'Van',
} as const;
export type BodyType = keyof typeof BODY_TYPES;

/** Colours an admin picks per vehicle; the stored value is the key. */
export const COLOURS = {
  white: 'White',
  silver: 'Silver',
  grey: 'Grey',
  black: 'Black',
  red: 'Red',
  maroon: 'Maroon',
  blue: 'Blue',
  brown: 'Brown',
  beige: 'Beige',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
} as const;
export type Colour = keyof typeof COLOURS;

export const FUELS = { petrol: 'Petrol', diesel: 'Diesel', cng: 'CNG', electric: 'Electric', hybrid: 'Hybrid' } as const;
export type Fuel = keyof typeof FUELS;

export const TRANSMISSION_KEYS = { manual: 'Manual', automatic: 'Automatic' } as const;
export type TransmissionKey = keyof typeof TRANSMISSION_KEYS;

/** A body type's name in the page's language; a key not in the list as it is. */
export function bodyTypeLabel(key: string): string {
  return Object.hasOwn(BODY_TYPES, key) ? t(`body_${key as BodyType}`) : key;
}

export function colourLabel(key: string): string {
  return Object.hasOwn(COLOURS, key) ? t(`colour_${key as Colour}`) : key;
}

export function fuelLabel(key: string): string {
  return Object.hasOwn(FUELS, key) ? t(`fuel_${key as Fuel}`) : key;
}

export function transmissionLabel(key: string): string {
  return Object.hasOwn(TRANSMISSION_KEYS, key) ? t(`trans_${key as TransmissionKey}`) : key;
}

/** A car's fuel when it is exactly a name of the admin's list ('Petrol', 'CNG'), in the page's language; other typed text as it is. */
export function typedFuelText(typed: string): string {
  const key = Object.keys(FUELS).find((fuel) => FUELS[fuel as Fuel] === typed);
  return key ? fuelLabel(key) : typed;
}

/** A car's transmission when it is exactly 'Manual' or 'Automatic', in the page's language; other typed text as it is. */
export function typedTransmissionText(typed: string): string {
  const key = Object.keys(TRANSMISSION_KEYS).find((transmission) => TRANSMISSION_KEYS[transmission as TransmissionKey] === typed);
  return key ? transmissionLabel(key) : typed;
}
