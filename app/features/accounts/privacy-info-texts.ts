import en from './texts/en/privacyInfo.json' with { type: 'json' };
import hi from './texts/hi/privacyInfo.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of the privacy page: what we keep, why, who sees it, for how long, and your rights. */
export const privacyInfoText = defineTexts('privacyInfo', en, hi);
