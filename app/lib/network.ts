import { messages } from './auth-messages.ts';

/**
 * Wraps a route's server action so a request that never reached the server (the phone lost
 * its connection) shows the spec's network message instead of an error page.
 */
export async function withNetworkErrorMessage<T>(serverAction: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof TypeError) return { error: messages.networkError };
    throw error;
  }
}
