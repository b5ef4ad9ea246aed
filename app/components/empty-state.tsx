import { Link } from 'react-router';

const PANEL = 'rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200';

/**
 * A list with nothing in it (an empty wishlist, a search without a car): what happened, what to
 * do, and `children` for the way on (a link, suggestions).
 */
export function EmptyPanel({ title, text, children }: { title: string; text: string; children?: React.ReactNode }) {
  return (
    <div className={PANEL}>
      <p className="text-lg font-semibold">{title}</p>
      <p className="mt-2 text-slate-600">{text}</p>
      {children}
    </div>
  );
}

/** The link under an EmptyPanel's text. */
export function EmptyPanelLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="mt-4 inline-block font-semibold text-brand-700 underline">
      {children}
    </Link>
  );
}

/** A page whose subject is not there (an unknown address, a car that is gone): its heading, why, and one way on. */
export function MissingPage({ title, text, to, action }: { title: string; text: string; to: string; action: string }) {
  return (
    <div className={`mx-auto mt-8 max-w-md ${PANEL}`}>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-3 text-slate-600">{text}</p>
      <Link to={to} className="mt-6 inline-block rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
        {action}
      </Link>
    </div>
  );
}
