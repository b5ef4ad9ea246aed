import { indiaIso } from '../../app/lib/india-time.ts';
import { LEAD_RETENTION_MONTHS } from '../../app/lib/lead-forms.ts';
import { deletedRows, monthsBefore, VISIT_BOOKING_PERSONAL, type PersonalData } from '../privacy/personal-data.ts';

/** Test-drive bookings (server/test-drives). */
export const testDrivesPersonalData: PersonalData[] = [
  {
    table: 'test_drives',
    personal: VISIT_BOOKING_PERSONAL,
    notPersonal: { vehicle_title: "the car's title" },
    foundBy: 'user_id',
    export: {
      section: 'testDrives',
      gather: async ({ database, userId }) =>
        (await database.db.selectFrom('test_drives').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map((row) => ({
          id: row.id,
          vehicleId: row.vehicle_id,
          vehicle: row.vehicle_title,
          mode: row.mode,
          pinCode: row.pin_code,
          street: row.street,
          landmark: row.landmark,
          name: row.name,
          phone: row.phone,
          email: row.email,
          // Written as every answer writes a time (decision 102); migration 037 keeps epoch milliseconds.
          slotStart: indiaIso(row.slot_start_ms),
          status: row.status,
          remindedAt: row.reminded_at,
          createdAt: row.created_at,
        })),
    },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('test_drives').where('user_id', '=', person.userId).execute() },
    // A test drive is a lead with a time.
    retention: `${LEAD_RETENTION_MONTHS} months from its slot`,
    // A test drive is a lead with a time: kept as long as the other leads, counted from its slot.
    purge: {
      report: 'testDrives',
      run: async ({ database }, now) =>
        deletedRows(
          await database.db.deleteFrom('test_drives').where('slot_start_ms', '<', monthsBefore(now, LEAD_RETENTION_MONTHS).getTime()).executeTakeFirst(),
        ),
    },
  },
];
