import { describe, expect, it } from 'vitest';
import {
  cardPriceLabel,
  detailPriceLabel,
  formatClock,
  formatDate,
  formatDateTime,
  formatKilometres,
  formatRupees,
  groupIndianDigits,
  priceDigits,
  vehiclesFoundText,
  formatIndiaDateTime,
} from '../../app/lib/format.ts';
import { setLanguageSource } from '../../app/lib/i18n/current.ts';
import { dealerWord, shownWordsOf, validityText } from '../../app/lib/dealer-words.ts';
import { CONDITION_ITEMS, CONDITION_STATUSES, conditionItemLabel, conditionStatusLabel } from '../../app/features/appointments/inspection-desk.ts';

describe('rupee formatting', () => {
  it('groups digits the Indian way', () => {
    expect(formatRupees(1234567)).toBe('₹12,34,567');
    expect(formatRupees(545000)).toBe('₹5,45,000');
  });

  it('groups thousands, lakhs and crores', () => {
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(999)).toBe('₹999');
    expect(formatRupees(1000)).toBe('₹1,000');
    expect(formatRupees(99999)).toBe('₹99,999');
    expect(formatRupees(100000)).toBe('₹1,00,000');
    expect(formatRupees(10000000)).toBe('₹1,00,00,000');
    expect(formatRupees(123456789)).toBe('₹12,34,56,789');
  });

  it('groups exactly as Intl.NumberFormat en-IN does, rounding halves away from zero', () => {
    const intl = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
    const values = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      9999,
      10000,
      99999,
      100000,
      999999,
      1000000,
      12345678,
      2.5,
      3.5,
      -2.5,
      0.4,
      -1234567,
      Number.MAX_SAFE_INTEGER,
      1e21,
    ];
    let seed = 7;
    for (let index = 0; index < 2000; index++) {
      seed = (seed * 48271) % 2147483647;
      values.push((seed % 10 ** (1 + (index % 12))) / (index % 3 === 0 ? 4 : 1));
    }
    for (const value of values) expect(groupIndianDigits(value), String(value)).toBe(intl.format(value));
    // Where Intl writes "-0", a price is 0.
    expect(groupIndianDigits(-0.4)).toBe('0');
  });

  it('never shows paise', () => {
    expect(formatRupees(545000.4)).toBe('₹5,45,000');
  });

  it('labels card prices', () => {
    expect(cardPriceLabel('1234567')).toBe('On-road price ₹12,34,567');
    expect(cardPriceLabel('')).toBe('Price on request');
  });

  it('labels card prices typed in any of the ways a dealer writes them', () => {
    expect(cardPriceLabel('5,45,000')).toBe('On-road price ₹5,45,000');
    expect(cardPriceLabel('₹ 545000')).toBe('On-road price ₹5,45,000');
    expect(cardPriceLabel('Rs. 5,45,000/-')).toBe('On-road price ₹5,45,000');
    expect(cardPriceLabel(545000)).toBe('On-road price ₹5,45,000');
  });

  it('shows "Price on request" when the card price has no amount', () => {
    expect(cardPriceLabel(null)).toBe('Price on request');
    expect(cardPriceLabel(undefined)).toBe('Price on request');
    expect(cardPriceLabel('   ')).toBe('Price on request');
    expect(cardPriceLabel('Call for best price')).toBe('Price on request');
    expect(cardPriceLabel('Ask for rental rates')).toBe('Price on request');
  });

  it('does not multiply a price written with paise by a hundred on the card', () => {
    // The details page shows '5,45,000.00' as ₹5,45,000; the card must agree with it.
    expect(detailPriceLabel('5,45,000.00')).toBe('₹5,45,000');
    expect(cardPriceLabel('5,45,000.00')).toBe('On-road price ₹5,45,000');
    expect(cardPriceLabel('545000.00')).toBe(`On-road price ${detailPriceLabel('545000.00')}`);
  });

  it('labels detail prices', () => {
    expect(detailPriceLabel('')).toBe('—');
    expect(detailPriceLabel('Call for best price')).toBe('Call for best price');
  });

  it('shows a dash for an empty detail price', () => {
    expect(detailPriceLabel(null)).toBe('—');
    expect(detailPriceLabel(undefined)).toBe('—');
    expect(detailPriceLabel('   ')).toBe('—');
  });

  it('formats detail prices that are amounts', () => {
    expect(detailPriceLabel('1234567')).toBe('₹12,34,567');
    expect(detailPriceLabel(1234567)).toBe('₹12,34,567');
    expect(detailPriceLabel('5,45,000')).toBe('₹5,45,000');
    expect(detailPriceLabel('₹ 5,45,000')).toBe('₹5,45,000');
    expect(detailPriceLabel('₹5,45,000')).toBe('₹5,45,000');
    expect(detailPriceLabel('Rs. 545000')).toBe('₹5,45,000');
    expect(detailPriceLabel('rs 545000')).toBe('₹5,45,000');
    expect(detailPriceLabel('INR 545000')).toBe('₹5,45,000');
    expect(detailPriceLabel('545000/-')).toBe('₹5,45,000');
    expect(detailPriceLabel(' 545000 ')).toBe('₹5,45,000');
  });

  it('shows text detail prices exactly as the dealer wrote them', () => {
    expect(detailPriceLabel('On request')).toBe('On request');
    expect(detailPriceLabel('Ask for rental rates')).toBe('Ask for rental rates');
    expect(detailPriceLabel('From ₹2,200 per day')).toBe('From ₹2,200 per day');
    expect(detailPriceLabel('5.5 lakh')).toBe('5.5 lakh');
  });
});

