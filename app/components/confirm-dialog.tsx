import { useEffect, useId, useRef, useState, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { secondaryButton } from './field-styles.ts';

/** The look of a confirming button that deletes or cancels something. */
export const dangerButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-red-700 px-4 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400';

export type ConfirmDialogProps = {
  title: string;
  message: string;
  confirmLabel: string;
  /** The way out that changes nothing ("Cancel", "Keep it"); it has the focus when the dialog opens. */
  cancelLabel: string;
  /** Where the way out goes when the page's script is not running (the page without the dialog). */
  cancelHref: string;
  /** The way out, Escape or a click outside, once the script runs. */
  onCancel: () => void;
  /** Called as the confirmed form is sent, so the dialog can close. */
  onConfirm?: () => void;
  /** Where the confirmed POST goes; the page's own action when not given. */
  action?: string;
  /** The hidden fields of the confirmed POST (intent, id …). */
  children?: ReactNode;
};

/**
 * The site's confirmation step before something that cannot be undone (a delete, a cancellation),
 * instead of the browser's confirm(): a real step without script too, when a page renders it open
 * (an admin list's `?delete=<id>`), and only ever a POST. With script the dialog becomes modal
 * (the page behind is inert, focus stays inside and starts on the way out, Escape cancels); the
 * page that opened it puts focus back where it was when it closes.
 */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel, cancelHref, onCancel, onConfirm, action, children }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLAnchorElement>(null);
  const titleId = useId();
  const messageId = useId();
  const onCancelRef = useRef(onCancel);
  useEffect(() => {
    onCancelRef.current = onCancel;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Rendered open (as the server sends it); turned modal so the page behind is inert.
    if (!dialog.matches(':modal')) {
      dialog.removeAttribute('open');
      dialog.showModal();
    }
    cancelRef.current?.focus();
    const cancel = (event: Event) => {
      event.preventDefault();
      onCancelRef.current();
    };
    const closed = () => {
      if (!dialog.open) onCancelRef.current();
    };
    const outside = (event: MouseEvent) => {
      if (event.target === dialog) onCancelRef.current();
    };
    dialog.addEventListener('cancel', cancel);
    dialog.addEventListener('close', closed);
    dialog.addEventListener('click', outside);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      dialog.removeEventListener('close', closed);
      dialog.removeEventListener('click', outside);
    };
  }, []);

  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={titleId}
      aria-describedby={messageId}
      className="fixed inset-0 z-50 m-auto h-fit w-[min(92vw,28rem)] rounded-2xl bg-white p-0 text-slate-900 shadow-[0_0_0_100vmax_rgb(15_23_42/0.5)] backdrop:bg-slate-900/50 [&:modal]:shadow-xl"
    >
      <Form method="post" {...(action ? { action } : {})} className="flex flex-col gap-4 p-6" onSubmit={() => onConfirm?.()}>
        {children}
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        <p id={messageId} className="text-slate-700">
          {message}
        </p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link
            ref={cancelRef}
            to={cancelHref}
            replace
            preventScrollReset
            className={secondaryButton}
            onClick={(event) => {
              event.preventDefault();
              onCancel();
            }}
          >
            {cancelLabel}
          </Link>
          <button type="submit" className={dangerButtonClass}>
            {confirmLabel}
          </button>
        </div>
      </Form>
    </dialog>
  );
}

/**
 * A confirm step opened by a button that would otherwise send its form at once (which it still
 * does without script): `ask` opens it for an item instead, `keep` closes it and puts focus back
 * on that button, `confirmed` closes it as the confirmed form is sent.
 */
export function useConfirmStep<Item>() {
  const [confirming, setConfirming] = useState<Item | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const refocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (confirming !== null || !refocus.current) return;
    refocus.current.focus();
    refocus.current = null;
  }, [confirming]);
  return {
    confirming,
    ask(item: Item, event: ReactMouseEvent<HTMLElement>) {
      event.preventDefault();
      opener.current = event.currentTarget;
      setConfirming(item);
    },
    keep() {
      refocus.current = opener.current;
      setConfirming(null);
    },
    confirmed() {
      opener.current = null;
      setConfirming(null);
    },
  };
}
