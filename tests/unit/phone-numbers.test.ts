import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from '../../app/lib/form-errors.ts';
import { isIndianCallingCode, looksLikePhone, phoneMessages } from '../../app/lib/phone.ts';
import { canonicalPhone, canonicalPhoneField, requireCanonicalPhone } from '../../server/phone.ts';
import { InvalidInputError } from '../../server/errors.ts';

/**
 * One number, one form (decision 096): every way a person types an Indian mobile becomes the
 * same E.164 string, which is what the rate limits count, the database keeps and the SMS goes
 * to; anything that is not a valid Indian mobile is refused, on the field at fault.
 */
describe('canonicalPhone (server/phone.ts)', () => {
  it('turns every spelling of one mobile into +91 and its ten digits', () => {
    const spellings: Array<[string, string?]> = [
      ['9399999378'],
      ['09399999378', '91'],
      ['+91 9399999378', '+91'],
      ['919399999378', '91'],
      ['+919399999378'],
      ['+9109399999378'],
      ['0091 93999 99378'],
      [' 93999 99378 ', ' + 91 '],
      ['93999-99378'],
      ['939 999 9378'],
      ['+91-93999-99378'],
      ['(+91) 93999-99378'],
      ['+91 (0) 93999 99378'],
      ['93999.99378'],
    ];
    for (const [typed, code] of spellings)
      expect(canonicalPhone(typed, code), `${JSON.stringify(typed)} with ${JSON.stringify(code ?? '(none)')}`).toEqual({ ok: true, phone: '+919399999378' });
  });

  it('takes every Indian mobile series (6, 7, 8 and 9)', () => {
    for (const national of ['9876543210', '8123456789', '7012345678', '6200000000'])
      expect(canonicalPhone(national)).toEqual({ ok: true, phone: `+91${national}` });
  });

  it('refuses a country code other than India’s, on the code', () => {
    for (const code of ['091', '0', '0091', '+1', '1', '+9999', '', '9 1 1', '++91', 'IN']) {
      expect(canonicalPhone('9399999378', code), JSON.stringify(code)).toEqual({ ok: false, field: 'countryCode' });
    }
  });

  it('refuses, on the number, what is not a valid Indian mobile', () => {
    const refused = [
      '+91919399999378', // the code typed twice
      '1234567890', // no Indian number starts with 1
      '5123456789',
      '6123456789', // not an allotted mobile series
      '022 1234 5678', // a Mumbai landline
      '+91 22 1234 5678',
      '1800 123 4567', // toll free
      '+1 202 555 0123', // another country's
      '+44 7700 900123',
      '98765', // too short
      '9'.repeat(16), // too long
      '93999 99378 ext 5', // an extension
      '93999x99378',
      'call 9399999378',
      '9399999378+',
      '+91+9399999378',
      '',
      '   ',
    ];
    for (const typed of refused) expect(canonicalPhone(typed), JSON.stringify(typed)).toEqual({ ok: false, field: 'phone' });
  });

  it('requireCanonicalPhone gives the canonical number or the phone field’s 400', () => {
    expect(requireCanonicalPhone('093999 99378')).toBe('+919399999378');
    expect(() => requireCanonicalPhone('+9109399999378X')).toThrow(InvalidInputError);
    try {
      requireCanonicalPhone('1234567890');
    } catch (error) {
      expect(error).toMatchObject({ status: 400, message: phoneMessages.phoneInvalid, fields: { phone: phoneMessages.phoneInvalid } });
    }
  });

  it('canonicalPhoneField keeps the field’s own messages and adds the refusal', () => {
    const field = z
      .string()
      .trim()
      .min(1, { error: () => phoneMessages.phoneRequired });
    const schema = z.object({ phone: canonicalPhoneField(field, () => phoneMessages.phoneInvalid) });
    expect(parseWith(schema, { phone: ' +91 93999-99378 ' })).toEqual({ ok: true, value: { phone: '+919399999378' } });
    expect(parseWith(schema, { phone: ' ' })).toMatchObject({ ok: false, fields: { phone: phoneMessages.phoneRequired } });
    expect(parseWith(schema, { phone: '02212345678' })).toMatchObject({ ok: false, fields: { phone: phoneMessages.phoneInvalid } });
  });
});

describe('the browser’s light look (app/lib/phone.ts)', () => {
  it('passes what might be a number and refuses what cannot be one', () => {
    for (const typed of ['98765 43210', '+91 98765-43210', '(+91) 98765.43210', '1234567890']) expect(looksLikePhone(typed), typed).toBe(true);
    for (const typed of ['98765 4321', 'call me', '9'.repeat(16), '+91+9876543210', '98765<script>']) expect(looksLikePhone(typed), typed).toBe(false);
  });

  it('takes India’s calling code only', () => {
    for (const code of ['+91', '91', ' +91 ']) expect(isIndianCallingCode(code), code).toBe(true);
    for (const code of ['091', '0', '+1', '', '+9191']) expect(isIndianCallingCode(code), code).toBe(false);
  });
});
