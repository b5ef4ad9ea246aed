import { requireAdmin } from '../../../server/admin/guard.ts';
import { openDocument } from '../../../server/documents/documents.ts';
import { data } from 'react-router';
import { appContext } from '../../context.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { parseId } from '../../lib/input.ts';
import type { Route } from './+types/sale-document';
import { documentDownload } from '../../../server/documents/http/document-download.ts';

/** A sale's document for the desk: the PDF from the private storage, never cached. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const saleId = parseId(params.id);
  const documentId = parseId(params.documentId);
  const opened = saleId === null || documentId === null ? null : await openDocument(services, documentId, { desk: true }, { kind: 'sale', id: saleId });
  if (!opened) throw data({ message: t('documentNotFound') }, { status: 404 });
  return documentDownload(opened);
}
