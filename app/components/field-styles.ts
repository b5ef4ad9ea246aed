/**
 * The looks of form controls, apart from the form components (form.tsx) so a page that only
 * needs a class (the vehicle page's EMI calculator) does not load the components too.
 */

/** The look of every text input, select and textarea. */
export const inputClass =
  'w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 py-3 text-base shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-500';

export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400';
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-white px-5 py-3 font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400';
