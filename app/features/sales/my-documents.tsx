import type { DocumentKind } from './sale-rules.ts';
import { salesText as t } from './sales-texts.ts';

/** A document issued to the person, as the profile lists it. */
export type MyDocument = { id: number; kind: DocumentKind; number: string; createdAt: string };

/** The person's own invoices, credit notes delivery notes, rental agreements and rental invoices (decisions 114, 116, 119), each downloaded through the API, which answers only its owner. */
export function MyDocuments({ documents }: { documents: readonly MyDocument[] }) {
  if (documents.length === 0) return null;
  return (
    <section aria-labelledby="my-documents" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="my-documents" className="text-lg font-bold">
        {t('myDocuments')}
      </h2>
      <ul className="mt-3 flex flex-col gap-2">
        {documents.map((document) => (
          <li key={document.id} className="flex flex-wrap items-center gap-2">
            <span>
              {t(`kind_${document.kind}`)} {document.number}
            </span>
            <a className="font-semibold text-brand-700 underline" href={`/api/v1/me/documents/${document.id}`} download>
              {t('downloadDocument')}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
