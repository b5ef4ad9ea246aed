import en from './texts/en/auditFields.json' with { type: 'json' };
import hi from './texts/hi/auditFields.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The names of the fields the audit log records before and after a change, for people to read (the records keep their codes). */
export const auditFieldsText = defineTexts('auditFields', en, hi);
