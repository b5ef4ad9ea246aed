import { isRouteErrorResponse, Link, NavLink, Outlet, useLocation, useNavigation, useRouteError } from 'react-router';
import { withoutLanguage } from '../../lib/i18n/language.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { accessDenied } from '../../features/admin/admin-pages.ts';
import { adminShellText as t } from '../../features/admin/admin-shell-texts.ts';
import { LogoutButton } from '../../components/logout-button.tsx';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { appContext } from '../../context.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/layout';
import { adminPaths, paths } from '../../lib/paths.ts';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('pageTitle'))(args);
}

/** Every admin page sits under this guard, checked on the server for each request. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  return { adminEmail: admin.email };
}

/** The tabs; each label is a text key, read in the page's language where the tab is drawn. */
const navigation: ReadonlyArray<{ to: string; label: Parameters<typeof t>[0]; end?: boolean; notUnder?: string }> = [
  { to: adminPaths.dashboard, label: 'navDashboard', end: true },
  { to: adminPaths.vehicles, label: 'navVehicles' },
  { to: adminPaths.categories, label: 'navCategories' },
  { to: adminPaths.requestedVehicles, label: 'navRequests' },
  { to: adminPaths.sellingVehicles, label: 'navSellOffers' },
  { to: adminPaths.testDrives, label: 'navTestDrives' },
  { to: adminPaths.inspections, label: 'navInspections' },
  { to: adminPaths.rentalDesk, label: 'navRentalDesk' },
  // The liability list lives under /admin/sales but has its own tab.
  { to: adminPaths.sales, label: 'navSales', notUnder: adminPaths.rcTransfers },
  { to: adminPaths.rcTransfers, label: 'navTransfers' },
  { to: adminPaths.books(), label: 'navBooks' },
  { to: adminPaths.statistics, label: 'navStatistics' },
  { to: adminPaths.settings, label: 'navSettings' },
  { to: adminPaths.registerAdmin, label: 'navAdmins' },
  { to: adminPaths.auditLog, label: 'navAuditLog' },
];

function AdminShell({ children, email }: { children: React.ReactNode; email?: string }) {
  const pending = useNavigation().state === 'loading';
  const { pathname } = useLocation();
  return (
    <div className="min-h-dvh bg-slate-100">
      <header className="bg-slate-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-1.5">
          <Link to={adminPaths.dashboard} className="text-lg font-extrabold">
            {t('adminPanel')}
          </Link>
          <Link to={paths.home} className="inline-flex min-h-11 items-center text-sm text-slate-300 underline">
            {t('viewSite')}
          </Link>
          <LanguageSwitch className="inline-flex min-h-11 items-center text-sm text-slate-300 underline" />
          <span className="ml-auto hidden text-sm text-slate-300 sm:inline">{email}</span>
          {email ? <LogoutButton className="min-h-11 rounded-lg px-3 text-sm font-semibold ring-1 ring-white/40 hover:bg-white/10" /> : null}
        </div>
        {email ? (
          // Every tab in sight: on a phone they wrap onto more lines rather than hide past the edge.
          <nav aria-label={t('adminNavigation')} className="mx-auto max-w-7xl px-2">
            <ul className="flex flex-wrap gap-1 pb-2">
              {navigation.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.end}
                    className={({ isActive: matched }) => {
                      const isActive = matched && !(item.notUnder && withoutLanguage(pathname).startsWith(item.notUnder));
                      return `flex min-h-11 items-center whitespace-nowrap rounded-lg px-3 text-sm font-medium sm:min-h-9 ${isActive ? 'bg-white text-slate-900' : 'text-slate-200 hover:bg-white/10'}`;
                    }}
                  >
                    {t(item.label)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </header>
      {pending ? <div className="h-1 animate-pulse bg-brand-600" role="progressbar" aria-label={t('loading')} /> : null}
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </div>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell email={loaderData.adminEmail}>
      <Outlet />
    </AdminShell>
  );
}

/** SPEC 2, Admin guard screens: a signed-in non-admin sees Access Denied (HTTP 403). */
export function ErrorBoundary() {
  const error = useRouteError();
  const denied = isRouteErrorResponse(error) && error.status === 403;
  return (
    <AdminShell>
      <section className="mx-auto max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold">{denied ? accessDenied().title : t('somethingWentWrong')}</h1>
        <p className="mt-3 text-slate-600">{denied ? accessDenied().message : t('pageFailed')}</p>
        <div className="mt-6 flex justify-center gap-3">
          <Link to="/" className="rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white">
            {t('goToSite')}
          </Link>
          {denied ? <LogoutButton className="rounded-xl px-5 py-3 font-semibold ring-1 ring-slate-300">{t('signOut')}</LogoutButton> : null}
        </div>
      </section>
    </AdminShell>
  );
}