describe('priceDigits', () => {
  it('extracts the amount from what the dealer typed', () => {
    expect(priceDigits('5,45,000')).toBe(545000);
    expect(priceDigits('₹ 545000')).toBe(545000);
    expect(priceDigits(725000)).toBe(725000);
  });

  it('is null when there is no amount', () => {
    expect(priceDigits('')).toBeNull();
    expect(priceDigits(null)).toBeNull();
    expect(priceDigits(undefined)).toBeNull();
    expect(priceDigits('Call for best price')).toBeNull();
  });

  it('is null for an amount too large to be exact', () => {
    expect(priceDigits('9'.repeat(20))).toBeNull();
  });
});

describe('kilometres, dates and counts', () => {
  it('formats odometer readings with Indian grouping', () => {
    expect(formatKilometres(45210)).toBe('45,210\u00a0km');
    expect(formatKilometres(125000)).toBe('1,25,000\u00a0km');
    expect(formatKilometres(0)).toBe('0\u00a0km');
    expect(formatKilometres(null)).toBe('—');
    expect(formatKilometres(undefined)).toBe('—');
  });

  it('formats ISO dates as day, month and year', () => {
    expect(formatDate('2027-03-31')).toBe('31 Mar 2027');
    expect(formatDate('2026-08-01')).toBe('1 Aug 2026');
    expect(formatDate('2026-08-01T10:00:00.000Z')).toBe('1 Aug 2026');
  });

  it('keeps other date text and shows a dash when empty', () => {
    expect(formatDate('')).toBe('—');
    expect(formatDate(null)).toBe('—');
    expect(formatDate(undefined)).toBe('—');
    expect(formatDate('Valid till Jul 2034')).toBe('Valid till Jul 2034');
  });

  it('counts vehicles found in the singular and plural', () => {
    expect(vehiclesFoundText(0)).toBe('0 vehicles found');
    expect(vehiclesFoundText(1)).toBe('1 vehicle found');
    expect(vehiclesFoundText(2)).toBe('2 vehicles found');
    expect(vehiclesFoundText(53)).toBe('53 vehicles found');
  });

  it('says "none found" in Hindi rather than "0 गाड़ी मिली"', () => {
    expect(inHindi(() => [0, 1, 2].map((count) => vehiclesFoundText(count)))).toEqual(['कोई गाड़ी नहीं मिली', '1 गाड़ी मिली', '2 गाड़ियाँ मिलीं']);
  });
});

/** Runs `read` as a Hindi page would, then puts the language source back (test files may share modules). */
function inHindi<T>(read: () => T): T {
  const before = setLanguageSource(() => 'hi');
  try {
    return read();
  } finally {
    setLanguageSource(before);
  }
}

