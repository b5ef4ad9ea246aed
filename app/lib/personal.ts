/**
 * What the public pages show of the person looking at them (decision 127): whether they are
 * signed in, their name, the ids of the cars on their wishlist (the filled hearts). Shared pages
 * are rendered for nobody; the browser asks for this after loading one (app/components/use-personal.ts).
 */
export type PersonalSummary = { signedIn: boolean; name: string | null; wishlist: number[] };

/** The one small private answer the shared pages ask for after they loaded. */
export const PERSONAL_SUMMARY_PATH = '/api/v1/me/summary';
