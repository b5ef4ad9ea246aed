import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Toast } from '../../lib/toast.ts';
import { ArrowLeftIcon } from '../../components/icons.tsx';
import { primaryButton, secondaryButton } from '../../components/form.tsx';
import { adminShellText as t } from './admin-shell-texts.ts';
import { telLink } from '../../lib/contact.ts';

/** Pieces the admin catalogue screens share: page header, fields, toasts from several sources. */

export { useHydrated } from '../../components/use-hydrated.ts';

/** A toast with the moment the server made it, so the page can show the newest of several. */
export type StampedToast = Toast & { at: number };

export function stamp(tone: Toast['tone'], text: string): StampedToast {
  return { tone, text, at: Date.now() };
}

export function latestToast(...toasts: Array<StampedToast | Toast | null | undefined>): Toast | null {
  let latest: Toast | null = null;
  let latestAt = -Infinity;
  for (const toast of toasts) {
    if (!toast) continue;
    const at = 'at' in toast ? toast.at : 0;
    if (at >= latestAt) {
      latest = toast;
      latestAt = at;
    }
  }
  return latest;
}

export function PageHeader({ title, back, children }: { title: string; back?: { to: string; label: string }; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      {back ? (
        <Link
          to={back.to}
          className="inline-flex items-center gap-1.5 rounded-xl bg-white px-3 py-2 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"
        >
          <ArrowLeftIcon className="h-4 w-4" /> {back.label}
        </Link>
      ) : null}
      <h1 className="mr-auto text-2xl font-extrabold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}

export const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-red-700 px-4 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400';

export const smallButton =
  'inline-flex items-center justify-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400';

/** Where a remove button's ✕ gives way to the word (the classes spelled out for Tailwind to find). */
const REMOVE_WORD_FROM = {
  sm: { cross: 'sm:hidden', word: 'hidden sm:inline' },
  lg: { cross: 'lg:hidden', word: 'hidden lg:inline' },
} as const;

/** A remove button's face: a ✕ on narrow screens, "Remove" from `from` up; the button's aria-label says what goes. */
export function RemoveLabel({ from }: { from: keyof typeof REMOVE_WORD_FROM }) {
  return (
    <>
      <span aria-hidden="true" className={`text-lg leading-none ${REMOVE_WORD_FROM[from].cross}`}>
        ✕
      </span>
      <span aria-hidden="true" className={REMOVE_WORD_FROM[from].word}>
        {t('remove')}
      </span>
    </>
  );
}

export function StatusBadge({ status }: { status: 'available' | 'reserved' | 'sold' | 'draft' }) {
  const tone = {
    available: 'bg-emerald-100 text-emerald-800',
    reserved: 'bg-amber-100 text-amber-900',
    sold: 'bg-red-100 text-red-800',
    draft: 'bg-slate-200 text-slate-800',
  }[status];
  // A draft is seen by the admins only until it is published (decision 084).
  const label = { available: t('statusAvailable'), reserved: t('statusReserved'), sold: t('statusSold'), draft: t('statusDraft') }[status];
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-bold ${tone}`}>{label}</span>;
}

/** The last row of an admin form: a way out, and the submit button saying what it is doing while busy. */
export function FormActions({ back, busy, label, busyLabel }: { back: { to: string; label: string }; busy: boolean; label: string; busyLabel: string }) {
  return (
    <>
      <Link to={back.to} className={secondaryButton}>
        {back.label}
      </Link>
      <button type="submit" disabled={busy} className={primaryButton}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}

/** A person's phone in a desk's list of facts (`<dl>`), one tap from a call. */
export function PhoneFact({ label, phone }: { label: string; phone: string }) {
  return (
    <div>
      <dt className="inline text-slate-600">{label}: </dt>
      <dd className="inline font-medium">
        <a href={telLink(phone)} className="underline">
          {phone}
        </a>
      </dd>
    </div>
  );
}
