import { useSyncExternalStore } from 'react';
import { useSite } from './site-layout.tsx';
import { InstallIcon } from '../components/icons.tsx';
import { promptInstall, useCanInstall } from '../features/install/install-prompt-store.ts';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';
import { infoText as t } from '../lib/i18n/info.ts';

/**
 * Where "Download App" leads when the dealer has no store listing and the browser offers no
 * install at the tap (decision 121): the install button once the browser offers it, and the
 * steps for Chrome on Android and Safari on an iPhone, in the page's language.
 */

export const meta = pageMeta((site) => ({
  path: paths.getApp,
  title: t('getAppTitle', { site: site.siteName }),
  description: t('getAppDescription', { site: site.siteName }),
}));

/** Whether the page is open in the installed app (standalone); never while rendering on the server or hydrating. */
function useInstalled(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia('(display-mode: standalone)');
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => window.matchMedia('(display-mode: standalone)').matches,
    () => false,
  );
}

const STEPS = {
  android: ['getAppAndroid1', 'getAppAndroid2', 'getAppAndroid3', 'getAppAndroid4'],
  iphone: ['getAppIphone1', 'getAppIphone2', 'getAppIphone3', 'getAppIphone4'],
} as const;

export default function GetApp() {
  const site = useSite();
  const canInstall = useCanInstall();
  const installed = useInstalled();
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('getAppTitle', { site: site.siteName })}</h1>
      <p>{t('getAppIntro')}</p>
      {/* The browser's offer and the installed app are known after hydration only: the space is kept so nothing below moves. */}
      <div data-changes-once-hydrated="" className="min-h-11">
        {installed ? (
          <p className="font-semibold text-emerald-700">{t('getAppInstalled')}</p>
        ) : canInstall ? (
          <button
            type="button"
            onClick={() => void promptInstall()}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
          >
            <InstallIcon className="h-5 w-5" />
            {t('getAppInstall')}
          </button>
        ) : null}
      </div>
      {(['android', 'iphone'] as const).map((kind) => (
        <section key={kind} aria-labelledby={`get-app-${kind}`} className="flex flex-col gap-2">
          <h2 id={`get-app-${kind}`} className="text-xl font-bold">
            {t(kind === 'android' ? 'getAppAndroidHeading' : 'getAppIphoneHeading')}
          </h2>
          <ol className="ml-5 list-decimal space-y-1">
            {STEPS[kind].map((step) => (
              <li key={step}>{t(step)}</li>
            ))}
          </ol>
        </section>
      ))}
    </article>
  );
}
