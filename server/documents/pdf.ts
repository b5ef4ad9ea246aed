import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { formatPaise } from '../../app/lib/money.ts';

/**
 * PDFs of the dealer's documents (decision 114), with pdfkit and the Noto Sans fonts of the
 * @fontsource packages. Those ship subsets: the Latin file has no ₹ and no Devanagari, the
 * Devanagari file no Latin digits. So each text is cut into runs by script and each run set in
 * its own font, one after the other on the line (`continued`); fontkit shapes the Devanagari
 * runs (conjuncts, the i-matra before its consonant).
 */

const require = createRequire(import.meta.url);

function fontFile(pkg: string, file: string): Buffer {
  return readFileSync(path.join(path.dirname(require.resolve(`${pkg}/index.css`)), 'files', file));
}

type Fonts = { latin: Buffer; latinBold: Buffer; devanagari: Buffer; devanagariBold: Buffer };
let fonts: Fonts | null = null;

/** Read once, on the first document. */
function loadFonts(): Fonts {
  fonts ??= {
    latin: fontFile('@fontsource/noto-sans', 'noto-sans-latin-400-normal.woff'),
    latinBold: fontFile('@fontsource/noto-sans', 'noto-sans-latin-700-normal.woff'),
    devanagari: fontFile('@fontsource/noto-sans-devanagari', 'noto-sans-devanagari-devanagari-400-normal.woff'),
    devanagariBold: fontFile('@fontsource/noto-sans-devanagari', 'noto-sans-devanagari-devanagari-700-normal.woff'),
  };
  return fonts;
}

/** Devanagari letters and signs, the Vedic extensions, the joiners that shape conjuncts, and ₹ (only the Devanagari file has it). */
function isDevanagari(character: string): boolean {
  const code = character.codePointAt(0)!;
  return (
    (code >= 0x0900 && code <= 0x097f) ||
    (code >= 0xa8e0 && code <= 0xa8ff) ||
    (code >= 0x1cd0 && code <= 0x1cff) ||
    code === 0x200c ||
    code === 0x200d ||
    code === 0x20b9
  );
}

export type Run = { text: string; script: 'latin' | 'devanagari' };

/**
 * `text` cut where its script changes. Spaces go with the run they are in (both files have a
 * space); punctuation, digits and Latin letters are the Latin file's (the Devanagari one has
 * none of them), Devanagari and ₹ the Devanagari file's.
 */
export function scriptRuns(text: string): Run[] {
  const runs: Run[] = [];
  for (const character of text) {
    const space = /\s/.test(character);
    const script = isDevanagari(character) ? 'devanagari' : 'latin';
    const last = runs.at(-1);
    if (last && (space || last.script === script)) last.text += character;
    else runs.push({ text: character, script });
  }
  return runs;
}

export type TextOptions = PDFKit.Mixins.TextOptions & { bold?: boolean; size?: number; color?: string };

/** A document being written: text in any script at a place, and the finished bytes. */
export type Pdf = {
  doc: PDFKit.PDFDocument;
  /** Writes `text` at (x, y), or where the last text ended, wrapping within `width`. */
  text(text: string, x?: number, y?: number, options?: TextOptions): void;
  /** The height `text` takes within `width`. */
  heightOf(text: string, width: number, options?: TextOptions): number;
  done(): Promise<Buffer>;
};

export function createPdf(info: { title: string; author: string; language: 'en' | 'hi' }): Pdf {
  const loaded = loadFonts();
  const doc = new PDFDocument({ size: 'A4', margin: 40, lang: info.language === 'hi' ? 'hi-IN' : 'en-IN', info: { Title: info.title, Author: info.author } });
  doc.registerFont('latin', loaded.latin);
  doc.registerFont('latin-bold', loaded.latinBold);
  doc.registerFont('devanagari', loaded.devanagari);
  doc.registerFont('devanagari-bold', loaded.devanagariBold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const fontOf = (run: Run, bold: boolean | undefined) => `${run.script}${bold ? '-bold' : ''}`;
  // Each font would put its baseline below the top by its own ascender, Devanagari's lower than
  // Latin's: every run is set on the Latin font's baseline, so a line's scripts stand on one line.
  doc.font('latin');
  const ascender = (doc as unknown as { _font: { ascender: number } })._font.ascender / 1000;

  return {
    doc,
    text(text, x, y, options = {}) {
      const { bold, size = 9, color = '#0f172a', ...given } = options;
      const rest = { ...given, baseline: -ascender * size };
      const runs = scriptRuns(text === '' ? ' ' : text);
      doc.fontSize(size).fillColor(color);
      if (runs.length > 1 && rest.align === 'right' && x !== undefined && rest.width !== undefined) {
        // pdfkit would align each run on its own: the line's width is measured run by run and it is set from the left.
        const width = runs.reduce((sum, run) => sum + doc.font(fontOf(run, bold)).widthOfString(run.text), 0);
        const { align: _align, width: _width, ...unaligned } = rest;
        runs.forEach((run, index) => {
          doc.font(fontOf(run, bold));
          const options = { ...unaligned, lineBreak: false, continued: index < runs.length - 1 };
          if (index === 0) doc.text(run.text, x + Math.max(0, rest.width! - width), y, options);
          else doc.text(run.text, options);
        });
        return;
      }
      runs.forEach((run, index) => {
        doc.font(fontOf(run, bold));
        const continued = index < runs.length - 1;
        if (index === 0 && x !== undefined) doc.text(run.text, x, y, { ...rest, continued });
        else doc.text(run.text, { ...rest, continued });
      });
    },
    heightOf(text, width, options = {}) {
      const { bold, size = 9 } = options;
      // One font for the measure: the script with more of the text.
      const runs = scriptRuns(text === '' ? ' ' : text);
      const devanagari = runs.filter((run) => run.script === 'devanagari').reduce((sum, run) => sum + run.text.length, 0);
      doc.fontSize(size).font(`${devanagari * 2 > text.length ? 'devanagari' : 'latin'}${bold ? '-bold' : ''}`);
      return doc.heightOfString(text, { width });
    },
    done() {
      doc.end();
      return ended;
    },
  };
}

/** 2026-11-20 as invoices in India write it: 20-11-2026. */
export const dayText = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

/** Paise as an amount column writes them: 6,50,000.00. */
export function figures(amountPaise: number): string {
  const text = formatPaise(amountPaise).replace('₹', '');
  return text.includes('.') ? text : `${text}.00`;
}
