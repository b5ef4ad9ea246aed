import { describe, expect, it } from 'vitest';
import { DESK_STATUSES } from '../../app/features/appointments/inspection-desk.ts';
import { UPCOMING_STATUSES } from '../../app/features/appointments/test-drives.ts';
import { INSPECTION_EVENTS, INSPECTION_TRANSITIONS } from '../../server/inspections/inspection-transitions.ts';
import { bulkMove } from '../../server/transitions.ts';
import { expectOnlyTheseMoves, readableTable } from '../support/transitions.ts';

describe('seller inspection transitions (decision 105)', () => {
  it('allows the moves in the table and refuses every other status, event and actor', () => {
    expect(expectOnlyTheseMoves(INSPECTION_TRANSITIONS, DESK_STATUSES, INSPECTION_EVENTS)).toBe(
      DESK_STATUSES.length * INSPECTION_EVENTS.length * 4 - INSPECTION_TRANSITIONS.length,
    );
  });

  it("cancels as the shared cancel of upcoming bookings does (server/appointments/appointments.ts's cancelUpcoming)", () => {
    expect(bulkMove(INSPECTION_TRANSITIONS, 'cancel', 'customer')).toEqual({ from: [...UPCOMING_STATUSES], to: 'cancelled' });
  });

  it('reads as the rules the seller and the desk live by', () => {
    expect(readableTable(INSPECTION_TRANSITIONS)).toMatchInlineSnapshot(`
      "booked --confirm (desk)--> confirmed
      booked --mark_no_show (desk)--> no_show
      confirmed --mark_no_show (desk)--> no_show
      booked --record (desk)--> done
      confirmed --record (desk)--> done
      done --record (desk)--> done
      no_show --record (desk)--> done
      booked --reschedule (customer)--> booked
      confirmed --reschedule (customer)--> booked
      booked --cancel (customer)--> cancelled
      confirmed --cancel (customer)--> cancelled"
    `);
  });
});
