import { describe, expect, it } from 'vitest';
import { telLink, vehicleEnquiryText, whatsappLink } from '../../app/lib/contact.ts';

describe('whatsappLink', () => {
  it('opens a wa.me chat with the dealer number in digits only', () => {
    expect(whatsappLink('919876543210', 'Hello')).toBe('https://wa.me/919876543210?text=Hello');
    expect(whatsappLink('+91 98765-43210', 'Hello')).toBe('https://wa.me/919876543210?text=Hello');
    expect(whatsappLink('(+91) 98765 43210', 'Hello')).toBe('https://wa.me/919876543210?text=Hello');
  });

  it('encodes the prefilled text so any character survives', () => {
    const text = "Hi, I'm interested in the Tata Tiago XZ+ & want a 50% discount? #1\nhttps://example.in/vehicle/49?x=1&y=2 ₹5,45,000 🚗 गाड़ी";
    const link = whatsappLink('919876543210', text);
    // Nothing in the text may end the parameter early or be read as a space.
    expect(link.split('?text=')[1]).not.toMatch(/[ \n&#+?]/);
    const url = new URL(link);
    expect(url.origin).toBe('https://wa.me');
    expect(url.pathname).toBe('/919876543210');
    expect([...url.searchParams.keys()]).toEqual(['text']);
    expect(url.searchParams.get('text')).toBe(text);
  });

  it('keeps an empty text as an empty parameter', () => {
    expect(whatsappLink('919876543210', '')).toBe('https://wa.me/919876543210?text=');
  });
});

describe('vehicleEnquiryText', () => {
  const page = 'https://www.gaadibazaar.in/vehicle/36';

  it('names the vehicle by its details title and ends with the page address', () => {
    const text = vehicleEnquiryText({ name: 'Hyundai Creta SX 1.5 CRDi', make: 'Hyundai', model: 'Creta' }, page);
    expect(text).toBe(`Hi, I'm interested in your listing for the Hyundai Creta SX 1.5 CRDi. Is it still available?\n${page}`);
  });

  it('falls back to make and model, then to "Unnamed Vehicle"', () => {
    expect(vehicleEnquiryText({ name: '', make: 'Maruti Suzuki', model: 'WagonR' }, page)).toContain('listing for the Maruti Suzuki WagonR.');
    expect(vehicleEnquiryText({ name: '  ', make: '', model: '' }, page)).toContain('listing for the Unnamed Vehicle.');
  });

  it('survives the round trip through a chat link', () => {
    const text = vehicleEnquiryText({ name: 'Swift Dzire Tour S CNG – with driver', make: 'Maruti Suzuki', model: 'Dzire' }, page);
    const decoded = new URL(whatsappLink('+91 98765 43210', text)).searchParams.get('text');
    expect(decoded).toBe(text);
    expect(decoded).toContain('Swift Dzire Tour S CNG – with driver');
    expect(decoded?.split('\n').at(-1)).toBe(page);
  });
});

describe('telLink', () => {
  it('dials the number without spaces or dashes', () => {
    expect(telLink('+91 98765-43210')).toBe('tel:+919876543210');
    expect(telLink('+919876543210')).toBe('tel:+919876543210');
    expect(telLink('098765 43210')).toBe('tel:09876543210');
  });
});
