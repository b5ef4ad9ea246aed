import en from './en/common.json' with { type: 'json' };
import hi from './hi/common.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of every page: the top bar, menus, footer, prices and dates. */
export const commonText = defineTexts('common', en, hi);
