import en from './en/browseShared.json' with { type: 'json' };
import hi from './hi/browseShared.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The few browsing texts every page may need (a car without a name, the site card's alt text), kept apart so no page loads the listing's texts for them. */
export const browseSharedText = defineTexts('browseShared', en, hi);
