import { useEffect, useId, useRef, useState } from 'react';
import { ShareIcon } from '../../components/icons.tsx';
import { inputClass, primaryButton, secondaryButton } from '../../components/field-styles.ts';
import { useModalDialog } from '../../components/use-dialog.ts';
import { browseText as t } from '../../lib/i18n/browse.ts';

type Copied = 'copied' | 'failed' | null;

/**
 * The phone's share sheet where there is one. Elsewhere (a desktop browser) the site's own dialog
 * opens with the link, copied at once: it says whether the copy worked, and when the browser
 * refused it the link is selected for the visitor to copy. Focus goes into the dialog (Close once
 * copied, the link when not), Escape or a click outside closes it, and focus comes back to Share.
 */
export function ShareButton({ title, url }: { title: string; url: string }) {
  const { ref: dialogRef, open, show, close } = useModalDialog();
  const [copied, setCopied] = useState<Copied>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const link = useRef<HTMLInputElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const headingId = useId();
  const statusId = useId();

  async function copy(): Promise<Copied> {
    try {
      await navigator.clipboard.writeText(url);
      return 'copied';
    } catch {
      return 'failed';
    }
  }

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
    setCopied(null);
    show();
    setCopied(await copy());
  }

  // Into the dialog once the copy is tried; back to Share when it closes.
  useEffect(() => {
    if (open && copied === 'copied') closeButton.current?.focus();
    if (open && copied === 'failed') link.current?.select();
  }, [open, copied]);
  useEffect(() => {
    if (wasOpen.current && !open) trigger.current?.focus();
    wasOpen.current = open;
  }, [open]);

  return (
    <>
      <button
        ref={trigger}
        type="button"
        onClick={share}
        aria-label={t('share')}
        aria-haspopup="dialog"
        className="inline-flex rounded-full bg-white p-3 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:bg-slate-100"
      >
        <ShareIcon className="h-5 w-5" />
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby={headingId}
        aria-describedby={statusId}
        onClick={(event) => {
          // A click on the backdrop lands on the dialog element itself.
          if (event.target === event.currentTarget) close();
        }}
        className="fixed inset-0 m-auto h-fit w-[min(92vw,28rem)] rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <div className="flex flex-col gap-4 p-6">
          <h2 id={headingId} className="text-lg font-bold">
            {t('shareTitle')}
          </h2>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${headingId}-link`} className="text-sm font-semibold">
              {t('shareLinkLabel')}
            </label>
            <input
              ref={link}
              id={`${headingId}-link`}
              type="url"
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className={inputClass}
            />
          </div>
          <p id={statusId} role="status" className={`min-h-5 text-sm font-medium ${copied === 'failed' ? 'text-red-800' : 'text-green-800'}`}>
            {copied === 'copied' ? t('linkCopied') : copied === 'failed' ? t('couldNotCopy') : ''}
          </p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button ref={closeButton} type="button" onClick={close} className={secondaryButton}>
              {t('close')}
            </button>
            <button type="button" onClick={async () => setCopied(await copy())} className={primaryButton}>
              {t('copyLink')}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
