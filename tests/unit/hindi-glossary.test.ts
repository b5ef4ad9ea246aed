import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textNamespaces } from '../support/text-files.ts';

/**
 * The Hindi texts call each thing by the glossary's one name (docs/hindi-glossary.md, decision
 * 101). The rules are the glossary's own tables: every `code` span in a row's "Not written"
 * column is a form no Hindi text may hold, so a rule added there is checked here, and a text
 * added to any namespace later is held to all of them.
 */

const root = path.resolve(import.meta.dirname, '../..');
const glossary = readFileSync(path.join(root, 'docs/hindi-glossary.md'), 'utf8');

type Rule = { term: string; hindi: string; banned: string };

/** The rows of the glossary's tables that ban a form: | Term | Hindi | Not written | Note |. */
function glossaryRules(markdown: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || cells[1] === 'Term' || cells[1] === 'Word' || /^-+$/.test(cells[1]!)) continue;
    for (const [, banned] of cells[3]!.matchAll(/`([^`]+)`/g)) rules.push({ term: cells[1]!, hindi: cells[2]!, banned: banned! });
  }
  return rules;
}

const NUKTA = '\u093C';

/**
 * Where `banned` stands in `text`: not when it is the start of the right spelling, which adds a
 * nukta to its last letter ('साफ' in 'साफ़'), nor inside a longer Devanagari word that merely
 * begins with it.
 */
function holds(text: string, banned: string): boolean {
  const escaped = banned.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`${escaped}(?!${NUKTA})`, 'u').test(text);
}

const hindiTexts = textNamespaces().flatMap(({ namespace, folder }) =>
  Object.entries(JSON.parse(readFileSync(path.join(folder, 'hi', `${namespace}.json`), 'utf8')) as Record<string, string>).map(([key, text]) => ({
    where: `${namespace}.${key}`,
    text,
  })),
);

const rules = glossaryRules(glossary);

describe('the Hindi glossary (docs/hindi-glossary.md)', () => {
  it('has its rules, each with the one Hindi word to write instead', () => {
    expect(rules.length).toBeGreaterThan(40);
    for (const rule of rules) expect(rule.hindi, rule.term).not.toBe('');
    for (const banned of ['फ़ीचर्ड', 'रिज़र्व्ड', 'खत्म', 'चाहता/चाहती', 'बिकाऊ', 'सेलर', 'यात्रा पर']) expect(rules.map((rule) => rule.banned)).toContain(banned);
  });

  it('reads the nukta rule as the glossary means it', () => {
    expect(holds('साफ़ कीमतें', 'साफ')).toBe(false);
    expect(holds('साफ कीमतें', 'साफ')).toBe(true);
    expect(holds('ख़त्म', 'खत्म')).toBe(false);
    expect(holds('अभी खत्म हुआ', 'खत्म')).toBe(true);
  });

  it('finds no form the glossary rules out in any Hindi text', () => {
    const found = hindiTexts.flatMap(({ where, text }) =>
      rules.filter((rule) => holds(text, rule.banned)).map((rule) => `${where}: "${rule.banned}" (the glossary writes ${rule.hindi})`),
    );
    expect(found).toEqual([]);
  });

  it('puts no slash between Hindi words (चाहता/चाहती): a sentence fits every reader', () => {
    const found = hindiTexts
      .filter(({ text }) => /[\u0900-\u097F]\s*\/\s*[\u0900-\u097F]/u.test(text.replace(/\{\{[^}]*\}\}/g, '')))
      .map(({ where, text }) => `${where}: ${text}`);
    expect(found).toEqual([]);
  });
});
