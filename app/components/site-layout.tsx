import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { matchPattern, pathPatterns, paths } from '../lib/paths.ts';
import { ChevronDownIcon, CloseIcon, DownloadIcon, GridIcon, HeartIcon, HomeIcon, LoginIcon, MenuIcon, SearchIcon, UserIcon } from './icons.tsx';
import { menuLinks } from './navigation-links.ts';
import { SearchOverlay } from './search-overlay.tsx';
import { useModalDialog } from './use-dialog.ts';
import { LogoutButton } from './logout-button.tsx';
import { useRootData } from './root-data.ts';
import { CompareTray } from './compare.tsx';

function useSite() {
  return useRootData().site;
}

/** Every route change starts at the top of the page; the browser's restoration is off. */
function useScrollToTopOnNavigation() {
  const location = useLocation();
  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  }, []);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname, location.search]);
}

function MenuDropdown() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
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
        className="flex items-center gap-1 rounded-lg px-3 py-2 text-sm font-semibold hover:bg-white/10"
      >
        Menu <ChevronDownIcon className="h-4 w-4" />
      </button>
      <nav id="site-menu" aria-label="Site menu" hidden={!open} className="absolute right-0 top-full z-30 mt-2 w-56 overflow-hidden rounded-xl bg-white py-1 text-slate-800 shadow-xl ring-1 ring-slate-200">
        <ul>
          {menuLinks.map((link) => (
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
      aria-label="Menu"
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) close();
      }}
      className="m-0 h-dvh max-h-none w-72 max-w-[85vw] bg-white p-0 backdrop:bg-slate-900/60"
    >
      <div className="flex items-center justify-between border-b border-slate-200 p-4">
        <span className="text-lg font-bold text-brand-800">Menu</span>
        <button type="button" onClick={close} aria-label="Close menu" className="rounded-lg p-2 text-slate-600 hover:bg-slate-100">
          <CloseIcon />
        </button>
      </div>
      <nav aria-label="Drawer menu">
        <ul className="py-2">
          {menuLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block px-5 py-3 font-medium hover:bg-slate-100">
                {link.label}
              </Link>
            </li>
          ))}
          <li className="mt-2 border-t border-slate-200 pt-2">
            <a href={androidAppUrl} className="flex items-center gap-2 px-5 py-3 font-medium text-brand-700 hover:bg-slate-100" rel="noopener">
              <DownloadIcon className="h-5 w-5" /> Download App
            </a>
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
    <nav aria-label="Quick links" className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] sm:hidden">
      <ul className="flex">
        <li className="flex flex-1">
          <NavLink to={paths.home} end className={tone}>
            <HomeIcon className="h-5 w-5" /> Home
          </NavLink>
        </li>
        <li className="flex flex-1">
          <NavLink to={paths.categories()} className={tone}>
            <GridIcon className="h-5 w-5" /> Categories
          </NavLink>
        </li>
        <li className="flex flex-1">
          <Link to={paths.home} state={{ focusSearch: true }} className={`${item} text-slate-600`}>
            <SearchIcon className="h-5 w-5" /> Search
          </Link>
        </li>
        <li className="flex flex-1">
          <NavLink to={paths.wishlist} className={tone}>
            <HeartIcon className="h-5 w-5" /> Wishlist
          </NavLink>
        </li>
        <li className="flex flex-1">
          <NavLink to={paths.profile} className={tone}>
            <UserIcon className="h-5 w-5" /> Profile
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
      <h1 className="text-lg font-semibold text-slate-700">Loading Vehicle Details</h1>
    </div>
  );
}

export default function SiteLayout() {
  const { site, signedIn } = useRootData();
  const drawer = useModalDialog();
  const search = useModalDialog();
  const navigation = useNavigation();
  useScrollToTopOnNavigation();
  const loadingVehicle = navigation.state === 'loading' && matchPattern(pathPatterns.vehicle, navigation.location.pathname) !== null;

  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="sticky top-0 z-20 bg-brand-800 text-white shadow">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-1 px-2 sm:px-4">
          <button type="button" onClick={drawer.show} aria-label="Open menu" aria-expanded={drawer.open} className="rounded-lg p-2 hover:bg-white/10">
            <MenuIcon />
          </button>
          <Link to={paths.home} className="mr-auto truncate px-1 text-lg font-extrabold tracking-tight">
            {site.siteName}
          </Link>
          <button type="button" onClick={search.show} aria-label="Search vehicles" className="rounded-lg p-2 hover:bg-white/10">
            <SearchIcon />
          </button>
          <a href={site.androidAppUrl} rel="noopener" className="flex items-center gap-1 rounded-lg px-2 py-2 text-sm font-semibold hover:bg-white/10">
            <DownloadIcon className="h-5 w-5" />
            <span className="hidden min-[420px]:inline">Download App</span>
            <span className="sr-only min-[420px]:hidden">Download App</span>
          </a>
          <MenuDropdown />
          {signedIn ? (
            <LogoutButton className="rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-white/40 hover:bg-white/10" />
          ) : (
            <Link to={paths.login} aria-label="Login" className="rounded-lg p-2 hover:bg-white/10">
              <LoginIcon />
            </Link>
          )}
        </div>
      </header>
      <Drawer dialogRef={drawer.ref} close={drawer.close} androidAppUrl={site.androidAppUrl} signedIn={signedIn} />
      <SearchOverlay dialogRef={search.ref} onClose={search.close} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 pb-24 pt-4 sm:pb-10">
        {loadingVehicle ? <VehicleLoading /> : <Outlet />}
      </main>
      <footer className="hidden border-t border-slate-200 bg-white py-6 text-center text-sm text-slate-600 sm:block">
        <nav aria-label="Footer" className="mb-2 flex flex-wrap justify-center gap-4">
          {menuLinks.slice(4).map((link) => (
            <Link key={link.to} to={link.to} className="hover:text-brand-700">
              {link.label}
            </Link>
          ))}
          <Link to={paths.privacy} className="hover:text-brand-700">
            Privacy
          </Link>
        </nav>
        © {new Date().getFullYear()} {site.siteName}
      </footer>
      <CompareTray />
      <BottomBar />
    </div>
  );
}

export { useSite };
