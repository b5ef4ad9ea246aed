import en from './en/errors.json' with { type: 'json' };
import hi from './hi/errors.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The server's own refusals: problem+json titles, unreadable or too large forms, cross-site posts, outages and maintenance. */
export const errorsText = defineTexts('errors', en, hi);
