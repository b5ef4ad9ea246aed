import { Form, useNavigation } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { whatsappText as t } from '../notifications/whatsapp-texts.ts';

/** The profile's switch as its loader gives it (server/accounts/whatsapp-updates.ts). */
export type WhatsAppSwitchState = {
  phone: string;
  phoneVerified: boolean;
  optedIn: boolean;
  source: 'profile' | 'form' | 'reply' | null;
  changedAt: string | null;
  optInWording: string;
};

/** "On since …", "Off: you replied STOP on …", "Off since …", or nothing before any choice. */
function stateLine(state: WhatsAppSwitchState): string | null {
  if (!state.changedAt) return null;
  const when = formatDateTime(state.changedAt);
  if (state.optedIn) return t('optedInSince', { when });
  return state.source === 'reply' ? t('optedOutByReply', { when }) : t('optedOutSince', { when });
}

/**
 * "Updates on WhatsApp" beside the phone (decision 126): a switch that is a form's button, so it
 * works without JavaScript, with the sentence the person agrees to under it; for a verified
 * number only.
 */
export function WhatsAppSwitch({ state, notice, error }: { state: WhatsAppSwitchState; notice?: string | undefined; error?: string | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'whatsapp';
  if (!state.phoneVerified) return <p className="text-sm text-slate-600">{t('needsVerifiedPhone')}</p>;
  const line = stateLine(state);
  return (
    <Form method="post" className="flex min-w-0 flex-col gap-1">
      <input type="hidden" name="intent" value="whatsapp" />
      <button
        type="submit"
        name="optedIn"
        value={state.optedIn ? 'false' : 'true'}
        role="switch"
        aria-checked={state.optedIn}
        aria-labelledby="whatsapp-label"
        aria-describedby="whatsapp-wording"
        disabled={busy}
        className="inline-flex min-h-11 items-center gap-3 self-start rounded-full text-left font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
      >
        <span
          aria-hidden="true"
          className={`relative inline-flex h-7 w-12 shrink-0 rounded-full transition-colors ${state.optedIn ? 'bg-green-600' : 'bg-slate-300'}`}
        >
          <span className={`absolute top-1 h-5 w-5 rounded-full bg-white shadow transition-all ${state.optedIn ? 'left-6' : 'left-1'}`} />
        </span>
        <span>{state.optedIn ? t('optInOn') : t('optInOff')}</span>
      </button>
      <p id="whatsapp-wording" className="text-sm text-slate-700">
        {state.optInWording}
      </p>
      {line ? <p className="text-sm text-slate-600">{line}</p> : null}
      {error ? (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="text-sm font-semibold text-green-800">
          {notice}
        </p>
      ) : null}
    </Form>
  );
}
