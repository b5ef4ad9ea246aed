import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { untranslatedWords } from '../../app/lib/i18n/kept-words.ts';
import { textFolders, textNamespaces } from '../support/text-files.ts';
import { demoVehicles } from '../../server/db/demo/inventory.ts';
import { languageFromCookie, languageOfPath, pathInLanguage, preferredLanguage, withoutLanguage } from '../../app/lib/i18n/language.ts';

const namespaces = textNamespaces();
const read = (folder: string, language: string, namespace: string) =>
  JSON.parse(readFileSync(path.join(folder, language, `${namespace}.json`), 'utf8')) as Record<string, string>;
/** Car names a text may give as an example ("like “Creta”"): the makes and models people type. */
const carNames = new Set(demoVehicles.flatMap((vehicle) => `${vehicle.make} ${vehicle.model}`.split(/\s+/)));

describe('the texts of both languages (decision 087)', () => {
  it('has a Hindi file for every English one and no other, in every text folder', () => {
    for (const folder of textFolders()) {
      const files = (language: string) =>
        readdirSync(path.join(folder, language))
          .filter((file) => file.endsWith('.json'))
          .sort();
      expect(files('hi'), folder).toEqual(files('en'));
    }
  });

  it("names each namespace once across the shared and the features' folders", () => {
    const names = namespaces.map(({ namespace }) => namespace);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  for (const { namespace, folder } of namespaces) {
    describe(`${namespace}.json`, () => {
      const english = read(folder, 'en', namespace);
      const hindi = read(folder, 'hi', namespace);

      it('holds the same keys in English and Hindi', () => {
        expect(Object.keys(hindi).sort()).toEqual(Object.keys(english).sort());
      });

      it('gives every key a text in both languages', () => {
        for (const texts of [english, hindi])
          for (const [key, text] of Object.entries(texts)) expect(typeof text === 'string' && text.trim() !== '', key).toBe(true);
      });

      it('fills the same values and marks the same parts in both', () => {
        const slots = (text: string) => [...(text.match(/\{\{\s*\w+\s*\}\}|<\/?\w+>/g) ?? [])].map((slot) => slot.replace(/\s/g, '')).sort();
        for (const key of Object.keys(english)) expect(slots(hindi[key] ?? ''), key).toEqual(slots(english[key]!));
      });

      it('writes Hindi in Devanagari, with Latin letters only for kept words', () => {
        const stray = Object.entries(hindi).flatMap(([key, text]) =>
          untranslatedWords(text)
            .filter((word) => !carNames.has(word))
            .map((word) => `${key}: ${word}`),
        );
        expect(stray).toEqual([]);
      });
    });
  }
});

describe('the language of an address', () => {
  it('is Hindi under /hi and English elsewhere', () => {
    expect(languageOfPath('/hi')).toBe('hi');
    expect(languageOfPath('/hi/vehicle/5')).toBe('hi');
    expect(languageOfPath('/hindi')).toBe('en');
    expect(languageOfPath('/')).toBe('en');
    expect(withoutLanguage('/hi')).toBe('/');
    expect(withoutLanguage('/hi/rent/3')).toBe('/rent/3');
  });

  it('moves a page between languages with its query and hash', () => {
    expect(pathInLanguage('/', 'hi')).toBe('/hi');
    expect(pathInLanguage('/?q=swift', 'hi')).toBe('/hi?q=swift');
    expect(pathInLanguage('/vehicle/5#emi', 'hi')).toBe('/hi/vehicle/5#emi');
    expect(pathInLanguage('/hi/vehicle/5', 'hi')).toBe('/hi/vehicle/5');
    expect(pathInLanguage('/hi/categories?category=suv', 'en')).toBe('/categories?category=suv');
    expect(pathInLanguage('/hi', 'en')).toBe('/');
  });

  it('reads the browser language by quality, then order', () => {
    expect(preferredLanguage('hi-IN,hi;q=0.9,en-US;q=0.8')).toBe('hi');
    expect(preferredLanguage('en-GB,en;q=0.9,hi;q=0.8')).toBe('en');
    expect(preferredLanguage('en;q=0.5, hi;q=0.7')).toBe('hi');
    expect(preferredLanguage('ta-IN,mr;q=0.9')).toBeNull();
    expect(preferredLanguage('hi;q=0')).toBeNull();
    expect(preferredLanguage('')).toBeNull();
    expect(preferredLanguage('x'.repeat(5000))).toBeNull();
  });

  it('reads only a valid choice from the cookie', () => {
    expect(languageFromCookie('a=1; lang=hi; b=2')).toBe('hi');
    expect(languageFromCookie('lang=en')).toBe('en');
    expect(languageFromCookie('lang=fr')).toBeNull();
    expect(languageFromCookie('slang=hi')).toBeNull();
    expect(languageFromCookie(null)).toBeNull();
  });
});

describe('a table of live texts', () => {
  it('reads each text in the language of the moment it is read', async () => {
    const { liveTexts } = await import('../../app/lib/i18n/texts.ts');
    const { commonText } = await import('../../app/lib/i18n/common.ts');
    const { setLanguageSource } = await import('../../app/lib/i18n/current.ts');
    const table = liveTexts(commonText, { menu: 'menu', price: 'onRoadPrice' });
    let language: 'en' | 'hi' = 'en';
    const before = setLanguageSource(() => language);
    try {
      expect(table.menu).toBe('Menu');
      language = 'hi';
      expect(table.menu).toBe('मेन्यू');
      expect(table.price).toBe('ऑन-रोड कीमत');
      expect(Object.keys(table)).toEqual(['menu', 'price']);
    } finally {
      // Put back what was there: test files may share modules (the server's request language).
      setLanguageSource(before);
    }
  });
});
