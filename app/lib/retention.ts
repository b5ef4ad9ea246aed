/**
 * Retention periods the privacy page states and the server's retention schedule enforces
 * (server/privacy/retention.ts); shared so the two cannot disagree. Leads: LEAD_RETENTION_MONTHS
 * in lead-forms.ts.
 */

/** Audit entries are kept two years: long enough to answer "who changed this car or lead last year?". */
export const AUDIT_RETENTION_MONTHS = 24;
/** The demo/test outbox (mail and SMS that were never sent) keeps a week for /dev/outbox. */
export const OUTBOX_RETENTION_DAYS = 7;
