import { FieldNotes } from '../../components/form.tsx';
import { whatsappText as t } from '../notifications/whatsapp-texts.ts';

/**
 * The verification form's two WhatsApp choices (decision 126): how the code goes, and the
 * never pre-ticked wish for updates on WhatsApp at the number being verified.
 */

/** "Send the code by: SMS / WhatsApp", shown only where the site can send on WhatsApp. */
export function CodeChannelChoice({ chosen, error }: { chosen: 'sms' | 'whatsapp'; error?: string | undefined }) {
  const option =
    'flex min-h-11 flex-1 cursor-pointer items-center gap-2 rounded-xl px-3 ring-1 ring-slate-300 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-brand-700';
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? 'channel-error' : undefined}>
      <legend className="mb-1.5 font-semibold text-slate-800">{t('codeBy')}</legend>
      <div className="flex gap-3">
        <label className={option}>
          <input type="radio" name="channel" value="sms" defaultChecked={chosen === 'sms'} className="h-5 w-5 accent-brand-700" />
          <span>{t('codeBySms')}</span>
        </label>
        <label className={option}>
          <input type="radio" name="channel" value="whatsapp" defaultChecked={chosen === 'whatsapp'} className="h-5 w-5 accent-brand-700" />
          <span>{t('codeByWhatsApp')}</span>
        </label>
      </div>
      <FieldNotes id="channel" error={error} />
    </fieldset>
  );
}

/** The opt-in sentence (the one recorded, optInWording) as a checkbox's label: unticked unless the person ticked it themselves. */
export function WhatsAppOptInBox({ ticked }: { ticked: boolean }) {
  return (
    <label className="flex cursor-pointer items-start gap-3 text-slate-800">
      <input type="checkbox" name="whatsappOptIn" defaultChecked={ticked} className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700" />
      <span className="text-sm">{t('optInWording')}</span>
    </label>
  );
}
