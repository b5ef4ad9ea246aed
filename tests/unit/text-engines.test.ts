import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import * as engine from '../../app/lib/i18n/engine.ts';
import { LANGUAGES } from '../../app/lib/i18n/language.ts';
import { textNamespaces } from '../support/text-files.ts';

/**
 * The product's text engine writes every text of every namespace exactly as i18next does
 * (decision 087): i18next's plurals and interpolation are the rules our texts are written to,
 * and a text that needed more of i18next (nesting, formatters, context) fails here.
 */

// i18next as the product once ran it: plain keys, no escaping (React and the mails escape).
const reference = i18next.createInstance();
void reference.init({
  lng: 'en',
  fallbackLng: false,
  resources: {},
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

const namespaces = textNamespaces();

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** Values a text may be given: words with replacement patterns in them, numbers, nothing. */
const SAMPLES = ['Asha', '₹12,34,567', 'a $& b $1', ''];

describe('the text engine and i18next', () => {
  for (const { namespace, folder } of namespaces) {
    it(`write ${namespace} alike in both languages`, () => {
      const differences: string[] = [];
      for (const language of LANGUAGES) {
        const texts = JSON.parse(readFileSync(path.join(folder, language, `${namespace}.json`), 'utf8')) as Record<string, string>;
        const name = `engine-test-${namespace}`;
        reference.addResourceBundle(language, name, texts, true, true);
        engine.addTexts(name, language, texts);
        const [referenceT, engineT] = [reference.getFixedT(language, name) as unknown as engine.Translate, engine.translator(name, language)];
        const keys = [...new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')))];
        for (const key of [...keys, 'noSuchKey']) {
          const names = [
            ...new Set(
              Object.entries(texts)
                .filter(([own]) => own.replace(PLURAL, '') === key)
                .flatMap(([, text]) => [...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((match) => match[1]!)),
            ),
          ];
          const variants: Array<Record<string, string | number | null | undefined> | undefined> = [undefined, {}];
          for (const sample of SAMPLES) variants.push(Object.fromEntries(names.map((value) => [value, sample])));
          variants.push(Object.fromEntries(names.map((value) => [value, 42])), Object.fromEntries(names.map((value) => [value, null])));
          for (const count of [0, 1, 2, 5, 21, 1.5, '1,000']) variants.push({ ...Object.fromEntries(names.map((value) => [value, 'x'])), count });
          for (const values of variants) {
            const [fromI18next, fromEngine] = [referenceT(key, values), engineT(key, values)];
            if (fromI18next !== fromEngine) differences.push(`${language} ${key} ${JSON.stringify(values)}: i18next "${fromI18next}", engine "${fromEngine}"`);
          }
        }
      }
      expect(differences).toEqual([]);
    });
  }
});
