import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '../../app/features/rentals/rentals.ts';
import { BOOKING_EVENTS, BOOKING_TRANSITIONS } from '../../server/rentals/booking-transitions.ts';
import { transition } from '../../server/transitions.ts';
import { expectOnlyTheseMoves, readableTable } from '../support/transitions.ts';

describe('rental booking transitions (decision 105)', () => {
  it('allows the moves in the table and refuses every other status, event and actor', () => {
    expect(expectOnlyTheseMoves(BOOKING_TRANSITIONS, BOOKING_STATUSES, BOOKING_EVENTS)).toBe(
      BOOKING_STATUSES.length * BOOKING_EVENTS.length * 4 - BOOKING_TRANSITIONS.length,
    );
  });

  it('lets only the renter cancel, and only before the handover', () => {
    expect(transition(BOOKING_TRANSITIONS, 'confirmed', 'cancel', 'customer')).toBe('cancelled');
    expect(transition(BOOKING_TRANSITIONS, 'confirmed', 'cancel', 'desk')).toBeNull();
    expect(transition(BOOKING_TRANSITIONS, 'active', 'cancel', 'customer')).toBeNull();
  });

  it('reads as the rules the desk and the renter live by', () => {
    expect(readableTable(BOOKING_TRANSITIONS)).toMatchInlineSnapshot(`
      "requested --pay (gateway)--> requested
      requested --confirm (desk)--> confirmed
      requested --refuse (desk)--> refused
      requested --cancel (customer)--> cancelled
      requested --lapse (system)--> expired
      requested --lapse (gateway)--> expired
      confirmed --cancel (customer)--> cancelled
      confirmed --hand_over (desk)--> active
      confirmed --mark_no_show (desk)--> no_show
      active --take_back (desk)--> returned
      returned --settle (desk)--> closed"
    `);
  });
});
