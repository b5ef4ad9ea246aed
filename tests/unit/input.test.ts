import { describe, expect, it } from 'vitest';
import { cleanLine, cleanText, hasControlCharacters, MAX_DATABASE_ID, parseId, parsePage, parseWholeNumber } from '../../app/lib/input.ts';

describe('parseId', () => {
  it('takes plain positive whole numbers within the 32-bit INTEGER range', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('42')).toBe(42);
    expect(parseId(String(MAX_DATABASE_ID))).toBe(2_147_483_647);
  });

  it.each([
    '',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '01',
    ' 7',
    '7 ',
    '+7',
    '2147483648',
    '9876543210',
    '99999999999999999999',
    'NaN',
    'Infinity',
    '1\u0000',
    'abc',
  ])('refuses %j', (value) => {
    expect(parseId(value)).toBeNull();
  });

  it('refuses what is not a string (a File from a form, null)', () => {
    expect(parseId(null)).toBeNull();
    expect(parseId(7)).toBeNull();
    expect(parseId(new Blob(['1']))).toBeNull();
  });
});

describe('page numbers', () => {
  it('brings counts into range and reads anything else as absent', () => {
    expect(parseWholeNumber('0', { min: 1, max: 100 })).toBe(1);
    expect(parseWholeNumber('100000', { min: 1, max: 100 })).toBe(100);
    expect(parseWholeNumber('1.5', { min: 1, max: 100 })).toBeNull();
    expect(parseWholeNumber('-3', { min: 1, max: 100 })).toBeNull();
    expect(parsePage('3')).toBe(3);
    expect(parsePage('abc')).toBe(1);
    expect(parsePage(null)).toBe(1);
    expect(parsePage('99999999999999')).toBe(MAX_DATABASE_ID);
  });
});

describe('cleanText', () => {
  it('removes NUL and other control characters, trims, and keeps one line unless multi-line is allowed', () => {
    expect(cleanLine('  Ravi\u0000 Kumar\u007f ')).toBe('Ravi Kumar');
    expect(cleanLine('a\r\nb\tc')).toBe('a b c');
    expect(cleanText('a\r\nb\tc\u0001', { multiline: true })).toBe('a\nb\tc');
    expect(cleanText(' \u0000 ')).toBe('');
  });

  it('bounds the length when asked and reads what is not text as empty', () => {
    expect(cleanLine('x'.repeat(100_000), 200)).toHaveLength(200);
    expect(cleanText(null)).toBe('');
    expect(cleanText(new Blob(['x']))).toBe('');
  });

  it('tells whether text holds a control character other than newline and tab', () => {
    expect(hasControlCharacters('a\u0000')).toBe(true);
    expect(hasControlCharacters('a\nb\tc')).toBe(false);
  });
});
