import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import { LANGUAGES, type Language } from '../../app/lib/i18n/language.ts';

/**
 * The WhatsApp message templates this site sends (decision 123): each one's name, category and
 * body variables in order. Meta sends only templates it has approved, by name and language, so
 * the bodies are written once, in the texts (whatsapp.json, English and Hindi), and
 * docs/whatsapp-templates.md lists them as they are submitted (`npm run docs:whatsapp` writes it;
 * a test holds it to this list). A variable is `{{name}}` in the texts and `{{n}}`, its place in
 * `variables`, in Meta's template.
 */
export const WHATSAPP_TEMPLATES = {
  test_drive_booked: { category: 'UTILITY', variables: ['car', 'when', 'where', 'link'] },
  test_drive_moved: { category: 'UTILITY', variables: ['car', 'when', 'where', 'link'] },
  test_drive_reminder: { category: 'UTILITY', variables: ['car', 'when', 'where', 'link'] },
  inspection_booked: { category: 'UTILITY', variables: ['car', 'when', 'where', 'link'] },
  inspection_moved: { category: 'UTILITY', variables: ['car', 'when', 'where', 'link'] },
  inspection_reminder: { category: 'UTILITY', variables: ['car', 'when', 'where', 'link'] },
  inspection_offer: { category: 'UTILITY', variables: ['amount', 'car', 'until', 'link'] },
  rental_confirmed: { category: 'UTILITY', variables: ['ref', 'car', 'from', 'to', 'link'] },
  rental_reminder: { category: 'UTILITY', variables: ['car', 'when', 'ref', 'link'] },
  rental_cancelled: { category: 'UTILITY', variables: ['ref', 'car', 'money'] },
  rental_refused: { category: 'UTILITY', variables: ['ref', 'car', 'money'] },
  rental_closed: { category: 'UTILITY', variables: ['ref', 'car', 'charges', 'money'] },
  licence_approved: { category: 'UTILITY', variables: ['link'] },
  licence_refused: { category: 'UTILITY', variables: ['reason', 'link'] },
  reservation_reserved: { category: 'UTILITY', variables: ['car', 'until', 'amount', 'link'] },
  reservation_cancelled: { category: 'UTILITY', variables: ['car', 'amount'] },
  reservation_expired: { category: 'UTILITY', variables: ['car', 'amount'] },
  reservation_taken: { category: 'UTILITY', variables: ['car', 'amount'] },
  car_delivered: { category: 'UTILITY', variables: ['car', 'number', 'link'] },
  rc_transfer_step: { category: 'UTILITY', variables: ['car', 'step', 'detail', 'link'] },
  car_purchased: { category: 'UTILITY', variables: ['price', 'car', 'method', 'reference'] },
  team_alert: { category: 'UTILITY', variables: ['event', 'customer', 'detail', 'chat', 'desk'] },
  // Meta writes an authentication template's body itself; the code also fills its copy-code button.
  phone_code: { category: 'AUTHENTICATION', variables: ['code'] },
} as const satisfies Record<string, { category: 'UTILITY' | 'AUTHENTICATION'; variables: readonly string[] }>;

export type TemplateName = keyof typeof WHATSAPP_TEMPLATES;
export type TemplateValues<Name extends TemplateName> = Record<(typeof WHATSAPP_TEMPLATES)[Name]['variables'][number], string | number>;

/** A template with its variables filled, ready to queue: what a customer event hands queuePhoneMessage. */
export type TemplateMessage = { template: TemplateName; variables: string[] };

/** Meta refuses a parameter with a line break, a tab, more than four spaces in a row, or nothing at all. */
export function templateParameter(value: string | number): string {
  const text = String(value).replace(/\s+/g, ' ').trim();
  return text.length === 0 ? '-' : text.slice(0, 1000);
}

/** The template `name` with `values` in its variables' order. */
export function whatsappTemplate<Name extends TemplateName>(name: Name, values: TemplateValues<Name>): TemplateMessage {
  const variables = WHATSAPP_TEMPLATES[name].variables as readonly (keyof TemplateValues<Name>)[];
  return { template: name, variables: variables.map((variable) => templateParameter(values[variable])) };
}

/** What the person reads: the template's body in `language` with its variables filled (the desk's and the outbox's copy). */
export function templatePreview(message: TemplateMessage, language: Language): string {
  const names = WHATSAPP_TEMPLATES[message.template].variables as readonly string[];
  return whatsappText(message.template, Object.fromEntries(names.map((name, index) => [name, message.variables[index] ?? ''])), language);
}

/** Meta's language codes for the site's languages. */
export const TEMPLATE_LANGUAGE_CODES: Record<Language, string> = { en: 'en', hi: 'hi' };

/** docs/whatsapp-templates.md: every template, in every language, as it is submitted to Meta. */
export function templatesDocument(): string {
  const lines = [
    '# WhatsApp message templates',
    '',
    'Written by `npm run docs:whatsapp` from server/notify/whatsapp-templates.ts and the texts in',
    'app/features/notifications/texts/*/whatsapp.json; a test fails when this file and they differ.',
    '',
    'Submit each template in WhatsApp Manager (Account tools → Message templates) with this name,',
    'category and language, and the body as written here. `{{1}}`, `{{2}}` … are the variables, in',
    'the order given; the sample values Meta asks for can be read from the demo outbox (/dev/outbox).',
    'The site sends only these names; a template Meta has not approved fails, and the message goes',
    'by SMS instead (decision 123).',
    '',
  ];
  for (const [name, definition] of Object.entries(WHATSAPP_TEMPLATES) as Array<[TemplateName, (typeof WHATSAPP_TEMPLATES)[TemplateName]]>) {
    const variables = definition.variables as readonly string[];
    lines.push(
      `## \`${name}\``,
      '',
      `Category: ${definition.category}. Variables: ${variables.map((variable, index) => `{{${index + 1}}} ${variable}`).join(', ')}.`,
    );
    if (definition.category === 'AUTHENTICATION') lines.push('', 'Button: copy code (the code is also the button’s parameter). Code expiry: 10 minutes.');
    lines.push('');
    for (const language of LANGUAGES) {
      const numbered = Object.fromEntries(variables.map((variable, index) => [variable, `{{${index + 1}}}`]));
      lines.push(`- \`${TEMPLATE_LANGUAGE_CODES[language]}\`: ${whatsappText(name, numbered, language)}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
