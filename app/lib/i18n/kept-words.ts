/**
 * Words a Hindi page writes in Latin letters, as Indian sites do (decision 087): abbreviations
 * and names people read as they are (Hindi times say the part of the day: "शाम 4:30", decision 101).
 * Anything else in Latin letters on a Hindi page is an untranslated text;
 * tests/unit/translations.test.ts and the Hindi browser walk (tests/e2e/hindi-walk.test.ts)
 * fail on it.
 */
export const KEPT_WORDS: ReadonlySet<string> = new Set(
  (
    'EMI SUV MUV km kmpl OTP WhatsApp Google UPI GST RC PDF JPEG JPG PNG WebP MB KB CNG LPG EV AC ABS ' +
    'ID PIN Razorpay Android iOS SMS STOP URL CSV PUC IST FASTag RTO NOC HEIC Gaadi Bazaar English ' +
    'GSTIN PAN HSN SAC CGST SGST IGST VIN UTR CMVR CN RI RV JSON Chrome Safari iPhone iPad'
  ).split(' '),
);

/** The Latin-letter words of `text` that are not kept words (URLs, emails and `{{values}}` aside). */
export function untranslatedWords(text: string): string[] {
  const bare = text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<\/?\w+>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ');
  return (bare.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []).filter((word) => !KEPT_WORDS.has(word) && !KEPT_WORDS.has(word.replace(/['’-]+$/, '')));
}
