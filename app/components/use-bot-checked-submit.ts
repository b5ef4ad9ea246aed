import { useState } from 'react';
import { useRouteLoaderData, useSubmit } from 'react-router';
import type { loader as rootLoader } from '../root.tsx';
import { solveBotCheck } from '../lib/bot-check-client.ts';

/**
 * Submits a form after solving the bot check for `action` (SPEC 7: LOGIN, GOOGLE_LOGIN, and
 * sending an OTP). The token travels in the `botCheck` field; the server verifies it.
 * `solving` is true while the proof of work runs, so the button can show its busy text at once.
 */
export function useBotCheckedSubmit() {
  const submit = useSubmit();
  const botCheck = useRouteLoaderData<typeof rootLoader>('root')?.botCheck;
  const [solving, setSolving] = useState<string | null>(null);

  async function submitChecked(form: HTMLFormElement, submitter: HTMLElement | null, action: string) {
    const data = new FormData(form, submitter);
    setSolving(String(data.get('intent') ?? action));
    try {
      data.set('botCheck', await solveBotCheck(action, botCheck ?? { provider: 'altcha' }));
    } catch {
      // The server answers a missing token with the spec's bot-check message.
      data.set('botCheck', '');
    } finally {
      setSolving(null);
    }
    await submit(data, { method: 'post' });
  }

  return { solving, submitChecked };
}
