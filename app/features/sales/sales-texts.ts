import en from './texts/en/sales.json' with { type: 'json' };
import hi from './texts/hi/sales.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of a car's sale: the desk's page, its refusals, the tax invoice and the credit note. */
export const salesText = defineTexts('sales', en, hi);
