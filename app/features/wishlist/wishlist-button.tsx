import { useEffect, useState } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { HeartIcon } from '../../components/icons.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';
import { rememberWishlisted, usePersonal } from '../../components/use-personal.ts';

const MESSAGE_MS = 2000;

/**
 * The heart on a vehicle page and on every card. Signed out it leads to /login, which brings the
 * visitor back to the page they were on; signed in it
 * adds or removes the car and says so for two seconds (SPEC 4, Wishlist toggle), disabled while
 * the change runs. A card's heart posts to its vehicle page's action (`action`), the same one.
 *
 * Whether the visitor is signed in and the car on their list is known only after the page loaded
 * (use-personal.ts, decision 127): until then the heart is the signed-out outline, the same size.
 */
export function WishlistButton({
  vehicleId,
  action,
  carName,
  className: extra = '',
}: {
  vehicleId: number;
  /** The vehicle page the change is sent to; the current page when left out. */
  action?: string;
  /** Named in the button's label where several hearts share a page. */
  carName?: string;
  /** Where the heart sits; it must position it (relative by default), as the message hangs below it. */
  className?: string;
}) {
  const location = useLocation();
  const personal = usePersonal();
  const signedIn = personal?.signedIn === true;
  const wishlisted = personal?.wishlist.includes(vehicleId) === true;
  const fetcher = useFetcher<{ wishlisted?: boolean; message?: string; error?: string }>();
  // The result whose message has had its two seconds.
  const [expired, setExpired] = useState<unknown>(null);
  const busy = fetcher.state !== 'idle';
  // While the request runs, show the state the person asked for.
  const pendingValue = fetcher.formData?.get('wishlisted');
  const current = pendingValue ? pendingValue === 'true' : (fetcher.data?.wishlisted ?? wishlisted);
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;

  useEffect(() => {
    if (!result) return;
    if (!result.error && typeof result.wishlisted === 'boolean') rememberWishlisted(vehicleId, result.wishlisted);
    const timer = setTimeout(() => setExpired(result), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [result, vehicleId]);
  const visibleMessage = result && expired !== result ? (result.error ?? result.message ?? null) : null;

  const className = 'inline-flex rounded-full bg-white p-3 shadow-sm ring-1 ring-slate-200 hover:bg-slate-100 disabled:opacity-60';
  const addLabel = carName ? t('addCarToWishlist', { car: carName }) : t('addToWishlist');
  const removeLabel = carName ? t('removeCarFromWishlist', { car: carName }) : t('removeFromWishlist');
  if (!signedIn) {
    return (
      <Link to={paths.loginThen(`${location.pathname}${location.search}`)} aria-label={addLabel} className={`${className} text-slate-700 ${extra}`}>
        <HeartIcon className="h-5 w-5" />
      </Link>
    );
  }
  return (
    <div className={extra || 'relative'}>
      <fetcher.Form method="post" {...(action ? { action } : {})}>
        <input type="hidden" name="intent" value="wishlist" />
        <input type="hidden" name="wishlisted" value={String(!current)} />
        <button
          type="submit"
          disabled={busy}
          aria-pressed={current}
          aria-label={current ? removeLabel : addLabel}
          className={`${className} ${current ? 'text-red-600' : 'text-slate-700'}`}
        >
          <HeartIcon className="h-5 w-5" filled={current} />
        </button>
      </fetcher.Form>
      <p role="status" className="absolute right-0 top-full z-10 mt-2 whitespace-nowrap">
        {visibleMessage ? <span className="rounded-lg bg-slate-900 px-3 py-1.5 text-sm font-medium text-white shadow">{visibleMessage}</span> : null}
      </p>
    </div>
  );
}
