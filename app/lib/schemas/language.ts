import { z } from 'zod';
import { accountText } from '../i18n/account.ts';
import { LANGUAGES } from '../i18n/language.ts';
import { localRedirect, paths } from '../paths.ts';

/** The language switch's form (decision 087, read by its schema as 109 says): the language, and the page to open again in it (a local path; home otherwise). */
export const languageChoiceSchema = z.object({
  language: z.enum(LANGUAGES, { error: () => accountText('chooseLanguage') }),
  back: z
    .string()
    .optional()
    .transform((typed) => localRedirect(typed ?? '') ?? paths.home),
});
