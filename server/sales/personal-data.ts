import type { PersonalData } from '../privacy/personal-data.ts';
import { findDelivery } from './delivery-store.ts';
import { purchasesOfBuyer } from './rc-transfers.ts';
import { saleQuery, toSale } from './store.ts';

/** How long a sale and its documents are kept: GST's books (CGST Act section 36: 72 months from the year's annual return). */
export const SALE_RETENTION = "72 months from the due date of the financial year's annual GST return (CGST Act, section 36); no purge runs yet";

const KEPT_BY_LAW =
  "a tax invoice issued is the dealer's record under GST law (CGST Act section 36) and must be kept as issued, the buyer's name, address and PAN with it; only the link to the account goes";

/** Sales of cars and the documents issued for them (server/sales, decision 114). */
export const salesPersonalData: PersonalData[] = [
  {
    table: 'sales',
    personal: {
      user_id: "the buyer's account, when they have one",
      buyer_name: "the buyer's name",
      buyer_address: "the buyer's address",
      buyer_phone: "the buyer's number",
      buyer_email: "the buyer's email",
      buyer_pan: "the buyer's PAN",
      recorded_by: "the admin's email who recorded the sale",
      cancelled_by: "the admin's email who cancelled it",
      cancel_reason: 'why it was cancelled, as the admin typed it',
    },
    notPersonal: {
      vehicle_title: "the car's title",
      dealer: "the dealer's legal name, address and GSTIN",
      lender: "the bank or finance company's name",
      buyer_state_code: 'a state code, the place of supply',
      token_paise: "the reservation token's amount counted towards the price, money, not a credential",
    },
    foundBy: 'user_id',
    export: {
      section: 'sales',
      gather: async ({ database, userId }) =>
        (await saleQuery(database.db).where('user_id', '=', userId).orderBy('id').execute()).map((row) => {
          const { userId: _userId, recordedBy: _recordedBy, purchasePricePaise: _purchase, ...sale } = toSale(row);
          return sale;
        }),
    },
    erase: {
      action: 'anonymise',
      rows: (trx, person) => trx.updateTable('sales').set({ user_id: null }).where('user_id', '=', person.userId).execute(),
      reason: KEPT_BY_LAW,
    },
    retention: SALE_RETENTION,
  },
  {
    table: 'sale_deliveries',
    personal: {
      signer_name: 'the name of the buyer who signed for the car',
      typed_signature: 'the name the buyer typed as their signature',
      signature_key: "where the buyer's drawn signature (a PNG) is kept in the private storage",
      photos: "the car's photos at the handover, in the private storage",
      delivered_by: "the admin's email who handed the car over",
    },
    notPersonal: {
      documents_handed: "which of the car's papers were handed over (RC, insurance...)",
      other_documents: 'other papers handed over, as the desk named them',
    },
    foundBy: "through its sale's user_id (sales)",
    export: {
      section: 'saleDeliveries',
      gather: async ({ database, userId }) => {
        const sales = await database.db.selectFrom('sales').select('id').where('user_id', '=', userId).orderBy('id').execute();
        const deliveries = [];
        for (const sale of sales) {
          const delivery = await findDelivery(database, Number(sale.id));
          if (!delivery) continue;
          const { photos: _photos, signatureKey: _key, deliveredBy: _admin, ...kept } = delivery;
          deliveries.push({ ...kept, signedAt: new Date(delivery.signedAtMs).toISOString() });
        }
        return deliveries;
      },
    },
    erase: {
      action: 'keep',
      reason:
        "the signed delivery (the buyer's signature, the photos, the signer's name) is the dealer's record that the car was handed over, kept with its sale; erasure unlinks the sale from the account, which is all that ties the delivery to it",
    },
    retention: SALE_RETENTION,
  },
  {
    table: 'rc_transfers',
    personal: {
      forms_signed_by: "the admin's email who recorded the forms signed",
      submitted_by: "the admin's email who recorded the submission",
      fee_paid_by: "the admin's email who recorded the fee",
      rc_issued_by: "the admin's email who recorded the new RC",
      delivered_by: "the admin's email who recorded the RC delivered",
    },
    notPersonal: {
      application_number: "the RTO's application number: the dealer's record of the transfer, about the car",
      new_registration: "the car's new registration number, about the car",
    },
    foundBy: "sale_id: the buyer's sales (sales.user_id)",
    export: {
      section: 'registrationTransfers',
      gather: async ({ database, userId }) =>
        (await purchasesOfBuyer(database, userId)).map(({ saleId, invoiceNumber, transfer }) => ({
          saleId,
          invoiceNumber,
          state: transfer.state,
          steps: transfer.steps.map(({ step, doneMs }) => ({ step, doneAt: doneMs === null ? null : new Date(doneMs).toISOString() })),
          applicationNumber: transfer.applicationNumber,
          newRegistration: transfer.newRegistration,
        })),
    },
    erase: {
      action: 'keep',
      reason:
        "the transfer of a car sold is the dealer's record (Forms 29 and 30, the RTO's application); it names no account, and the sale's link to the account goes with the sale's erasure",
    },
    retention: SALE_RETENTION,
  },
];
