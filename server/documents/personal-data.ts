import type { PersonalData } from '../privacy/personal-data.ts';
import { documentsOfUser } from './documents.ts';

/** How long an issued document is kept: as GST's books (the privacy page says it: decisions 114, 119). */
const DOCUMENT_RETENTION =
  "as the dealer's GST records: a sale's invoice and credit note, a rental's agreement and tax invoice 72 months from the due date of the year's annual GST return; no purge runs yet";

/** The documents issued (server/documents, decisions 114, 119): invoices, credit notes, rental agreements. */
export const documentsPersonalData: PersonalData[] = [
  {
    table: 'documents',
    personal: { user_id: 'the account that may download it' },
    notPersonal: { number: "the document's number (an invoice's, a credit note's, a rental agreement's)", owner_id: 'the sale or rental booking it is about' },
    foundBy: 'user_id',
    // The list; each file is downloaded from the profile (the sale's figures are in the sales section).
    export: { section: 'documents', gather: async ({ database, userId }) => documentsOfUser(database, userId) },
    erase: {
      action: 'anonymise',
      rows: (trx, person) => trx.updateTable('documents').set({ user_id: null }).where('user_id', '=', person.userId).execute(),
      reason:
        "an invoice, credit note or rental agreement issued is the dealer's record under GST law and is kept as issued; only the link to the account goes",
    },
    retention: DOCUMENT_RETENTION,
  },
];
