import { AUDIT_RETENTION_MONTHS } from '../../app/lib/retention.ts';
import { deletedRows, monthsBefore, type PersonalData } from '../privacy/personal-data.ts';

/** The admin team's records, settings and audit log (server/admin). */
export const adminPersonalData: PersonalData[] = [
  {
    table: 'admins',
    personal: { email: "the admin's email", created_by: 'the admin who added them' },
    foundBy: 'email, lower-cased',
    export: { omitted: 'the account section says who the person is; the last admin cannot be deleted' },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('admins').where('email', '=', person.normalisedEmail).execute() },
  },
  {
    table: 'audit_log',
    personal: {
      actor_email: 'the admin who acted',
      summary: 'may name a customer',
      before: 'the record before the change',
      after: 'the record after the change',
    },
    foundBy: "entity_id: the person's id on their licence reviews; lead entries are cleared with their leads",
    export: { omitted: "the team's record of its own work" },
    // The licence reviews named the licence number: only that a review happened stays.
    erase: {
      action: 'anonymise',
      rows: (trx, person) =>
        trx
          .updateTable('audit_log')
          .set({ summary: 'Reviewed a driving licence (the account was deleted)', before: null, after: null })
          .where('entity', '=', 'driving-licence')
          .where('entity_id', '=', person.userId)
          .execute(),
      reason: 'the team keeps a record of what it did; not of whom',
    },
    retention: `${AUDIT_RETENTION_MONTHS} months`,
    purge: {
      report: 'auditEntries',
      run: async ({ database }, now) =>
        deletedRows(
          await database.db.deleteFrom('audit_log').where('created_at', '<', monthsBefore(now, AUDIT_RETENTION_MONTHS).toISOString()).executeTakeFirst(),
        ),
    },
  },
  {
    table: 'admin_dashboard_visits',
    personal: { admin_email: 'the admin' },
    foundBy: 'admin_email',
    export: { omitted: "the team's own visits" },
    erase: { action: 'keep', reason: 'when an admin last opened the dashboard; nothing about customers' },
  },
  {
    table: 'settings',
    personal: { updated_by: 'the admin who changed it' },
    foundBy: 'updated_by',
    export: { omitted: "the shop's settings" },
    erase: { action: 'keep', reason: 'who last changed a shop setting' },
  },
];
