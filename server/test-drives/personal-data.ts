import { LEAD_RETENTION_MONTHS } from '../../app/lib/lead-forms.ts';
import type { PersonalData } from '../privacy/personal-data.ts';

/** Test-drive bookings (server/test-drives). */
export const testDrivesPersonalData: PersonalData[] = [
  {
    table: 'test_drives',
    personal: {
      user_id: 'who booked it',
      name: 'their name',
      phone: 'their number',
      email: 'their email',
      pin_code: "a home visit's PIN code",
      street: "a home visit's address",
      landmark: "a home visit's landmark",
    },
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
          slotStart: row.slot_start,
          status: row.status,
          remindedAt: row.reminded_at,
          createdAt: row.created_at,
        })),
    },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('test_drives').where('user_id', '=', person.userId).execute() },
    // A test drive is a lead with a time.
    retention: `${LEAD_RETENTION_MONTHS} months from its slot`,
  },
];
