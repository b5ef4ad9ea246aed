import type { openDocument } from '../documents.ts';

type OpenedDocument = NonNullable<Awaited<ReturnType<typeof openDocument>>>;

/**
 * An issued document as a download, for the desk's page and the buyer's API alike: a PDF saved
 * under its number's name, never kept by a cache (it names a person and what they paid).
 */
export function documentDownload(opened: OpenedDocument): Response {
  return new Response(opened.body, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(opened.size),
      'Content-Disposition': `attachment; filename="${opened.fileName}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
