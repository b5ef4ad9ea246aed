import { describe, expect, it } from 'vitest';
import { amountInWords } from '../../app/features/sales/amount-in-words.ts';
import { formatRate, gstinCheckCharacter, gstinProblem, isGstin, saleTax, type GstRates } from '../../app/features/sales/gst.ts';
import { salesSettings } from '../../server/sales/settings.ts';

const RATES: GstRates = { marginRatePercent: 18, smallCarRatePercent: 18, largeCarRatePercent: 28, largeCarCessPercent: 22 };

describe('GSTIN (decision 114)', () => {
  it('accepts real GSTINs, whose fifteenth character is the mod-36 check of the first fourteen', () => {
    // Published registrations in Maharashtra, Karnataka, Tamil Nadu, Gujarat and Haryana.
    for (const gstin of ['27AAPFU0939F1ZV', '27AAACR5055K1Z7', '29AAGCB7383J1Z4', '33AAACH7409R1Z8', '24AAACC1206D1ZM', '06AACCG0527D1Z8']) {
      expect(gstinProblem(gstin)).toBeNull();
      expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin[14]);
    }
  });

  it('refuses a wrong check character, a wrong shape and a state that does not exist', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toBe('check');
    expect(gstinProblem('27AAACR5055K1Z8')).toBe('check');
    // Two characters swapped: the weights catch it.
    expect(gstinProblem('27AAPFU0993F1ZV')).toBe('check');
    expect(gstinProblem('27AAPUF0939F1ZV')).toBe('check');
    expect(gstinProblem('27AAPFU0939F1Z')).toBe('shape');
    expect(gstinProblem('27AAPFU0939F0ZV')).toBe('shape');
    expect(gstinProblem('99AAPFU0939F1ZV')).toBe('state');
    expect(isGstin('')).toBe(false);
  });

  it('keeps the settings: an empty GSTIN (not given yet) or a valid one, typed in any case', () => {
    const schema = salesSettings.settings.dealerGstin.schema;
    expect(schema.parse('')).toBe('');
    expect(schema.parse(' 27aapfu0939f1zv ')).toBe('27AAPFU0939F1ZV');
    expect(schema.safeParse('27AAPFU0939F1ZW').success).toBe(false);
    expect(salesSettings.settings.gstMarginRatePercent.schema.safeParse('18.005').success).toBe(false);
    expect(salesSettings.settings.gstMarginRatePercent.schema.parse('12.5')).toBe(12.5);
  });
});

describe('the tax of a sale (decision 114)', () => {
  it('margin scheme: the tax is in the margin over the purchase price, CGST and SGST halves within the state', () => {
    const tax = saleTax({
      scheme: 'margin',
      pricePaise: 6_50_000_00,
      purchasePaise: 5_90_000_00,
      carClass: 'large',
      rates: RATES,
      dealerState: '27',
      supplyState: '27',
    });
    expect(tax).toMatchObject({ marginPaise: 60_000_00, taxablePaise: 50_847_46, taxPaise: 9_152_54, totalPaise: 6_50_000_00, interState: false });
    expect(tax.lines).toEqual([
      { kind: 'cgst', rateBasisPoints: 900, amountPaise: 4_576_27 },
      { kind: 'sgst', rateBasisPoints: 900, amountPaise: 4_576_27 },
    ]);
  });

  it('margin scheme: a car sold at a loss carries no tax (rule 32(5): a negative value is ignored)', () => {
    const tax = saleTax({
      scheme: 'margin',
      pricePaise: 4_00_000_00,
      purchasePaise: 4_50_000_00,
      carClass: 'small',
      rates: RATES,
      dealerState: '27',
      supplyState: '27',
    });
    expect(tax).toMatchObject({ marginPaise: 0, taxablePaise: 0, taxPaise: 0 });
  });

  it('to another state: IGST, the whole rate in one line', () => {
    const tax = saleTax({
      scheme: 'margin',
      pricePaise: 6_50_000_00,
      purchasePaise: 5_90_000_00,
      carClass: 'large',
      rates: RATES,
      dealerState: '27',
      supplyState: '29',
    });
    expect(tax.lines).toEqual([{ kind: 'igst', rateBasisPoints: 1800, amountPaise: 9_152_54 }]);
  });

  it('normal scheme: the price holds the rate of the car class, and cess for a large car; the lines add up to the price, an odd paisa to SGST', () => {
    const small = saleTax({
      scheme: 'normal',
      pricePaise: 5_00_000_01,
      purchasePaise: null,
      carClass: 'small',
      rates: RATES,
      dealerState: '27',
      supplyState: '27',
    });
    expect(small.taxablePaise + small.lines.reduce((sum, line) => sum + line.amountPaise, 0)).toBe(5_00_000_01);
    expect(small.lines.map((line) => line.kind)).toEqual(['cgst', 'sgst']);
    expect(small.lines[1]!.amountPaise - small.lines[0]!.amountPaise).toBeLessThanOrEqual(1);
    const large = saleTax({
      scheme: 'normal',
      pricePaise: 15_00_000_00,
      purchasePaise: null,
      carClass: 'large',
      rates: RATES,
      dealerState: '27',
      supplyState: '27',
    });
    // 28% + 22% cess: the price is 150% of the taxable value.
    expect(large.taxablePaise).toBe(10_00_000_00);
    expect(large.lines).toEqual([
      { kind: 'cgst', rateBasisPoints: 1400, amountPaise: 1_40_000_00 },
      { kind: 'sgst', rateBasisPoints: 1400, amountPaise: 1_40_000_00 },
      { kind: 'cess', rateBasisPoints: 2200, amountPaise: 2_20_000_00 },
    ]);
    expect(formatRate(1400)).toBe('14%');
    expect(formatRate(250)).toBe('2.5%');
  });
});

describe('an amount in words, Indian system (decision 114)', () => {
  it('says lakh and crore in English', () => {
    expect(amountInWords(12_34_567_00, 'en')).toBe('Twelve lakh thirty-four thousand five hundred sixty-seven rupees only');
    expect(amountInWords(12_34_567_50, 'en')).toBe('Twelve lakh thirty-four thousand five hundred sixty-seven rupees and fifty paise only');
    expect(amountInWords(1_00_00_000_00, 'en')).toBe('One crore rupees only');
    expect(amountInWords(1_25_00_00_000_00, 'en')).toBe('One hundred twenty-five crore rupees only');
    expect(amountInWords(100, 'en')).toBe('One rupee only');
    expect(amountInWords(5, 'en')).toBe('Five paise only');
    expect(amountInWords(0, 'en')).toBe('Zero rupees only');
    expect(amountInWords(6_50_000_00, 'en')).toBe('Six lakh fifty thousand rupees only');
  });

  it('says them in Hindi, each number below a hundred its own word', () => {
    expect(amountInWords(12_34_567_00, 'hi')).toBe('बारह लाख चौंतीस हज़ार पाँच सौ सड़सठ रुपये मात्र');
    expect(amountInWords(12_34_567_50, 'hi')).toBe('बारह लाख चौंतीस हज़ार पाँच सौ सड़सठ रुपये और पचास पैसे मात्र');
    expect(amountInWords(2_99_99_999_00, 'hi')).toBe('दो करोड़ निन्यानबे लाख निन्यानबे हज़ार नौ सौ निन्यानबे रुपये मात्र');
    expect(amountInWords(45_00, 'hi')).toBe('पैंतालीस रुपये मात्र');
  });

  it('refuses what is not an amount', () => {
    expect(() => amountInWords(-1, 'en')).toThrow();
    expect(() => amountInWords(1.5, 'en')).toThrow();
  });
});
