import { ShareIcon } from './icons.tsx';

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
      alert('Link copied to clipboard!');
    } catch {
      alert('Could not copy link.');
    }
  }
  return (
    <button type="button" onClick={share} aria-label="Share" className="inline-flex rounded-full bg-white p-3 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:bg-slate-100">
      <ShareIcon className="h-5 w-5" />
    </button>
  );
}
