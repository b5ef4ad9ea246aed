import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog as SiteConfirmDialog, type ConfirmDialogProps } from '../../components/confirm-dialog.tsx';
import { adminShellText as t } from './admin-shell-texts.ts';

/**
 * The confirmation step before a delete. It is a real step in both worlds: without script the
 * page is rendered with the dialog open (the Delete button is a GET to `?delete=<id>`), and
 * the delete itself is only ever a POST with its intent. With script the dialog becomes modal
 * (focus stays inside, Escape cancels) and opens without a round trip. The site's dialog
 * (../confirm-dialog.tsx), with the admin panel's Cancel.
 */
export function ConfirmDialog(props: Omit<ConfirmDialogProps, 'cancelLabel'>) {
  return <SiteConfirmDialog {...props} cancelLabel={t('cancel')} />;
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
