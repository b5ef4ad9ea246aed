import { data } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { openDocument } from '../../../server/documents/documents.ts';
import { documentDownload } from '../../../server/documents/http/document-download.ts';
import { appContext } from '../../context.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { parseId } from '../../lib/input.ts';
import type { Route } from './+types/rental-booking-document';

/** A rental booking's document for the desk (decision 119): the PDF from the private storage, never cached; another booking's id answers 404. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const bookingId = parseId(params.id);
  const documentId = parseId(params.documentId);
  const opened =
    bookingId === null || documentId === null ? null : await openDocument(services, documentId, { desk: true }, { kind: 'rental-booking', id: bookingId });
  if (!opened) throw data({ message: t('documentNotFound') }, { status: 404 });
  return documentDownload(opened);
}
