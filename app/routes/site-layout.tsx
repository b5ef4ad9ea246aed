import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { matchPattern, pathPatterns, paths } from '../lib/paths.ts';
import {
  ChevronDownIcon,
  CloseIcon,
  DownloadIcon,
  GridIcon,
  HeartIcon,
  HomeIcon,
  LoginIcon,
  LogoutIcon,
  MenuIcon,
  SearchIcon,
  UserIcon,
} from '../components/icons.tsx';
import { menuLinks } from '../components/navigation-links.ts';
import { SearchOverlay } from '../features/search/search-overlay.tsx';
import { useModalDialog } from '../components/use-dialog.ts';
import { LogoutButton } from '../components/logout-button.tsx';
import { useRootData } from '../components/root-data.ts';
import { usePersonal, usePersonalSync } from '../components/use-personal.ts';
import { CompareTray } from '../features/compare/compare.tsx';
import { LaterHydration } from '../components/later-hydration.tsx';
import { DownloadAppLink } from '../features/install/download-app-link.tsx';
import { LanguageSwitch } from '../components/language-switch.tsx';
import { commonText as t } from '../lib/i18n/common.ts';

function useSite() {
  return useRootData().site;
}

/**
 * Every route change starts at the top of the page, or at the part its #fragment names (the sell
 * page's #estimate), as it would without script; the browser's restoration is off.
 */
function useScrollToTopOnNavigation() {
  const location = useLocation();
  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  }, []);
  useEffect(() => {
    const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView({ block: 'start' });
    else window.scrollTo(0, 0);
  }, [location.pathname, location.search, location.hash]);
}

/**
 * Phones: the top bar slides away while the visitor scrolls down and comes back on the way up,
 * so the page keeps its screen (issue: sticky chrome at most 120 of 800 px). One passive scroll
 * listener that flips a data attribute; the CSS does the rest, and focus inside brings it back.
 */
function useTopBarHidesOnScrollDown(header: React.RefObject<HTMLElement | null>) {
  const location = useLocation();
  useEffect(() => {
    let last = window.scrollY;
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const y = window.scrollY;
        if (Math.abs(y - last) < 8) return;
        const away = y > last && y > 64;
        last = y;
        header.current?.toggleAttribute('data-scrolled-away', away);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [header]);
  // A new page starts with the bar shown.
  useEffect(() => {
    header.current?.removeAttribute('data-scrolled-away');
  }, [header, location.pathname, location.search]);
}

/** Route modules say with `handle.contactBar(data)` that their page has a contact bar fixed at the bottom. */
type ContactBarHandle = { contactBar?: (data: unknown) => boolean };

function useContactBarPage(): boolean {
  const leaf = useMatches().at(-1);
  const handle = leaf?.handle as ContactBarHandle | undefined;
  return typeof handle?.contactBar === 'function' && handle.contactBar(leaf?.loaderData);
}

function MenuDropdown() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  // Listening from the moment the menu shows (a layout effect runs before the browser paints it):
  // an Escape or a click outside right after opening would otherwise go unheard on a busy phone.
  useLayoutEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div ref={container} className="relative hidden sm:block">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={() => setOpen((value) => !value)}
        className="flex min-h-11 items-center gap-1 rounded-lg px-3 text-sm font-semibold hover:bg-white/10"
      >
        {t('menu')} <ChevronDownIcon className="h-4 w-4" />
      </button>
      <nav
        id="site-menu"
        aria-label={t('siteMenu')}
        hidden={!open}
        className="absolute right-0 top-full z-30 mt-2 w-56 overflow-hidden rounded-xl bg-white py-1 text-slate-800 shadow-xl ring-1 ring-slate-200"
      >
        <ul>
          {menuLinks().map((link) => (
            <li key={link.to}>
              <Link to={link.to} onClick={() => setOpen(false)} className="block px-4 py-2.5 text-sm hover:bg-slate-100">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

type DrawerProps = { dialogRef: React.RefObject<HTMLDialogElement | null>; close: () => void; androidAppUrl: string; signedIn: boolean };

function Drawer({ dialogRef, close, androidAppUrl, signedIn }: DrawerProps) {
  const location = useLocation();
  useEffect(() => close(), [location, close]);
  return (
    <dialog
      ref={dialogRef}
      aria-label={t('menu')}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) close();
      }}
      className="m-0 h-dvh max-h-none w-72 max-w-[85vw] bg-white p-0 backdrop:bg-slate-900/60"
    >
      <div className="flex items-center justify-between border-b border-slate-200 p-4">
        <span className="text-lg font-bold text-brand-800">{t('menu')}</span>
        <button type="button" onClick={close} aria-label={t('closeMenu')} className="rounded-lg p-2 text-slate-600 hover:bg-slate-100">
          <CloseIcon />
        </button>
      </div>
      <nav aria-label={t('drawerMenu')}>
        <ul className="py-2">
          {menuLinks().map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block px-5 py-3 font-medium hover:bg-slate-100">
                {link.label}
              </Link>
            </li>
          ))}
          <li className="mt-2 border-t border-slate-200 pt-2">
            <DownloadAppLink storeUrl={androidAppUrl} className="flex items-center gap-2 px-5 py-3 font-medium text-brand-700 hover:bg-slate-100">
              <DownloadIcon className="h-5 w-5" /> {t('downloadApp')}
            </DownloadAppLink>
          </li>
          <li className="px-5 py-3">
            <LanguageSwitch className="font-medium text-brand-700" />
          </li>
          {signedIn ? (
            <li>
              <LogoutButton className="block w-full px-5 py-3 text-left font-medium hover:bg-slate-100" />
            </li>
          ) : null}
        </ul>
      </nav>
    </dialog>
  );
}

