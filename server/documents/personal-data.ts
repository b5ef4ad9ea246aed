import type { PersonalData } from '../privacy/personal-data.ts';
import { documentsOfUser } from './documents.ts';

/** How long an issued document is kept: as the record it belongs to (a sale's invoice: GST's books). */
const DOCUMENT_RETENTION =
  "as the record it is about: a sale's invoice and credit note 72 months from the due date of the year's annual GST return; no purge runs yet";

/** The documents issued (server/documents, decision 114): invoices and credit notes. */
export const documentsPersonalData: PersonalData[] = [
  {
    table: 'documents',
    personal: { user_id: 'the account that may download it' },
    notPersonal: { number: "the document's number (an invoice's, a credit note's)", owner_id: 'the sale it is about' },
    foundBy: 'user_id',
    // The list; each file is downloaded from the profile (the sale's figures are in the sales section).
    export: { section: 'documents', gather: async ({ database, userId }) => documentsOfUser(database, userId) },
    erase: {
      action: 'anonymise',
      rows: (trx, person) => trx.updateTable('documents').set({ user_id: null }).where('user_id', '=', person.userId).execute(),
      reason: "an invoice or credit note issued is the dealer's record under GST law and is kept as issued; only the link to the account goes",
    },
    retention: DOCUMENT_RETENTION,
  },
];
