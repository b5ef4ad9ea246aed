import { describe, expect, it } from 'vitest';
import { TEST_DRIVE_STATUSES, UPCOMING_STATUSES } from '../../app/features/appointments/test-drives.ts';
import { TEST_DRIVE_EVENTS, TEST_DRIVE_TRANSITIONS } from '../../server/test-drives/test-drive-transitions.ts';
import { deskActionsFor } from '../../server/test-drives/test-drives.ts';
import { bulkMove } from '../../server/transitions.ts';
import { expectOnlyTheseMoves, readableTable } from '../support/transitions.ts';

describe('test drive transitions (decision 105)', () => {
  it('allows the moves in the table and refuses every other status, event and actor', () => {
    expect(expectOnlyTheseMoves(TEST_DRIVE_TRANSITIONS, TEST_DRIVE_STATUSES, TEST_DRIVE_EVENTS)).toBe(
      TEST_DRIVE_STATUSES.length * TEST_DRIVE_EVENTS.length * 4 - TEST_DRIVE_TRANSITIONS.length,
    );
  });

  it("cancels as the shared cancel of upcoming bookings does (server/appointments/appointments.ts's cancelUpcoming)", () => {
    expect(bulkMove(TEST_DRIVE_TRANSITIONS, 'cancel', 'customer')).toEqual({ from: [...UPCOMING_STATUSES], to: 'cancelled' });
    expect(bulkMove(TEST_DRIVE_TRANSITIONS, 'cancel', 'desk')).toEqual({ from: [...UPCOMING_STATUSES], to: 'cancelled' });
  });

  it("gives the desk's page its buttons from the table", () => {
    expect(deskActionsFor('booked')).toEqual({ actions: ['confirm', 'done', 'no_show', 'cancel'], movable: true });
    expect(deskActionsFor('confirmed')).toEqual({ actions: ['done', 'no_show', 'cancel'], movable: true });
    expect(deskActionsFor('done')).toEqual({ actions: ['no_show'], movable: false });
    expect(deskActionsFor('no_show')).toEqual({ actions: ['done'], movable: false });
    expect(deskActionsFor('cancelled')).toEqual({ actions: [], movable: false });
  });

  it('reads as the rules the buyer and the desk live by', () => {
    expect(readableTable(TEST_DRIVE_TRANSITIONS)).toMatchInlineSnapshot(`
      "booked --confirm (desk)--> confirmed
      booked --mark_done (desk)--> done
      confirmed --mark_done (desk)--> done
      no_show --mark_done (desk)--> done
      booked --mark_no_show (desk)--> no_show
      confirmed --mark_no_show (desk)--> no_show
      done --mark_no_show (desk)--> no_show
      booked --cancel (desk)--> cancelled
      confirmed --cancel (desk)--> cancelled
      booked --cancel (customer)--> cancelled
      confirmed --cancel (customer)--> cancelled
      booked --reschedule (customer)--> booked
      confirmed --reschedule (customer)--> booked
      booked --reschedule (desk)--> confirmed
      confirmed --reschedule (desk)--> confirmed"
    `);
  });
});
