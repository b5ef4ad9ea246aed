import { typedTextLanguage } from '../lib/dealer-words.ts';

/**
 * A text the dealer or a customer typed, in the element `as`: on a Hindi page, English typed text
 * carries `lang="en"`, so a screen reader reads it in English (decision 101).
 */
export function TypedText({ text, as: Element = 'span', className }: { text: string; as?: 'span' | 'p' | 'dt' | 'dd' | 'li'; className?: string }) {
  return (
    <Element className={className} lang={typedTextLanguage(text)}>
      {text}
    </Element>
  );
}
