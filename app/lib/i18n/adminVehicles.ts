import en from './en/adminVehicles.json' with { type: 'json' };
import hi from './hi/adminVehicles.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin's vehicle and category screens, forms and upload messages. */
export const adminVehiclesText = defineTexts('adminVehicles', en, hi);
