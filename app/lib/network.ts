import { commonText } from './i18n/common.ts';
import { liveTexts } from './i18n/texts.ts';

/** Said when a request never reached the server (the pages' actions and the app's sign-in alike), in the language of the moment. */
export const networkMessages = liveTexts(commonText, ['networkError']);

/**
 * Wraps a route's server action so a request that never reached the server (the phone lost
 * its connection) shows the spec's network message instead of an error page.
 */
export async function withNetworkErrorMessage<T>(serverAction: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof TypeError) return { error: networkMessages.networkError };
    throw error;
  }
}
