import { Link } from 'react-router';
import { useSite } from './site-layout.tsx';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';
import { infoText as t } from '../lib/i18n/info.ts';
import { RichText } from '../lib/i18n/rich.tsx';

export const meta = pageMeta(() => ({
  path: paths.about,
  title: t('aboutTitle'),
  description: t('aboutDescription'),
}));

export default function About() {
  const site = useSite();
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('aboutTitle')}</h1>
      <p>{t('aboutIntro', { site: site.siteName })}</p>
      <p>{t('aboutRent')}</p>
      <h2 className="text-xl font-bold">{t('whyUs')}</h2>
      <ul className="ml-5 list-disc space-y-1">
        <li>{t('whyInspected')}</li>
        <li>{t('whyPrices')}</li>
        <li>{t('whyPapers')}</li>
        <li>{t('whyExchange')}</li>
      </ul>
      <p>
        <RichText
          text={t('lookingFor')}
          parts={{
            request: (words) => (
              <Link to={paths.requestVehicle} className="font-semibold text-brand-700 underline">
                {words}
              </Link>
            ),
            contact: (words) => (
              <Link to={paths.contact} className="font-semibold text-brand-700 underline">
                {words}
              </Link>
            ),
          }}
        />
      </p>
    </article>
  );
}
