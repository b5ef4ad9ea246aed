import en from './texts/en/delivery.json' with { type: 'json' };
import hi from './texts/hi/delivery.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of a sold car's delivery (decision 116): the desk's form, its refusals, the delivery note, the buyer's messages. */
export const deliveryText = defineTexts('delivery', en, hi);
