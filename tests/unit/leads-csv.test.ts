import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../server/leads/csv.ts';

describe('csvCell', () => {
  it('leaves plain values alone', () => {
    expect(csvCell('Ravi Kumar')).toBe('Ravi Kumar');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell('सुनीता 🚗')).toBe('सुनीता 🚗');
  });

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('4,50,000')).toBe('"4,50,000"');
    expect(csvCell('He said "sell"')).toBe('"He said ""sell"""');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('never lets a cell start a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('+91 98765 43210')).toBe("'+91 98765 43210");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=1')).toBe('a=1');
  });
});

describe('toCsv', () => {
  it('has a byte-order mark, a header row and CRLF line ends', () => {
    const csv = toCsv(
      ['ID', 'Name'],
      [
        [1, 'Ravi'],
        [2, 'A, B'],
      ],
    );
    expect(csv).toBe('\uFEFFID,Name\r\n1,Ravi\r\n2,"A, B"\r\n');
  });
});
