import { escapeHtml } from '../html.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { LANGUAGE_TAGS } from '../../app/lib/i18n/language.ts';

/**
 * A short page the server writes by itself, without the app's routes or stylesheet, for the
 * moments the app cannot render: maintenance mode and a database that does not answer. Every
 * text is escaped here; the dealer's phone is the one way to reach them then.
 */
export function standalonePage(options: { title: string; heading: string; text: string; phone: string }): string {
  const phone = escapeHtml(options.phone);
  return `<!doctype html><html lang="${LANGUAGE_TAGS[currentLanguage()].html}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(options.title)}</title><style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0;padding:1rem}main{max-width:28rem;text-align:center;background:#fff;border-radius:1rem;padding:2rem;box-shadow:0 1px 3px #0002}</style></head><body><main><h1>${escapeHtml(options.heading)}</h1><p>${escapeHtml(options.text)}</p><p>${escapeHtml(t('callMeanwhile'))} <a href="tel:${phone}">${phone}</a></p></main></body></html>`;
}
