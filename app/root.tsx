import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, useRouteError, useRouteLoaderData } from 'react-router';
import { publicConfig } from '../server/config.ts';
import type { Route } from './+types/root';
import { appContext } from './context.ts';
import { currentUser } from '../server/auth/session.ts';
import { settingsFor } from '../server/admin/settings.ts';
import { financeTerms } from '../server/catalog/settings.ts';
import { personalSummary } from '../server/accounts/personal-summary.ts';
import { isSharedPageRequest } from '../server/http/shared-pages.ts';
import './app.css';
import { useNonce } from './lib/nonce.tsx';
import { WEB_MANIFEST_PATH } from './lib/offline.ts';
import { APPLE_TOUCH_ICON, THEME_COLOR } from './features/install/web-manifest.ts';
import { currentLanguage } from './lib/i18n/current.ts';
import { LANGUAGE_TAGS, pathInLanguage } from './lib/i18n/language.ts';
import { commonText as t } from './lib/i18n/common.ts';
import { browseText } from './lib/i18n/browse.ts';
import { SiteFrame } from './routes/site-layout.tsx';
import { OfflineNotice } from './features/install/offline-notice.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { config, auth } = services;
  // A shared page (home, a car, …) is rendered for nobody and reads no session: the browser fills
  // the person in after it loaded (use-personal.ts, decision 127). A personal page gives them here.
  const shared = isSharedPageRequest(request);
  const [user, settings] = await Promise.all([shared ? null : currentUser(auth, request), settingsFor(services)]);
  // Every card shows its heart filled or not, and "EMI from" on the admin's terms.
  const personal = shared ? null : await personalSummary(services.database, user);
  // The admins' Site Name replaces the configured one in titles and the top bar.
  return {
    site: { ...publicConfig(config), siteName: settings.siteName },
    /** The person looking (signed in, name, wishlist ids); null on a shared page: not known here. */
    personal,
    finance: financeTerms(settings),
    // What the one price label includes (decision 062).
    priceIncludes: settings.priceIncludes,
    // Cards offer "Reserve" only where payments are configured (decision 080).
    reserve: services.payments ? { amount: settings.reservationAmount, holdHours: settings.reservationHoldHours } : null,
    botCheck: { provider: config.botCheck.provider, siteKey: config.botCheck.siteKey },
  };
}

/**
 * React Router gives the links it renders the response's nonce. The browser does not know it,
 * so there the nonce is read back from the one such link there is (the critical stylesheet
 * of `npm run dev`), and React hydrates that link without a mismatch. Elsewhere it is left to
 * React Router, as before.
 */
function linksNonce(nonce: string): string | undefined {
  if (typeof document === 'undefined') return nonce || undefined;
  // The attribute reads '' (the browser hides nonces from the page); the property keeps it.
  return document.querySelector<HTMLLinkElement>('link[data-react-router-critical-css]')?.nonce || undefined;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang={LANGUAGE_TAGS[currentLanguage()].html}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={THEME_COLOR} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href={pathInLanguage(WEB_MANIFEST_PATH, currentLanguage())} />
        <link rel="apple-touch-icon" href={APPLE_TOUCH_ICON} />
        <Meta />
        <Links nonce={linksNonce(nonce)} />
      </head>
      <body>
        {children}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * Last line of defence: a friendly page, never a stack trace. Inside the site's frame whenever
 * the site's data is at hand (a page that failed, a link followed without a signal), so the
 * visitor keeps the menu, the search and the way home; bare only when even that is missing.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('root');
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (data && !notFound && isOffline(error)) {
    return (
      <SiteFrame>
        <title>{browseText('offlineTitle')}</title>
        <OfflineNotice />
      </SiteFrame>
    );
  }
  const message = (
    <div className="mx-auto flex max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{notFound ? t('pageNotFound') : t('somethingWentWrong')}</title>
      <h1 className="text-2xl font-bold">{notFound ? t('pageNotFound') : t('somethingWentWrong')}</h1>
      <p className="text-slate-600">{notFound ? t('pageNotFoundText') : t('pageFailedText')}</p>
      <a href={pathInLanguage('/', currentLanguage())} className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white">
        {t('goTo', { place: data?.site.siteName ?? t('homeWord') })}
      </a>
    </div>
  );
  if (data) return <SiteFrame>{message}</SiteFrame>;
  return <main className="flex min-h-dvh flex-col items-center justify-center">{message}</main>;
}

/** The page's data could not be fetched for want of a network: the browser is offline, or the request failed on the way. */
function isOffline(error: unknown): boolean {
  // On the server (Node has a `navigator` too) a failed fetch is the server's, never the visitor's signal.
  if (typeof document === 'undefined') return false;
  return navigator.onLine === false || (error instanceof TypeError && /fetch|network|load failed/i.test(error.message));
}
