import { describe, expect, it } from 'vitest';
import { customerWhatsappNumber, imageFilesError, LEAD_LIMITS, leadMessages, parseRequestForm, parseSellForm } from '../../app/lib/lead-forms.ts';
import { MAX_IMAGE_BYTES } from '../../app/lib/uploads.ts';
import { formTokenAge, issueFormToken, MIN_FILL_MS } from '../../server/leads/form-guard.ts';
import { parseLeadQuery } from '../../server/leads/http/lead-admin.ts';
import { parseRequestLead, parseSellLead } from '../../server/leads/intake.ts';
import { retentionCutoff } from '../../server/leads/leads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const request = { name: 'Ravi', phone: '98765 43210', model: 'Swift', year: '', budget: '5 lakh', description: '' };
const sell = { name: 'Ravi', phone: '+91 98765-43210', vehicle: 'i20', year: '2018', price: '4,50,000', description: '' };

describe('request form rules (SPEC 5)', () => {
  it('accepts the required fields alone and trims them', () => {
    const parsed = parseRequestForm(form({ ...request, name: '  Ravi  ' }));
    expect(parsed).toEqual({ ok: true, data: { ...request, name: 'Ravi' } });
  });

  it('names each missing required field', () => {
    const parsed = parseRequestForm(form({}));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      name: leadMessages.nameRequired,
      phone: leadMessages.phoneRequired,
      model: leadMessages.modelRequired,
      budget: leadMessages.budgetRequired,
    });
  });

  it('wants at least 10 digits in the phone number', () => {
    for (const phone of ['98765 4321', 'call me', '98765432101234567', '98765<script>']) {
      const parsed = parseRequestForm(form({ ...request, phone }));
      expect(parsed.ok ? null : parsed.errors.phone, phone).toBe(leadMessages.phoneInvalid);
    }
    expect(parseRequestForm(form({ ...request, phone: '(+91) 98765-43210' })).ok).toBe(true);
  });

  it('refuses overlong values with the field and its limit', () => {
    const parsed = parseRequestForm(form({ ...request, description: 'x'.repeat(10_000), model: 'm'.repeat(121) }));
    expect(parsed.ok ? null : parsed.errors).toEqual({
      description: 'Description must be at most 1000 characters',
      model: 'Vehicle model must be at most 120 characters',
    });
  });

  it('keeps Devanagari, emoji and line breaks in the description, dropping control characters', () => {
    const parsed = parseRequestForm(form({ ...request, name: 'सुनीता\u0000 शर्मा', description: 'सफ़ेद रंग 🚗\r\nपेट्रोल' }));
    expect(parsed.ok ? parsed.data : null).toMatchObject({ name: 'सुनीता शर्मा', description: 'सफ़ेद रंग 🚗\nपेट्रोल' });
  });
});

describe('sell form rules (SPEC 5)', () => {
  it('requires name, phone, vehicle, year and price', () => {
    const parsed = parseSellForm(form({ description: 'only this' }));
    expect(parsed.ok ? null : Object.keys(parsed.errors).sort()).toEqual(['name', 'phone', 'price', 'vehicle', 'year']);
  });

  it('wants a four-digit year that is not in the future', () => {
    const next = String(new Date().getFullYear() + 1);
    expect(parseSellForm(form({ ...sell, year: next })).ok).toBe(true);
    for (const year of ['18', '2O18', String(new Date().getFullYear() + 2), '1899']) {
      const parsed = parseSellForm(form({ ...sell, year }));
      expect(parsed.ok ? null : parsed.errors.year, year).toBe(leadMessages.yearInvalid);
    }
  });

  it('has limits the inputs can show', () => {
    expect(LEAD_LIMITS.sellYear).toBe(4);
    expect(MAX_IMAGE_BYTES).toBe(15 * 1024 * 1024);
  });
});

