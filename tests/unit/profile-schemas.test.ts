import { describe, expect, it } from 'vitest';
import { parseWith } from '../../app/lib/form-errors.ts';
import { phoneMessages } from '../../app/lib/phone.ts';
import { phoneCodeRequestSchema, phoneVerifySchema, profileFormError } from '../../app/features/accounts/profile-schemas.ts';
import { phoneCodeRequest, phoneVerify, profileSchemas } from '../../server/accounts/profile-phone.ts';
import { testDriveSlotsQuerySchema } from '../../app/features/appointments/test-drive-schemas.ts';

/** The profile form and the OTP steps: one schema each for the page, its browser check and /api/v1/me/phone; the server's with the phone canonical. */
describe('profile and phone code schemas', () => {
  it('the browser reads the phone as typed; the server’s schemas give it in canonical E.164, +91 when no code is given', () => {
    expect(phoneCodeRequestSchema.parse({ phone: ' 98765 43210 ' })).toEqual({ phone: '98765 43210', countryCode: '+91', channel: 'sms' });
    expect(phoneCodeRequest.parse({ phone: ' 98765 43210 ' })).toEqual({ phone: '+919876543210', countryCode: '+91', channel: 'sms' });
    expect(phoneCodeRequest.parse({ phone: '9876543210', channel: 'whatsapp' }).channel).toBe('whatsapp');
    expect(phoneCodeRequest.safeParse({ phone: '9876543210', channel: 'pigeon' }).success).toBe(false);
    expect(phoneCodeRequest.parse({ phone: '098765-43210', countryCode: '91' }).phone).toBe('+919876543210');
    expect(phoneCodeRequest.parse({ phone: '+91 98765 43210', countryCode: '+91' }).phone).toBe('+919876543210');
    expect(phoneVerify.parse({ phone: '9876543210', countryCode: '91', otp: ' 123456 ', name: ' अनिल ' })).toEqual({
      phone: '+919876543210',
      countryCode: '91',
      otp: '123456',
      name: 'अनिल',
      whatsappOptIn: false,
    });
    // The box: ticked only when the form says 'on' (or JSON says true); never by default.
    const base = { phone: '9876543210', otp: '123456', name: 'Asha' };
    expect(phoneVerify.parse({ ...base, whatsappOptIn: 'on' }).whatsappOptIn).toBe(true);
    expect(phoneVerify.parse({ ...base, whatsappOptIn: true }).whatsappOptIn).toBe(true);
    expect(phoneVerify.parse({ ...base, whatsappOptIn: 'false' }).whatsappOptIn).toBe(false);
  });

  it('gives the spec’s messages in the spec’s order: phone, then “request OTP first”, then the code and the name', () => {
    const message = (intent: 'send' | 'verify', input: Record<string, unknown>, requested: boolean) =>
      profileFormError(intent, input, requested)?.error ?? null;
    const verify = (input: Record<string, unknown>, requested = true) => message('verify', input, requested);
    expect(message('send', {}, false)).toBe(phoneMessages.phoneRequired);
    expect(message('send', { phone: '98765' }, false)).toBe(phoneMessages.phoneInvalid);
    expect(message('send', { phone: '9'.repeat(16) }, false)).toBe(phoneMessages.phoneInvalid);
    expect(message('send', { phone: '9876543210', countryCode: '+9999' }, false)).toBe(phoneMessages.phoneInvalid);
    // Send looks at the phone only.
    expect(message('send', { phone: '9876543210', name: '' }, false)).toBeNull();
    expect(verify({ phone: '', otp: '', name: '' }, false)).toBe(phoneMessages.phoneRequired);
    expect(verify({ phone: '9876543210', otp: '', name: '' }, false)).toBe(phoneMessages.requestOtpFirst);
    expect(verify({ phone: '9876543210', otp: '123456', name: 'Asha' }, false)).toBe(phoneMessages.requestOtpFirst);
    expect(verify({ phone: '9876543210', otp: ' ', name: '' })).toBe(phoneMessages.otpRequired);
    expect(verify({ phone: '9876543210', otp: '123456', name: ' ' })).toBe(phoneMessages.nameRequired);
    expect(verify({ phone: '9876543210', otp: '123456', name: 'A'.repeat(101) })).toBe(phoneMessages.nameTooLong);
    expect(verify({ phone: '9876543210', otp: '123456', name: '😀 12345' })).toBe(phoneMessages.nameNeedsLetters);
    expect(verify({ phone: '9876543210', otp: '123456', name: 'Asha' })).toBeNull();
  });

  it('names the field at fault: the country code (India’s only) or the number, which the server holds to a valid Indian mobile', () => {
    for (const countryCode of ['091', '0', '+1']) {
      expect(profileFormError('send', { phone: '9876543210', countryCode }, false), countryCode).toEqual({
        error: phoneMessages.phoneInvalid,
        fields: { countryCode: phoneMessages.phoneInvalid },
      });
      expect(profileFormError('send', { phone: '9876543210', countryCode }, false, profileSchemas), countryCode).toEqual({
        error: phoneMessages.phoneInvalid,
        fields: { countryCode: phoneMessages.phoneInvalid },
      });
    }
    // The browser's light look passes a landline or a number that no mobile has; the server does not.
    for (const phone of ['1234567890', '022 1234 5678', '+1 202 555 0123', '+91919399999378']) {
      expect(profileFormError('send', { phone, countryCode: '+91' }, false), phone).toBeNull();
      expect(profileFormError('send', { phone, countryCode: '+91' }, false, profileSchemas), phone).toEqual({
        error: phoneMessages.phoneInvalid,
        fields: { phone: phoneMessages.phoneInvalid },
      });
      // The phone comes first, before "request OTP first" and the other fields.
      expect(profileFormError('verify', { phone, countryCode: '+91', otp: '', name: '' }, false, profileSchemas)?.fields, phone).toEqual({
        phone: phoneMessages.phoneInvalid,
      });
    }
    // One message at a time, marked on its own field only.
    expect(profileFormError('verify', { phone: '9876543210', otp: '', name: '' }, true, profileSchemas)).toEqual({
      error: phoneMessages.otpRequired,
      fields: { otp: phoneMessages.otpRequired },
    });
  });

  it('refuses what is not text with the field’s own message', () => {
    const refused = parseWith(phoneVerifySchema, { phone: ['9876543210'], countryCode: 91, otp: 123456, name: { first: 'Asha' } });
    expect(refused.ok || refused.fields).toEqual({
      phone: phoneMessages.phoneRequired,
      countryCode: phoneMessages.phoneInvalid,
      otp: phoneMessages.otpRequired,
      name: phoneMessages.nameRequired,
    });
  });
});

describe('test-drive slots query', () => {
  it('needs a car id and a real calendar date', () => {
    expect(parseWith(testDriveSlotsQuerySchema, { vehicleId: '12', date: '2026-12-01' })).toEqual({ ok: true, value: { vehicleId: 12, date: '2026-12-01' } });
    expect(parseWith(testDriveSlotsQuerySchema, { vehicleId: '99999999999', date: '2026-02-30' })).toMatchObject({
      ok: false,
      fields: { vehicleId: expect.stringMatching(/^vehicleId/), date: expect.stringMatching(/^date/) },
    });
  });
});