describe('times, one clock for every page (decision 101)', () => {
  it("says am and pm in English, as Intl's en-IN does", () => {
    expect([0, 9, 12, 13, 18, 23].map((hour) => formatClock(hour))).toEqual(['12:00 am', '9:00 am', '12:00 pm', '1:00 pm', '6:00 pm', '11:00 pm']);
    expect(formatClock(16, 5)).toBe('4:05 pm');
    expect(formatDateTime('2026-11-21T10:35:00Z')).toBe('21 Nov 2026, 4:05 pm');
    expect(formatIndiaDateTime('2026-12-01T04:30:00Z')).toBe('Tue, 1 Dec, 10:00 am');
  });

  it('says the part of the day first in Hindi, with no am or pm', () => {
    expect(inHindi(() => [0, 4, 10, 12, 15, 16, 19, 20, 23].map((hour) => formatClock(hour)))).toEqual([
      'रात 12:00',
      'सुबह 4:00',
      'सुबह 10:00',
      'दोपहर 12:00',
      'दोपहर 3:00',
      'शाम 4:00',
      'शाम 7:00',
      'रात 8:00',
      'रात 11:00',
    ]);
    expect(inHindi(() => formatDateTime('2026-11-21T10:35:00Z'))).toBe('21 नव॰ 2026, शाम 4:05');
    expect(inHindi(() => formatIndiaDateTime('2026-12-01T04:30:00Z'))).toBe('मंगल, 1 दिस॰, सुबह 10:00');
  });
});

describe("the dealer's typed words on a Hindi page (decision 101)", () => {
  it('shows the known words in Hindi, whatever their case and spacing', () => {
    expect(inHindi(() => ['Engine', 'excellent', ' Needs  Attention ', '1st Owner', 'Work Done', 'Loan Available', 'Hatchbacks'].map(dealerWord))).toEqual([
      'इंजन',
      'बहुत बढ़िया',
      'ध्यान देने की ज़रूरत',
      'पहला मालिक',
      'किया गया काम',
      'लोन की सुविधा',
      'हैचबैक',
    ]);
  });

  it("says the seller inspection desk's items and statuses in the same Hindi as the desk", () => {
    const words = [...CONDITION_ITEMS, ...CONDITION_STATUSES];
    expect(inHindi(() => words.map(dealerWord))).toEqual(
      inHindi(() => [...CONDITION_ITEMS.map(conditionItemLabel), ...CONDITION_STATUSES.map(conditionStatusLabel)]),
    );
  });

  it("keeps the dealer's own text, and every text on an English page, as typed", () => {
    expect(inHindi(() => dealerWord('Full body polish'))).toBe('Full body polish');
    expect(dealerWord('Engine')).toBe('Engine');
    expect(validityText('Valid till Jul 2036')).toBe('Valid till Jul 2036');
  });

  it('gives a car page only its own words that change, and none on an English page', () => {
    const car = {
      owners: '1st Owner',
      fitnessFC: 'Valid till Jul 2036',
      categoryName: 'SUVs',
      inspection: { Engine: 'Good', 'Boot lid': 'Good' },
      refurbishment: { 'Work Done': ['AC service'] },
      financial: { Exchange: true },
    };
    expect(inHindi(() => shownWordsOf(car))).toEqual({
      '1st Owner': 'पहला मालिक',
      'Valid till Jul 2036': 'जुलाई 2036 तक वैध',
      SUVs: 'SUV',
      Engine: 'इंजन',
      Good: 'अच्छा',
      'Work Done': 'किया गया काम',
      Exchange: 'एक्सचेंज',
    });
    expect(shownWordsOf(car)).toEqual({});
  });

  it('writes a typed validity month in Hindi', () => {
    expect(inHindi(() => validityText('Valid till Jul 2036'))).toBe('जुलाई 2036 तक वैध');
    expect(inHindi(() => validityText('valid until sep 2034'))).toBe('सितंबर 2034 तक वैध');
    expect(inHindi(() => validityText('Renewed'))).toBe('Renewed');
  });
});
