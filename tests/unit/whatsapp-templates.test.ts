import { describe, expect, it } from 'vitest';
import { templateBody } from '../../server/notify/whatsapp-graph.ts';
import { templateParameter, templatePreview, templatesDocument, whatsappTemplate, WHATSAPP_TEMPLATES } from '../../server/notify/whatsapp-templates.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import { LANGUAGES } from '../../app/lib/i18n/language.ts';

describe('the WhatsApp templates (decision 123)', () => {
  it('docs/whatsapp-templates.md lists every template as submitted to Meta (npm run docs:whatsapp writes it)', async () => {
    await expect(templatesDocument()).toMatchFileSnapshot('../../docs/whatsapp-templates.md');
  });

  it("uses each of a template's variables in its body, in both languages, and no other", () => {
    for (const [name, definition] of Object.entries(WHATSAPP_TEMPLATES)) {
      for (const language of LANGUAGES) {
        const body = whatsappText(name as keyof typeof WHATSAPP_TEMPLATES, undefined, language);
        const used = [...body.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
        expect(used, `${name} (${language})`).toEqual([...definition.variables].sort());
      }
    }
  });

  it("neither starts nor ends a body with a variable, as Meta's review refuses", () => {
    for (const name of Object.keys(WHATSAPP_TEMPLATES)) {
      for (const language of LANGUAGES) {
        const body = whatsappText(name as keyof typeof WHATSAPP_TEMPLATES, undefined, language).trim();
        if (name === 'phone_code') continue; // Meta writes the authentication template's body itself.
        expect(body.startsWith('{{'), `${name} (${language})`).toBe(false);
        expect(body.endsWith('}}'), `${name} (${language})`).toBe(false);
      }
    }
  });

  it('fills the variables in order, as one line each, never empty', () => {
    const message = whatsappTemplate('test_drive_booked', {
      car: '2021 Hyundai\nCreta',
      when: 'Sat 5 Dec,   11:00 am',
      where: '',
      link: 'https://x.in/profile',
    });
    expect(message).toEqual({ template: 'test_drive_booked', variables: ['2021 Hyundai Creta', 'Sat 5 Dec, 11:00 am', '-', 'https://x.in/profile'] });
    expect(templateParameter('a'.repeat(5000))).toHaveLength(1000);
    expect(templatePreview(message, 'hi')).toContain('2021 Hyundai Creta');
  });

  it("writes the Graph API's template request: the digits of the number, the language code, body parameters and an authentication code's button", () => {
    expect(templateBody({ to: '+919820011223', template: 'phone_code', language: 'hi', variables: ['123456'], copyCode: '123456' })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919820011223',
      type: 'template',
      template: {
        name: 'phone_code',
        language: { code: 'hi' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
        ],
      },
    });
  });
});
