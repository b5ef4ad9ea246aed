import { describe, expect, it } from 'vitest';
import { RC_STATES, RC_STEPS, rcStepSchema, type RcState } from '../../app/features/sales/rc-transfer-rules.ts';
import { nextRcStep, RC_TRANSFER_TRANSITIONS } from '../../server/sales/rc-transfer-transitions.ts';
import { bulkMove, transition } from '../../server/transitions.ts';

/** The registration transfer's steps (decision 117): forward one at a time, in the RTO's order; closed only while open. */
describe('the registration transfer’s transition table', () => {
  it('moves forward one step at a time, from the sale to the RC delivered', () => {
    let state: RcState = 'sold';
    for (const step of RC_STEPS) {
      expect(nextRcStep(state)).toBe(step);
      expect(transition(RC_TRANSFER_TRANSITIONS, state, step, 'desk')).toBe(step);
      state = step;
    }
    expect(state).toBe('delivered');
    expect(nextRcStep('delivered')).toBeNull();
    expect(nextRcStep('closed')).toBeNull();
  });

  it('refuses every step out of order: skipped, repeated, backwards, or after the end', () => {
    for (const from of RC_STATES)
      for (const step of RC_STEPS) {
        const expected = nextRcStep(from) === step ? step : null;
        expect(transition(RC_TRANSFER_TRANSITIONS, from, step, 'desk'), `${from} → ${step}`).toBe(expected);
      }
    expect(transition(RC_TRANSFER_TRANSITIONS, 'sold', 'submitted', 'desk')).toBeNull();
    expect(transition(RC_TRANSFER_TRANSITIONS, 'submitted', 'submitted', 'desk')).toBeNull();
    expect(transition(RC_TRANSFER_TRANSITIONS, 'fee-paid', 'submitted', 'desk')).toBeNull();
  });

  it('lets only the desk record a step; the cancel of the sale closes any open transfer, never a delivered one', () => {
    expect(transition(RC_TRANSFER_TRANSITIONS, 'sold', 'forms-signed', 'customer')).toBeNull();
    expect(transition(RC_TRANSFER_TRANSITIONS, 'sold', 'forms-signed', 'system')).toBeNull();
    const close = bulkMove(RC_TRANSFER_TRANSITIONS, 'close', 'system');
    expect(close.to).toBe('closed');
    expect(close.from.sort()).toEqual(['fee-paid', 'forms-signed', 'rc-issued', 'sold', 'submitted']);
    expect(transition(RC_TRANSFER_TRANSITIONS, 'delivered', 'close', 'system')).toBeNull();
    expect(transition(RC_TRANSFER_TRANSITIONS, 'closed', 'close', 'system')).toBeNull();
  });

  it('reads each step’s form: the application number shape-checked, the fee in paise, the new registration optional', () => {
    expect(rcStepSchema.parse({ step: 'submitted', applicationNumber: ' mh 2411-123456789 ' })).toEqual({
      step: 'submitted',
      applicationNumber: 'MH2411123456789',
    });
    expect(rcStepSchema.safeParse({ step: 'submitted', applicationNumber: '' }).success).toBe(false);
    expect(rcStepSchema.safeParse({ step: 'submitted', applicationNumber: 'M12345678' }).success).toBe(false);
    expect(rcStepSchema.safeParse({ step: 'submitted', applicationNumber: 'MH1234567' }).success).toBe(false);
    expect(rcStepSchema.parse({ step: 'fee-paid', fee: '1,500.50', feeReceipt: ' R-77 ' })).toEqual({ step: 'fee-paid', fee: 150_050, feeReceipt: 'R-77' });
    expect(rcStepSchema.safeParse({ step: 'fee-paid', fee: '0', feeReceipt: 'R' }).success).toBe(false);
    expect(rcStepSchema.safeParse({ step: 'fee-paid', fee: '500', feeReceipt: '' }).success).toBe(false);
    expect(rcStepSchema.parse({ step: 'rc-issued', newRegistration: '' })).toEqual({ step: 'rc-issued', newRegistration: '' });
    expect(rcStepSchema.parse({ step: 'rc-issued', newRegistration: 'ka 03 mn 4321' })).toEqual({ step: 'rc-issued', newRegistration: 'KA03MN4321' });
    expect(rcStepSchema.parse({ step: 'rc-issued', newRegistration: '22 BH 1234 AA' })).toEqual({ step: 'rc-issued', newRegistration: '22BH1234AA' });
    expect(rcStepSchema.safeParse({ step: 'rc-issued', newRegistration: 'HELLO' }).success).toBe(false);
    expect(rcStepSchema.parse({ step: 'forms-signed', form35Needed: 'on' })).toEqual({ step: 'forms-signed', form35Needed: true, form28Needed: false });
  });
});
