import { ShareIcon } from './icons.tsx';
import { browseText as t } from '../lib/i18n/browse.ts';

/** The phone's share sheet where there is one; otherwise the link goes to the clipboard. */
export function ShareButton({ title, url }: { title: string; url: string }) {
  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // The visitor closed the share sheet: nothing to say.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      alert(t('linkCopied'));
    } catch {
      alert(t('couldNotCopy'));
    }
  }
  return (
    <button type="button" onClick={share} aria-label={t('share')} className="inline-flex rounded-full bg-white p-3 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:bg-slate-100">
      <ShareIcon className="h-5 w-5" />
    </button>
  );
}
