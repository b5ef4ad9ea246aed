import en from './texts/en/adminVehicles.json' with { type: 'json' };
import hi from './texts/hi/adminVehicles.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin's vehicle and category screens, forms and upload messages. */
export const adminVehiclesText = defineTexts('adminVehicles', en, hi);
