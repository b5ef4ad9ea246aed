import en from './texts/en/checkoutWindow.json' with { type: 'json' };
import hi from './texts/hi/checkoutWindow.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of the Razorpay payment window on the pay pages (a rental booking's, a reservation's). */
export const checkoutWindowText = defineTexts('checkoutWindow', en, hi);
