import { describe, expect, it } from 'vitest';
import { RESERVATION_STATUSES } from '../../app/features/reservations/reservations.ts';
import { RESERVATION_EVENTS, RESERVATION_TRANSITIONS } from '../../server/reservations/reservation-transitions.ts';
import { transition } from '../../server/transitions.ts';
import { expectOnlyTheseMoves, readableTable } from '../support/transitions.ts';

describe('car reservation transitions (decision 105)', () => {
  it('allows the moves in the table and refuses every other status, event and actor', () => {
    expect(expectOnlyTheseMoves(RESERVATION_TRANSITIONS, RESERVATION_STATUSES, RESERVATION_EVENTS)).toBe(
      RESERVATION_STATUSES.length * RESERVATION_EVENTS.length * 4 - RESERVATION_TRANSITIONS.length,
    );
  });

  it('ends nothing twice: a cancelled, expired or converted reservation moves no more', () => {
    for (const event of RESERVATION_EVENTS) {
      for (const from of ['cancelled', 'expired', 'converted'] as const) expect(transition(RESERVATION_TRANSITIONS, from, event, 'desk')).toBeNull();
    }
  });

  it('reads as the rules the buyer and the desk live by', () => {
    expect(readableTable(RESERVATION_TRANSITIONS)).toMatchInlineSnapshot(`
      "pending --pay (gateway)--> active
      lapsed --pay (gateway)--> active
      pending --taken (gateway)--> lapsed
      pending --lapse (system)--> lapsed
      pending --cancel (customer)--> lapsed
      active --cancel (customer)--> cancelled
      active --cancel (desk)--> cancelled
      active --extend (desk)--> active
      active --expire (system)--> expired
      active --convert (desk)--> converted"
    `);
  });
});
