/** Category rules and messages (SPEC 5 and 8), shared by the pages and the server. */
import { browseCategoryRulesText as t } from './i18n/browseCategoryRules.ts';
import { liveTexts } from './i18n/texts.ts';

export const MAX_CATEGORY_NAME = 60;

/**
 * The category messages, each read when it is used, in the language of the page or request of
 * that moment (getters, so `categoryMessages.notFound` reads as before).
 */
export const categoryMessages = liveTexts(t, [
  'nameRequired',
  'added',
  'addFailed',
  'updated',
  'updateFailed',
  'deleted',
  'deleteFailed',
  'loadFailed',
  'confirmDelete',
  'notFound',
]);
