import { authText as t } from './auth-texts.ts';

/**
 * The Google button on sign-in and sign-up (SPEC 2: a social-account button on both). Shown
 * working when Google is configured; without it, shown disabled with a plain sentence in the
 * demo and the tests (so the specification's social sign-in is visible), and left out in
 * production, where a button that cannot work would only disappoint.
 */
export type GoogleButtonState = 'on' | 'not-configured' | 'hidden';

export function googleButtonState(configured: boolean, mode: 'production' | 'demo' | 'test'): GoogleButtonState {
  if (configured) return 'on';
  return mode === 'production' ? 'hidden' : 'not-configured';
}

/** Why the demo's Google button is disabled, in the page's language. */
export function googleNotConfigured(): string {
  return t('googleNotConfigured');
}
