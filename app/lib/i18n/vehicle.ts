import en from './en/vehicle.json' with { type: 'json' };
import hi from './hi/vehicle.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of a car for sale's page: its facts, finance, contact buttons and wishlist answers. */
export const vehicleText = defineTexts('vehicle', en, hi);
