import { useEffect, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { paths } from '../lib/paths.ts';
import { HeartIcon } from './icons.tsx';

const MESSAGE_MS = 2000;

/**
 * The heart on a vehicle page. Signed out it leads to /login; signed in it adds or removes the
 * car and says so for two seconds (SPEC 4, Wishlist toggle), disabled while the change runs.
 */
export function WishlistButton({ signedIn, wishlisted }: { signedIn: boolean; wishlisted: boolean }) {
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
    const timer = setTimeout(() => setExpired(result), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [result]);
  const visibleMessage = result && expired !== result ? (result.error ?? result.message ?? null) : null;

  const className = 'inline-flex rounded-full bg-white p-3 shadow-sm ring-1 ring-slate-200 hover:bg-slate-100 disabled:opacity-60';
  if (!signedIn) {
    return (
      <Link to={paths.login} aria-label="Add to wishlist" className={`${className} text-slate-700`}>
        <HeartIcon className="h-5 w-5" />
      </Link>
    );
  }
  return (
    <div className="relative">
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="wishlist" />
        <input type="hidden" name="wishlisted" value={String(!current)} />
        <button type="submit" disabled={busy} aria-pressed={current} aria-label={current ? 'Remove from wishlist' : 'Add to wishlist'} className={`${className} ${current ? 'text-red-600' : 'text-slate-700'}`}>
          <HeartIcon className="h-5 w-5" filled={current} />
        </button>
      </fetcher.Form>
      <p role="status" className="absolute right-0 top-full z-10 mt-2 whitespace-nowrap">
        {visibleMessage ? <span className="rounded-lg bg-slate-900 px-3 py-1.5 text-sm font-medium text-white shadow">{visibleMessage}</span> : null}
      </p>
    </div>
  );
}
