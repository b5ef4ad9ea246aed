/** A one-time message carried across a redirect (e.g. 'Vehicle updated successfully' on the list); server/http/flash.ts carries it. */
export type Toast = { tone: 'success' | 'error'; text: string };
