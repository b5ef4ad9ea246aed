import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Form, Link, useNavigate } from 'react-router';
import { secondaryButton } from '../form.tsx';
import { dangerButton } from './admin-ui.tsx';
import { adminShellText as t } from '../../lib/i18n/adminShell.ts';

type Props = {
  title: string;
  message: string;
  confirmLabel: string;
  /** Where Cancel goes when the page's script is not running (the page without the dialog). */
  cancelHref: string;
  /** Cancel, Escape or a click outside, once the script runs. */
  onCancel: () => void;
  /** Called as the confirmed form is sent, so the dialog can close. */
  onConfirm?: () => void;
  /** The hidden fields of the confirmed POST (intent, id …). */
  children: ReactNode;
};

/**
 * The confirmation step before a delete. It is a real step in both worlds: without script the
 * page is rendered with the dialog open (the Delete button is a GET to `?delete=<id>`), and
 * the delete itself is only ever a POST with its intent. With script the dialog becomes modal
 * (focus stays inside, Escape cancels) and opens without a round trip.
 */
export function ConfirmDialog({ title, message, confirmLabel, cancelHref, onCancel, onConfirm, children }: Props) {
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
      <Form method="post" className="flex flex-col gap-4 p-6" onSubmit={() => onConfirm?.()}>
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
            {t('cancel')}
          </Link>
          <button type="submit" className={dangerButton}>
            {confirmLabel}
          </button>
        </div>
      </Form>
    </dialog>
  );
}

/**
 * The delete step of an admin list (categories, vehicles): which row is being confirmed, opened
 * either by the page's `?delete=<id>` (without script) or on the page by `open(id)`.
 */
export function useDeleteStep<Row extends { id: number }>(rows: readonly Row[], deleteId: number | null, listHref: string) {
  const [openedHere, setOpenedHere] = useState<number | null>(null);
  const confirming = rows.find((row) => row.id === (openedHere ?? deleteId)) ?? null;
  return { confirming, open: setOpenedHere, dialog: { listHref, openedHere: openedHere !== null, close: () => setOpenedHere(null) } };
}

/**
 * The dialog of a delete step (useDeleteStep's `dialog`): Cancel closes a dialog opened on the
 * page, or goes back to the list without the parameter.
 */
export function ConfirmDelete({
  id,
  title,
  message,
  listHref,
  openedHere,
  close,
}: {
  id: number;
  title: string;
  message: string;
} & ReturnType<typeof useDeleteStep>['dialog']) {
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      title={title}
      message={message}
      confirmLabel={t('delete')}
      cancelHref={listHref}
      onCancel={() => {
        if (openedHere) close();
        else void navigate(listHref, { replace: true, preventScrollReset: true });
      }}
      onConfirm={close}
    >
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
    </ConfirmDialog>
  );
}