describe('a lead’s phone as the server reads it (server/phone.ts)', () => {
  it('keeps every spelling of a mobile as +91 and its ten digits, the other fields as the browser’s rules read them', () => {
    for (const phone of ['98765 43210', '098765-43210', '+91 98765 43210', '919876543210', '(+91) 98765.43210']) {
      expect(parseRequestLead(form({ ...request, phone })), phone).toEqual({ ok: true, data: { ...request, phone: '+919876543210' } });
      expect(parseSellLead(form({ ...sell, phone })), phone).toEqual({ ok: true, data: { ...sell, phone: '+919876543210' } });
    }
  });

  it('refuses what is not a valid Indian mobile with the form’s own phone message', () => {
    for (const phone of ['1234567890', '022 1234 5678', '+44 7700 900123', '+91919876543210']) {
      expect(parseRequestForm(form({ ...request, phone })).ok, `${phone}: the browser's light look passes it`).toBe(true);
      const parsed = parseRequestLead(form({ ...request, phone }));
      expect(parsed.ok ? null : parsed.errors, phone).toEqual({ phone: leadMessages.phoneInvalid });
      const sold = parseSellLead(form({ ...sell, phone }));
      expect(sold.ok ? null : sold.errors, phone).toEqual({ phone: leadMessages.phoneInvalid });
    }
    // The shared messages come first: required, too long, the light look.
    expect(parseRequestLead(form({ ...request, phone: '' }))).toEqual({ ok: false, errors: { phone: leadMessages.phoneRequired } });
    expect(parseRequestLead(form({ ...request, phone: 'call me' }))).toEqual({ ok: false, errors: { phone: leadMessages.phoneInvalid } });
  });
});

describe('imageFilesError', () => {
  const photo = { name: 'front.jpg', size: 2_000_000, type: 'image/jpeg' };
  it('accepts photos', () => expect(imageFilesError([photo, { ...photo, name: 'b.heic', type: 'image/heic' }])).toBeNull());
  it('refuses other files, SVG, oversize photos and more than ten', () => {
    expect(imageFilesError([{ name: 'notes.txt', size: 10, type: 'text/plain' }])).toContain('notes.txt');
    expect(imageFilesError([{ name: 'logo.svg', size: 10, type: 'image/svg+xml' }])).toContain('is not a photo');
    expect(imageFilesError([{ ...photo, size: MAX_IMAGE_BYTES + 1 }])).toContain('larger than 15 MB');
    expect(imageFilesError(Array.from({ length: 11 }, () => photo))).toBe(leadMessages.tooManyImages);
    expect(imageFilesError(Array.from({ length: 5 }, () => ({ ...photo, size: 14_000_000 })))).toBe(leadMessages.formTooLarge);
  });
  it('ignores the empty file an untouched input sends', () => expect(imageFilesError([{ name: '', size: 0, type: 'application/octet-stream' }])).toBeNull());
});

describe('customerWhatsappNumber', () => {
  it('puts 91 before an Indian 10-digit number', () => {
    expect(customerWhatsappNumber('98765 43210')).toBe('919876543210');
    expect(customerWhatsappNumber('098765-43210')).toBe('919876543210');
  });
  it('keeps a number that already has its country code', () => {
    expect(customerWhatsappNumber('+91 98765 43210')).toBe('919876543210');
    expect(customerWhatsappNumber('+44 7700 900123')).toBe('447700900123');
  });
});

describe('form token (the no-script bot check)', () => {
  const secret = 'x'.repeat(40);
  it('is accepted after the minimum fill time, for its own form only', () => {
    const token = issueFormToken(secret, 'sell', 1_000_000);
    expect(formTokenAge(secret, 'sell', token, 1_000_000 + MIN_FILL_MS)).toBe('ok');
    expect(formTokenAge(secret, 'sell', token, 1_000_000 + 100)).toBe('too-fast');
    expect(formTokenAge(secret, 'request', token, 1_000_000 + MIN_FILL_MS)).toBe('invalid');
    expect(formTokenAge(secret, 'sell', token, 1_000_000 + 3 * 60 * 60_000)).toBe('expired');
    expect(formTokenAge('y'.repeat(40), 'sell', token, 1_000_000 + MIN_FILL_MS)).toBe('invalid');
    expect(formTokenAge(secret, 'sell', `${Date.now()}.forged`, Date.now() + MIN_FILL_MS)).toBe('invalid');
    expect(formTokenAge(secret, 'sell', undefined, 1_000_000)).toBe('invalid');
  });
});

describe('admin list query', () => {
  it('reads status, search and page, ignoring odd values', () => {
    expect(parseLeadQuery(new URLSearchParams('status=contacted&q=%20Ravi%20&page=2'))).toEqual({ status: 'contacted', q: 'Ravi', page: 2 });
    expect(parseLeadQuery(new URLSearchParams('status=deleted&page=-3'))).toEqual({ status: null, q: '', page: 1 });
  });
  it('keeps leads for 12 months', () => {
    expect(retentionCutoff(new Date('2026-03-15T10:00:00Z')).toISOString()).toBe('2025-03-15T10:00:00.000Z');
  });
});
