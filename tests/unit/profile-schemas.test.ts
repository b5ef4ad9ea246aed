import { describe, expect, it } from 'vitest';
import { parseWith } from '../../app/lib/form-errors.ts';
import { phoneMessages } from '../../app/lib/phone.ts';
import { phoneCodeRequestSchema, phoneVerifySchema, profileFormError } from '../../app/lib/schemas/profile.ts';
import { testDriveSlotsQuerySchema } from '../../app/lib/schemas/test-drives.ts';

/** The profile form and the OTP steps: one schema each for the page, its browser check and /api/v1/me/phone. */
describe('profile and phone code schemas', () => {
  it('reads a phone as typed into E.164, +91 when no code is given', () => {
    expect(phoneCodeRequestSchema.parse({ phone: ' 98765 43210 ' })).toEqual({ phone: '+919876543210' });
    expect(phoneCodeRequestSchema.parse({ phone: '(415) 555-0100', countryCode: '+1' })).toEqual({ phone: '+14155550100' });
    expect(phoneVerifySchema.parse({ phone: '9876543210', countryCode: '91', otp: ' 123456 ', name: ' अनिल ' })).toEqual({ phone: '+919876543210', otp: '123456', name: 'अनिल' });
  });

  it('gives the spec’s messages in the spec’s order: phone, then “request OTP first”, then the code and the name', () => {
    const verify = (input: Record<string, unknown>, requested = true) => profileFormError('verify', input, requested);
    expect(profileFormError('send', {}, false)).toBe(phoneMessages.phoneRequired);
    expect(profileFormError('send', { phone: '98765' }, false)).toBe(phoneMessages.phoneInvalid);
    expect(profileFormError('send', { phone: '9'.repeat(16) }, false)).toBe(phoneMessages.phoneInvalid);
    expect(profileFormError('send', { phone: '9876543210', countryCode: '+9999' }, false)).toBe(phoneMessages.phoneInvalid);
    // Send looks at the phone only.
    expect(profileFormError('send', { phone: '9876543210', name: '' }, false)).toBeNull();
    expect(verify({ phone: '', otp: '', name: '' }, false)).toBe(phoneMessages.phoneRequired);
    expect(verify({ phone: '9876543210', otp: '', name: '' }, false)).toBe(phoneMessages.requestOtpFirst);
    expect(verify({ phone: '9876543210', otp: '123456', name: 'Asha' }, false)).toBe(phoneMessages.requestOtpFirst);
    expect(verify({ phone: '9876543210', otp: ' ', name: '' })).toBe(phoneMessages.otpRequired);
    expect(verify({ phone: '9876543210', otp: '123456', name: ' ' })).toBe(phoneMessages.nameRequired);
    expect(verify({ phone: '9876543210', otp: '123456', name: 'A'.repeat(101) })).toBe(phoneMessages.nameTooLong);
    expect(verify({ phone: '9876543210', otp: '123456', name: '😀 12345' })).toBe(phoneMessages.nameNeedsLetters);
    expect(verify({ phone: '9876543210', otp: '123456', name: 'Asha' })).toBeNull();
  });

  it('refuses what is not text with the field’s own message', () => {
    const refused = parseWith(phoneVerifySchema, { phone: ['9876543210'], countryCode: 91, otp: 123456, name: { first: 'Asha' } });
    expect(refused.ok || refused.fields).toEqual({ phone: phoneMessages.phoneRequired, countryCode: phoneMessages.phoneInvalid, otp: phoneMessages.otpRequired, name: phoneMessages.nameRequired });
  });
});

describe('test-drive slots query', () => {
  it('needs a car id and a real calendar date', () => {
    expect(parseWith(testDriveSlotsQuerySchema, { vehicleId: '12', date: '2026-12-01' })).toEqual({ ok: true, value: { vehicleId: 12, date: '2026-12-01' } });
    expect(parseWith(testDriveSlotsQuerySchema, { vehicleId: '99999999999', date: '2026-02-30' })).toMatchObject({ ok: false, fields: { vehicleId: expect.stringMatching(/^vehicleId/), date: expect.stringMatching(/^date/) } });
  });
});
