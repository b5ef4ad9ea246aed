/**
 * Retention periods the privacy page states and the server's retention schedule enforces
 * (server/privacy/retention.ts); shared so the two cannot disagree. Leads: LEAD_RETENTION_MONTHS
 * in lead-forms.ts.
 */

/** Audit entries are kept two years: long enough to answer "who changed this car or lead last year?". */
export const AUDIT_RETENTION_MONTHS = 24;
/**
 * Rental bookings are the dealer's books of account (rent, deposits, refunds): Indian tax law
 * asks for them to be kept 8 years (Income Tax Act s.44AA with its rule 6F; GST keeps 72
 * months). Counted from the return date; a deleted account's bookings are kept without the
 * person (docs/decisions/029).
 */
export const RENTAL_BOOKING_RETENTION_YEARS = 8;
/** The demo/test outbox (mail and SMS that were never sent) keeps a week for /dev/outbox. */
export const OUTBOX_RETENTION_DAYS = 7;
/** WhatsApp messages and their delivery statuses: the desk looks back a quarter at most (decision 123). */
export const WHATSAPP_MESSAGE_RETENTION_DAYS = 90;