function BottomBar() {
  const item = 'flex flex-1 flex-col items-center gap-0.5 py-2 text-xs font-medium';
  const tone = ({ isActive }: { isActive: boolean }) => `${item} ${isActive ? 'text-brand-700' : 'text-slate-600'}`;
  return (
    <nav aria-label={t('quickLinks')} className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] sm:hidden">
      <ul className="flex">
        <li className="flex flex-1">
          <NavLink to={paths.home} end className={tone}>
            <HomeIcon className="h-5 w-5" /> {t('home')}
          </NavLink>
        </li>
        <li className="flex flex-1">
          <NavLink to={paths.categories()} className={tone}>
            <GridIcon className="h-5 w-5" /> {t('categories')}
          </NavLink>
        </li>
        <li className="flex flex-1">
          <Link to={paths.home} state={{ focusSearch: true }} className={`${item} text-slate-600`}>
            <SearchIcon className="h-5 w-5" /> {t('search')}
          </Link>
        </li>
        <li className="flex flex-1">
          <NavLink to={paths.wishlist} className={tone}>
            <HeartIcon className="h-5 w-5" /> {t('wishlist')}
          </NavLink>
        </li>
        <li className="flex flex-1">
          <NavLink to={paths.profile} className={tone}>
            <UserIcon className="h-5 w-5" /> {t('profile')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

/** Shown in place of the page while a vehicle page loads after a tap on a card. */
function VehicleLoading() {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4" role="status">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700" aria-hidden="true" />
      <h1 className="text-lg font-semibold text-slate-700">{t('loadingVehicleDetails')}</h1>
    </div>
  );
}

/** At least 44 by 44 px: a thumb's tap target. */
const iconButton = 'flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-white/10';
const labelledIcon =
  'flex min-h-11 min-w-11 shrink-0 flex-col items-center justify-center gap-0.5 rounded-lg px-1.5 hover:bg-white/10 sm:flex-row sm:gap-1.5 sm:px-2.5';

export default function SiteLayout() {
  const navigation = useNavigation();
  const loadingVehicle = navigation.state === 'loading' && matchPattern(pathPatterns.vehicle, navigation.location.pathname) !== null;
  return <SiteFrame>{loadingVehicle ? <VehicleLoading /> : <Outlet />}</SiteFrame>;
}

/**
 * The site's frame around a page: top bar, menu, search, footer, bottom bar. The pages' layout
 * route fills it with the page; the root's error boundary with what went wrong (root.tsx), so a
 * failed or offline page still has the way back every page has.
 */
export function SiteFrame({ children }: { children: React.ReactNode }) {
  const { site } = useRootData();
  // Known after the page loaded (decision 127): until then the signed-out form, in a slot of the same width.
  usePersonalSync();
  const signedIn = usePersonal()?.signedIn === true;
  const header = useRef<HTMLElement>(null);
  useTopBarHidesOnScrollDown(header);
  const contactBarPage = useContactBarPage();
  const drawer = useModalDialog();
  const search = useModalDialog();
  useScrollToTopOnNavigation();

  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        {t('skipToContent')}
      </a>
      <header
        ref={header}
        className="sticky top-0 z-20 bg-brand-800 text-white shadow transition-transform duration-200 max-sm:data-[scrolled-away]:not-focus-within:-translate-y-full motion-reduce:transition-none"
      >
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-0.5 px-1.5 sm:gap-1 sm:px-4">
          <button type="button" onClick={drawer.show} aria-label={t('openMenu')} aria-expanded={drawer.open} className={iconButton}>
            <MenuIcon />
          </button>
          <Link to={paths.home} className="mr-auto flex min-h-11 min-w-0 items-center truncate px-1 text-lg font-extrabold max-sm:text-base tracking-tight">
            <span className="truncate">{site.siteName}</span>
          </Link>
          {/* Phones show a short word under each icon; wider screens the full words beside it. */}
          <button type="button" onClick={search.show} aria-label={t('searchVehicles')} className={labelledIcon}>
            <SearchIcon className="h-5 w-5" />
            <span aria-hidden="true" className="text-[11px] font-medium leading-none sm:sr-only">
              {t('search')}
            </span>
          </button>
          <DownloadAppLink storeUrl={site.androidAppUrl} className={labelledIcon}>
            <DownloadIcon className="h-5 w-5" />
            <span className="text-[11px] font-medium leading-none sm:text-sm sm:font-semibold">
              <span className="max-sm:sr-only">{t('downloadWord')}</span>
              {t('app')}
            </span>
          </DownloadAppLink>
          <LanguageSwitch className={labelledIcon} withLetter />
          <MenuDropdown />
          {/* A slot of one width for either word: the person is known only after the page loaded
              (use-personal.ts), and the top bar must not move when "Login" becomes "Logout". */}
          <div className="flex w-14 shrink-0 justify-center sm:w-28">
            {signedIn ? (
              // Drawn like the other icons: with the language switch beside it, a bordered button
              // left the site's name no room on a phone.
              <LogoutButton className={labelledIcon}>
                <LogoutIcon className="h-5 w-5" />
                <span className="text-[11px] font-medium leading-none sm:text-sm sm:font-semibold">{t('logout')}</span>
              </LogoutButton>
            ) : (
              <Link to={paths.login} className={labelledIcon}>
                <LoginIcon className="h-5 w-5" />
                <span className="text-[11px] font-medium leading-none sm:text-sm sm:font-semibold">{t('login')}</span>
              </Link>
            )}
          </div>
        </div>
      </header>
      <Drawer dialogRef={drawer.ref} close={drawer.close} androidAppUrl={site.androidAppUrl} signedIn={signedIn} />
      <SearchOverlay dialogRef={search.ref} onClose={search.close} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 pb-24 pt-4 sm:pb-10">
        {children}
      </main>
      {/* The footer and the bottom bar hydrate after the page (later-hydration.tsx). The dialogs
          do not: their hooks above need their elements when the page starts. */}
      <LaterHydration id="footer">
        <footer className="hidden border-t border-slate-200 bg-white py-6 text-center text-sm text-slate-600 sm:block">
          <nav aria-label={t('footer')} className="mb-2 flex flex-wrap justify-center gap-4">
            {menuLinks()
              .slice(4)
              .map((link) => (
                <Link key={link.to} to={link.to} className="hover:text-brand-700">
                  {link.label}
                </Link>
              ))}
            <Link to={paths.privacy} className="hover:text-brand-700">
              {t('privacy')}
            </Link>
          </nav>
          © {new Date().getFullYear()} {site.siteName}
        </footer>
      </LaterHydration>
      <CompareTray />
      {/* A page with its own contact bar at the bottom (a car for sale) has it instead of the bottom bar. */}
      {contactBarPage ? null : (
        <LaterHydration id="bottom-bar">
          <BottomBar />
        </LaterHydration>
      )}
    </div>
  );
}

export { useSite };
