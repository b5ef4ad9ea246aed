import { describe, expect, it } from 'vitest';
import { buildSellChatText, largestImageUrl, sellChatLink } from '../../app/features/sell/sell-chat.ts';

/** SPEC 7, Other: the sell form's chat text (Name, Phone, Vehicle, Year, Expected Price, Description, 'Images:'). */

const fields = {
  name: 'Ravi Kumar',
  phone: '98765 43210',
  vehicle: 'Hyundai i20 Asta',
  year: '2018',
  price: '4,50,000',
  description: 'Single owner, 42,000 km',
};

describe('buildSellChatText', () => {
  it('lists the fields in the spec order, then the images one per line', () => {
    const text = buildSellChatText(fields, [
      'https://www.gaadibazaar.in/media/sell_vehicles/1_front-ab-1600.webp',
      'https://www.gaadibazaar.in/media/sell_vehicles/1_back-cd-800.webp',
    ]);
    expect(text).toBe(
      [
        'Hello, I want to sell my vehicle.',
        'Name: Ravi Kumar',
        'Phone: 98765 43210',
        'Vehicle: Hyundai i20 Asta',
        'Year: 2018',
        'Expected Price: ₹4,50,000',
        'Description: Single owner, 42,000 km',
        'Images:',
        'https://www.gaadibazaar.in/media/sell_vehicles/1_front-ab-1600.webp',
        'https://www.gaadibazaar.in/media/sell_vehicles/1_back-cd-800.webp',
      ].join('\n'),
    );
  });

  it('goes without the Images list when there are no photos (none chosen, or they failed)', () => {
    const text = buildSellChatText(fields, []);
    expect(text).not.toContain('Images:');
    expect(text.split('\n').at(-1)).toBe('Description: Single owner, 42,000 km');
  });

  it('writes a dash for an empty description and keeps text as typed', () => {
    const text = buildSellChatText({ ...fields, name: 'सुनीता 🚗', description: '  ' });
    expect(text).toContain('Name: सुनीता 🚗');
    expect(text).toContain('Description: -');
  });
});

describe('sellChatLink', () => {
  it('opens the dealer chat with the whole text encoded', () => {
    const link = sellChatLink('919876543210', { ...fields, description: 'A & B #1 100% ok?' }, ['https://x.in/media/a-1600.webp']);
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe('https://wa.me/919876543210');
    expect(url.searchParams.get('text')).toBe(buildSellChatText({ ...fields, description: 'A & B #1 100% ok?' }, ['https://x.in/media/a-1600.webp']));
  });
});

describe('largestImageUrl', () => {
  it('is the absolute address of the widest variant', () => {
    expect(largestImageUrl('https://www.gaadibazaar.in', { key: 'sell_vehicles/1732179000000_front-0a1b2c3d4e', widths: [400, 800, 1600] })).toBe(
      'https://www.gaadibazaar.in/media/sell_vehicles/1732179000000_front-0a1b2c3d4e-1600.webp',
    );
    expect(largestImageUrl('http://127.0.0.1:3203', { key: 'sell_vehicles/1_small', widths: [320] })).toBe(
      'http://127.0.0.1:3203/media/sell_vehicles/1_small-320.webp',
    );
  });
});
