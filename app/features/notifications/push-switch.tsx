import { useEffect, useId, useState } from 'react';
import { currentLanguage } from '../../lib/i18n/current.ts';
import { pushText as t } from './push-texts.ts';

/**
 * The profile's "Notifications on this device" switch (decision 124). Whether this device has
 * them on is known only in the browser: its push subscription, and whether that subscription is
 * one the server holds for the person signed in (`endpoints`, from the page's loader: a device
 * another person switched on shows Off here). On asks the browser's permission, subscribes with
 * the site's VAPID key and hands the subscription to the server; Off tells the server, then the
 * browser. The server renders "checking"; the status line keeps its height, so nothing below moves.
 */

type State = 'checking' | 'unsupported' | 'denied' | 'on' | 'off';

const API = '/api/v1/me/push-subscriptions';
/** How long a page waits for the service worker to start before it says this browser cannot have notifications. */
const WORKER_WAIT_MS = 10_000;

function supported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The service worker's registration, or null when the site has none (a development server, a private window). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const found = await navigator.serviceWorker.getRegistration();
  if (found?.active) return found;
  // Registering (a first visit registers once the page has loaded) or installing: `ready`
  // resolves once it is active. A site with no worker at all (`npm run dev`) waits in vain.
  return Promise.race([navigator.serviceWorker.ready, new Promise<null>((resolve) => setTimeout(() => resolve(null), WORKER_WAIT_MS))]);
}

/** A base64url text as bytes: what `applicationServerKey` takes. */
function base64urlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const held = subscription.options?.applicationServerKey;
  if (!held) return false;
  const bytes = new Uint8Array(held);
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
}

async function send(method: 'POST' | 'DELETE', body: unknown): Promise<Response> {
  return fetch(API, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': currentLanguage() },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
}

/** The problem's sentence for the person, or the general one. */
async function problemDetail(response: Response): Promise<string> {
  const problem = (await response.json().catch(() => null)) as { detail?: unknown } | null;
  return typeof problem?.detail === 'string' && problem.detail ? problem.detail : t('failed');
}

export function PushSwitch({ endpoints }: { endpoints: string[] }) {
  const [state, setState] = useState<State>('checking');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const titleId = useId();
  const statusId = useId();

  useEffect(() => {
    let live = true;
    void (async () => {
      if (!supported()) return setState('unsupported');
      if (Notification.permission === 'denied') return setState('denied');
      try {
        const found = await registration();
        if (!found) return live && setState('unsupported');
        const subscription = await found.pushManager.getSubscription();
        if (live) setState(subscription && Notification.permission === 'granted' && endpoints.includes(subscription.endpoint) ? 'on' : 'off');
      } catch {
        if (live) setState('off');
      }
    })();
    return () => {
      live = false;
    };
    // The endpoints the page was rendered with: a change of them comes with a new page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function switchOn() {
    const permission = await Notification.requestPermission();
    if (permission === 'denied') return setState('denied');
    if (permission !== 'granted') return setNotice(t('notAllowed'));
    const found = await registration();
    if (!found) return setState('unsupported');
    const keyAnswer = await fetch('/api/v1/push/key', { headers: { accept: 'application/json' } });
    if (!keyAnswer.ok) return setNotice(await problemDetail(keyAnswer));
    const key = base64urlBytes(((await keyAnswer.json()) as { publicKey: string }).publicKey);
    let subscription = await found.pushManager.getSubscription();
    // Made with another key (the dealer replaced the pair): the push service would refuse ours.
    if (subscription && !sameKey(subscription, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const answer = await send('POST', subscription.toJSON());
    if (!answer.ok) return setNotice(await problemDetail(answer));
    setState('on');
  }

  async function switchOff() {
    const found = await registration();
    const subscription = await found?.pushManager.getSubscription();
    if (subscription) {
      const answer = await send('DELETE', { endpoint: subscription.endpoint });
      if (!answer.ok) return setNotice(await problemDetail(answer));
      await subscription.unsubscribe();
    }
    setState('off');
  }

  async function toggle() {
    if (busy) return;
    setBusy(true);
    setNotice(null);
    try {
      await (state === 'on' ? switchOff() : switchOn());
    } catch {
      setNotice(t('failed'));
    } finally {
      setBusy(false);
    }
  }

  const on = state === 'on';
  const disabled = busy || state === 'checking' || state === 'unsupported' || state === 'denied';
  const status =
    notice ??
    (busy
      ? t('saving')
      : state === 'checking'
        ? t('checking')
        : state === 'unsupported'
          ? t('unsupported')
          : state === 'denied'
            ? t('denied')
            : t(on ? 'stateOn' : 'stateOff'));
  return (
    // The switch and its status read the browser once hydrated: the server's "checking" changes then (the hydration check skips it).
    <section id="notifications" aria-labelledby={titleId} className="mt-8 border-t border-slate-200 pt-6" data-changes-once-hydrated="">
      <div className="flex items-center justify-between gap-4">
        <h2 id={titleId} className="min-w-0 text-lg font-bold">
          {t('title')}
        </h2>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby={titleId}
          aria-describedby={statusId}
          disabled={disabled}
          onClick={() => void toggle()}
          className="group inline-flex min-h-11 shrink-0 items-center gap-2 rounded-full px-1 font-semibold text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <span
            aria-hidden="true"
            className={`relative inline-block h-7 w-12 rounded-full transition-colors ${on ? 'bg-green-600' : 'bg-slate-300'} ${busy ? 'animate-pulse' : ''}`}
          >
            <span className={`absolute top-1 left-1 h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-5' : ''}`} />
          </span>
          {/* Both words take the same room, so the switch does not change width when it flips. */}
          <span className="inline-grid text-sm">
            <span className={`col-start-1 row-start-1 ${on ? '' : 'invisible'}`}>{t('on')}</span>
            <span className={`col-start-1 row-start-1 ${on ? 'invisible' : ''}`}>{t('off')}</span>
          </span>
        </button>
      </div>
      <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      <p id={statusId} role="status" className={`mt-2 min-h-[2lh] text-sm ${state === 'denied' || notice ? 'text-red-700' : 'text-slate-700'}`}>
        {status}
      </p>
    </section>
  );
}
