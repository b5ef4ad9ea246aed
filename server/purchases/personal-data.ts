import type { PersonalData } from '../privacy/personal-data.ts';
import { toPurchase } from './purchases.ts';

const KEPT_BY_LAW =
  "a purchase is the dealer's record: the Form 29C report of the car taken into possession (CMVR rule 55B), the purchase register of its books (CGST Act section 36) and the margin scheme's base for the car's sale; the seller's name, phone and address stay with it, only the link to the account goes";

/** Cars bought from sellers (server/purchases, decision 118). */
export const purchasesPersonalData: PersonalData[] = [
  {
    table: 'purchases',
    personal: {
      user_id: "the seller's account, when they had one",
      seller_name: "the seller's name",
      seller_phone: "the seller's number",
      seller_address: "the seller's address",
      payment_reference: "the reference of the payment to the seller's account",
      recorded_by: "the admin's email who recorded the purchase",
    },
    notPersonal: {
      vehicle_title: "the car's title",
      documents: 'which papers of the car were received, from a fixed list',
      documents_other: 'other papers of the car received, as the desk named them',
    },
    foundBy: 'user_id',
    export: {
      section: 'purchases',
      gather: async ({ database, userId }) =>
        (await database.db.selectFrom('purchases').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map((row) => {
          const { recordedBy: _recordedBy, ...purchase } = toPurchase(row);
          return purchase;
        }),
    },
    erase: {
      action: 'anonymise',
      rows: (trx, person) => trx.updateTable('purchases').set({ user_id: null }).where('user_id', '=', person.userId).execute(),
      reason: KEPT_BY_LAW,
    },
    retention: "72 months from the due date of the financial year's annual GST return (CGST Act, section 36), as the sales; no purge runs yet",
  },
];
