import { currentLanguage } from '../lib/i18n/current.ts';

/**
 * `lang` for a text the dealer or a customer typed, shown on a page: 'en' on a Hindi page when it
 * is in Latin letters only (an English description, 'Full body polish'), so a screen reader reads
 * it in English and the Hindi walk counts it as data (decision 101); else nothing.
 */
export function typedTextLanguage(text: string): 'en' | undefined {
  return currentLanguage() === 'hi' && /[A-Za-z]/.test(text) && !/[\u0900-\u097F]/.test(text) ? 'en' : undefined;
}

/** A text the dealer or a customer typed, in the element `as`, marked by typedTextLanguage. */
export function TypedText({ text, as: Element = 'span', className }: { text: string; as?: 'span' | 'p' | 'dt' | 'dd' | 'li'; className?: string }) {
  return (
    <Element className={className} lang={typedTextLanguage(text)}>
      {text}
    </Element>
  );
}
