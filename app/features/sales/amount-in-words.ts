/**
 * An amount in words in the Indian system (thousand, lakh, crore), as an invoice writes it, in
 * English and Hindi (decision 114): ₹12,34,567 is "Twelve lakh thirty-four thousand five hundred
 * sixty-seven rupees only", "बारह लाख चौंतीस हज़ार पाँच सौ सड़सठ रुपये मात्र". Pure.
 */

const ENGLISH_ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const ENGLISH_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** Hindi has a word of its own for each number below a hundred. */
const HINDI_BELOW_HUNDRED = (
  'शून्य एक दो तीन चार पाँच छह सात आठ नौ दस ग्यारह बारह तेरह चौदह पंद्रह सोलह सत्रह अठारह उन्नीस बीस ' +
  'इक्कीस बाईस तेईस चौबीस पच्चीस छब्बीस सत्ताईस अट्ठाईस उनतीस तीस इकतीस बत्तीस तैंतीस चौंतीस पैंतीस छत्तीस सैंतीस अड़तीस उनतालीस चालीस ' +
  'इकतालीस बयालीस तैंतालीस चवालीस पैंतालीस छियालीस सैंतालीस अड़तालीस उनचास पचास इक्यावन बावन तिरपन चौवन पचपन छप्पन सत्तावन अट्ठावन उनसठ साठ ' +
  'इकसठ बासठ तिरसठ चौंसठ पैंसठ छियासठ सड़सठ अड़सठ उनहत्तर सत्तर इकहत्तर बहत्तर तिहत्तर चौहत्तर पचहत्तर छिहत्तर सतहत्तर अठहत्तर उनासी अस्सी ' +
  'इक्यासी बयासी तिरासी चौरासी पचासी छियासी सत्तासी अट्ठासी नवासी नब्बे इक्यानबे बानबे तिरानबे चौरानबे पचानबे छियानबे सत्तानबे अट्ठानबे निन्यानबे'
).split(' ');

type Words = { belowHundred: (n: number) => string; hundred: string; thousand: string; lakh: string; crore: string };

const ENGLISH: Words = {
  belowHundred: (n) => (n < 20 ? ENGLISH_ONES[n]! : `${ENGLISH_TENS[Math.floor(n / 10)]!}${n % 10 ? `-${ENGLISH_ONES[n % 10]!}` : ''}`),
  hundred: 'hundred',
  thousand: 'thousand',
  lakh: 'lakh',
  crore: 'crore',
};

const HINDI: Words = { belowHundred: (n) => HINDI_BELOW_HUNDRED[n]!, hundred: 'सौ', thousand: 'हज़ार', lakh: 'लाख', crore: 'करोड़' };

/** A whole number above zero in words: crores (themselves in words, so a hundred crore reads so), lakhs, thousands, hundreds. */
function numberInWords(n: number, words: Words): string {
  const parts: string[] = [];
  const crores = Math.floor(n / 10_000_000);
  if (crores > 0) parts.push(`${numberInWords(crores, words)} ${words.crore}`);
  const lakhs = Math.floor((n % 10_000_000) / 100_000);
  if (lakhs > 0) parts.push(`${words.belowHundred(lakhs)} ${words.lakh}`);
  const thousands = Math.floor((n % 100_000) / 1000);
  if (thousands > 0) parts.push(`${words.belowHundred(thousands)} ${words.thousand}`);
  const hundreds = Math.floor((n % 1000) / 100);
  if (hundreds > 0) parts.push(`${words.belowHundred(hundreds)} ${words.hundred}`);
  const rest = n % 100;
  if (rest > 0) parts.push(words.belowHundred(rest));
  return parts.join(' ');
}

/** Paise as the invoice's amount in words, in English or Hindi. */
export function amountInWords(amountPaise: number, language: 'en' | 'hi'): string {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0) throw new Error(`Not an amount of paise: ${amountPaise}`);
  const rupees = Math.floor(amountPaise / 100);
  const paise = amountPaise % 100;
  if (language === 'hi') {
    const parts: string[] = [];
    if (rupees > 0 || paise === 0) parts.push(`${rupees === 0 ? HINDI.belowHundred(0) : numberInWords(rupees, HINDI)} रुपये`);
    if (paise > 0) parts.push(`${HINDI.belowHundred(paise)} पैसे`);
    return `${parts.join(' और ')} मात्र`;
  }
  const parts: string[] = [];
  if (rupees > 0 || paise === 0) parts.push(`${rupees === 0 ? 'zero' : numberInWords(rupees, ENGLISH)} ${rupees === 1 ? 'rupee' : 'rupees'}`);
  if (paise > 0) parts.push(`${ENGLISH.belowHundred(paise)} paise`);
  const text = `${parts.join(' and ')} only`;
  return text[0]!.toUpperCase() + text.slice(1);
}
