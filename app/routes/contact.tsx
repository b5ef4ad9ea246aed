import { useSite } from './site-layout.tsx';
import { PhoneIcon, WhatsAppIcon } from '../components/icons.tsx';
import { telLink, whatsappLink } from '../lib/contact.ts';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';
import { infoText as t } from '../lib/i18n/info.ts';

export const meta = pageMeta((site) => ({ path: paths.contact, title: t('contactTitle'), description: t('contactDescription', { site: site.siteName }) }));

export default function Contact() {
  const site = useSite();
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('contactTitle')}</h1>
      <p className="text-slate-700">{t('contactIntro')}</p>
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm font-semibold uppercase tracking-wide text-slate-500">{t('phone')}</dt>
          <dd>
            <a href={telLink(site.sellerPhone)} className="text-lg font-semibold text-brand-700 underline">
              {site.sellerPhone}
            </a>
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold uppercase tracking-wide text-slate-500">{t('email')}</dt>
          <dd>
            <a href={`mailto:${site.contactEmail}`} className="text-lg font-semibold text-brand-700 underline">
              {site.contactEmail}
            </a>
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm font-semibold uppercase tracking-wide text-slate-500">{t('address')}</dt>
          <dd className="text-lg" translate="no">
            {site.contactAddress}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-3">
        <a href={telLink(site.sellerPhone)} className="flex items-center gap-2 rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
          <PhoneIcon className="h-5 w-5" /> {t('callUs')}
        </a>
        <a
          href={whatsappLink(site.whatsappNumber, t('whatsappHello', { site: site.siteName }))}
          target="_blank"
          rel="noopener noreferrer"
          className="flex items-center gap-2 rounded-xl bg-whatsapp px-5 py-3 font-semibold text-white hover:brightness-110"
        >
          <WhatsAppIcon className="h-5 w-5" /> {t('chatOnWhatsApp')}
        </a>
      </div>
    </article>
  );
}
