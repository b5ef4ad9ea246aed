/** Category rules and messages (SPEC 5 and 8), shared by the pages and the server. */
import { browseCategoryRulesText as t } from './i18n/browseCategoryRules.ts';

export const MAX_CATEGORY_NAME = 60;

/**
 * The category messages, each read when it is used, in the language of the page or request of
 * that moment (getters, so `categoryMessages.notFound` reads as before).
 */
export const categoryMessages = {
  get nameRequired() {
    return t('nameRequired');
  },
  get added() {
    return t('added');
  },
  get addFailed() {
    return t('addFailed');
  },
  get updated() {
    return t('updated');
  },
  get updateFailed() {
    return t('updateFailed');
  },
  get deleted() {
    return t('deleted');
  },
  get deleteFailed() {
    return t('deleteFailed');
  },
  get loadFailed() {
    return t('loadFailed');
  },
  get confirmDelete() {
    return t('confirmDelete');
  },
  get notFound() {
    return t('notFound');
  },
} as const;
