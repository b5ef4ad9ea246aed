import { describe, expect, it } from 'vitest';
import { OFFER_EVENTS, OFFER_STATUSES, OFFER_TRANSITIONS } from '../../server/inspections/offer-transitions.ts';
import { expectOnlyTheseMoves, readableTable } from '../support/transitions.ts';

describe("transitions of the dealer's offer on a seller's car (decision 105)", () => {
  it('allows the moves in the table and refuses every other status, event and actor', () => {
    expect(expectOnlyTheseMoves(OFFER_TRANSITIONS, OFFER_STATUSES, OFFER_EVENTS)).toBe(
      OFFER_STATUSES.length * OFFER_EVENTS.length * 4 - OFFER_TRANSITIONS.length,
    );
  });

  it('reads as the rules the seller and the desk live by', () => {
    expect(readableTable(OFFER_TRANSITIONS)).toMatchInlineSnapshot(`
      "none --make (desk)--> open
      open --make (desk)--> open
      open --accept (customer)--> accepted
      open --decline (customer)--> declined"
    `);
  });
});
