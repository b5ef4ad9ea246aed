import { useEffect, useRef, useState } from 'react';
import { data, redirect, useFetcher } from 'react-router';
import { answerError } from '../../server/http/action-errors.ts';
import { uploadsFrom, uploadTempDir, withUploadForm, type UploadForm } from '../../server/http/forms.ts';
import { honeypotFilled, leadFormLoader, leadProofFrom } from '../../server/leads/http/lead-intake.ts';
import { admitLead, submitLead } from '../../server/leads/intake.ts';
import { FormCard, FormMessage, primaryButton, TextAreaField, TextField } from '../components/form.tsx';
import { WhatsAppIcon } from '../components/icons.tsx';
import { ContactFields, focusFirstError, Honeypot, leadFieldProps, PrivacyNotice, useLeadSubmission } from '../components/leads/form-parts.tsx';
import { PhotoPicker } from '../components/leads/photo-picker.tsx';
import { useSite } from '../components/site-layout.tsx';
import { appContext, type RequestContext } from '../context.ts';
import {
  cleanLine,
  cleanText,
  FORM_TOKEN_FIELD,
  formValues,
  imageFilesError,
  LEAD_LIMITS,
  leadMessages,
  MAX_SELL_IMAGES,
  parseSellForm,
  sellFields,
  type FieldErrors,
  type SellField,
} from '../lib/lead-forms.ts';
import { paths } from '../lib/paths.ts';
import { sellChatLink, type SellChatFields } from '../lib/sell-chat.ts';
import { pageMeta } from '../lib/seo.ts';
import { IMAGE_TOO_LARGE } from '../lib/uploads.ts';
import type { Route } from './+types/sell-vehicle';
import { retryAfterHeaders } from '../lib/retry-after.ts';

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export const meta = pageMeta({
  path: paths.sellVehicle,
  title: 'Sell Your Vehicle',
  description: 'Sell your car to a trusted dealer: send us the details and a few photos on WhatsApp and get a fair offer.',
});

export const loader = leadFormLoader('sell');

type Values = Record<(typeof sellFields)[number], string>;
export type SellResult =
  /** Saved: open this chat (with the photos' addresses unless `imagesFailed`). */
  | { status: 'sent'; chatUrl: string; imagesFailed: boolean }
  /** Something the visitor must fix first; no chat. */
  | { status: 'invalid'; errors: FieldErrors<SellField>; values: Values | null }
  /** Not saved on our side, but the chat opens anyway (SPEC 4), without photos. */
  | { status: 'not-saved'; message: string; chatUrl: string | null; values: Values | null };

function chatFields(values: Values): SellChatFields {
  return {
    name: cleanLine(values.name),
    phone: cleanLine(values.phone),
    vehicle: cleanLine(values.vehicle),
    year: cleanLine(values.year),
    price: cleanLine(values.price),
    description: cleanText(values.description),
  };
}

/**
 * One request carries the fields and the photos. With script the page opens the chat itself
 * (`via=script`); a plain form post is answered with a redirect to the chat instead.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const { config } = services;
  try {
    await admitLead(services, 'sell');
  } catch (error) {
    const answer = notSaved(services, error);
    return data<SellResult>({ status: 'not-saved', message: answer.message, chatUrl: null, values: null }, { status: answer.status, headers: answer.headers });
  }
  return withUploadForm(
    request,
    {
      tempDir: uploadTempDir(config.dataDir),
      maxFiles: MAX_SELL_IMAGES,
      messages: { tooLarge: leadMessages.formTooLarge, tooManyFiles: leadMessages.tooManyImages, fileTooLarge: IMAGE_TOO_LARGE },
    },
    (upload) => submitSell(services, upload),
    (error) => {
      const message = error.problem === 'file-too-large' ? `“${error.fileName || 'image'}”: ${error.message}` : error.message;
      // What was typed before the refused part comes back (the text fields come before the photos).
      const typed = [...error.fields.keys()].length > 0 ? formValues(error.fields, sellFields) : null;
      return data<SellResult>({ status: 'invalid', errors: { images: message }, values: typed }, { status: error.status });
    },
  );
}

/** What the visitor reads when the lead was refused or failed: the chat still opens (SPEC 4). */
function notSaved(services: RequestContext, error: unknown) {
  return answerError(error, services.logger, {
    prefix: (message) => `${leadMessages.sellNotSaved} ${message}`,
    fallback: `${leadMessages.sellNotSaved} Please try again later.`,
    log: 'sell form: the submission could not be saved',
  });
}

async function submitSell(services: RequestContext, upload: UploadForm) {
  const { config, logger } = services;
  const form = upload.fields;
  const viaScript = form.get('via') === 'script';
  const values = formValues(form, sellFields);
  const chatWithoutPhotos = () => sellChatLink(config.whatsappNumber, chatFields(values));
  const finish = (result: SellResult, init: ResponseInit = {}) =>
    result.status === 'sent' && !viaScript ? redirect(result.chatUrl, 303) : data<SellResult>(result, init);

  if (honeypotFilled(form, logger, 'sell')) return finish({ status: 'sent', chatUrl: chatWithoutPhotos(), imagesFailed: false });
  const parsed = parseSellForm(form);
  if (!parsed.ok) return finish({ status: 'invalid', errors: parsed.errors, values }, { status: 400 });
  try {
    const { imageUrls, imagesFailed } = await submitLead(services, { kind: 'sell', input: parsed.data, uploads: uploadsFrom(upload, 'images') }, leadProofFrom(form));
    return finish({ status: 'sent', chatUrl: sellChatLink(config.whatsappNumber, parsed.data, imageUrls), imagesFailed });
  } catch (error) {
    const answer = notSaved(services, error);
    // A photo to change: the visitor fixes the form, no chat yet.
    if (answer.status === 400) return finish({ status: 'invalid', errors: { images: answer.fields.images ?? answer.message }, values }, { status: 400 });
    return finish({ status: 'not-saved', message: answer.message, chatUrl: chatWithoutPhotos(), values }, { status: answer.status, headers: answer.headers });
  }
}

/** The scripted submission in flight: its tab (null when the browser blocked it), its form, and a chat link for when the server gives none. */
type PendingSubmission = { tab: Window | null; form: HTMLFormElement; chatWithoutPhotos: string };
let pending: PendingSubmission | null = null;

/** What the page shows after a scripted submission: the server's result, the chat and whether its tab opened. */
export type SellOutcome = SellResult & { tabOpened: boolean };

/**
 * Points the tab opened within the click at the chat once the save has answered. A save that
 * never answered (connection lost, server down) still opens the chat, without photos (SPEC 4).
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  const submission = pending;
  pending = null;
  let result: SellResult;
  // Answered as a 503 when the save never answered, so the router does not reload the page's
  // data over the same dead connection (that failure would replace the form with an error page).
  let unanswered = false;
  try {
    result = await serverAction();
  } catch {
    unanswered = true;
    result = { status: 'not-saved', message: `${leadMessages.sellNotSaved} Please check your connection.`, chatUrl: null, values: null };
  }
  let outcome: SellOutcome = { ...result, tabOpened: false };
  if (submission && result.status === 'invalid') submission.tab?.close();
  if (submission && result.status !== 'invalid') {
    const chatUrl = result.chatUrl ?? submission.chatWithoutPhotos;
    const tabOpened = Boolean(submission.tab && !submission.tab.closed);
    if (tabOpened) submission.tab!.location.href = chatUrl;
    if (result.status === 'sent') submission.form.reset();
    outcome = { ...result, chatUrl, tabOpened };
  }
  return unanswered ? data<SellOutcome>(outcome, { status: 503 }) : outcome;
}

/** Shows "Opening WhatsApp…" in the tab opened within the click, until the chat's address is known. */
function openPlaceholderTab(): Window | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  try {
    // The chat must not be able to reach back into this page.
    tab.opener = null;
    tab.document.title = 'Opening WhatsApp…';
    tab.document.body.style.font = '16px system-ui, sans-serif';
    tab.document.body.textContent = 'Opening WhatsApp…';
  } catch {
    // Nothing more to do: the address is set when the save answers.
  }
  return tab;
}

export default function SellVehicle({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSite();
  const fetcher = useFetcher<typeof clientAction>();
  const { solving, clientErrors, fieldsToSend } = useLeadSubmission<SellField>('SELL_FORM');
  const formRef = useRef<HTMLFormElement>(null);
  // Results stay on screen until the next submission starts.
  const [dismissed, setDismissed] = useState<readonly unknown[]>([]);
  const busy = solving || fetcher.state !== 'idle';

  // With script the result is the fetcher's; without, the page's action data (a document post).
  const scripted = fetcher.state === 'idle' && fetcher.data && !dismissed.includes(fetcher.data) ? fetcher.data : undefined;
  const plain = actionData && !dismissed.includes(actionData) ? actionData : undefined;
  const result: SellResult | undefined = scripted ?? plain;
  const tabOpened = scripted?.tabOpened ?? false;
  const chatUrl = result && result.status !== 'invalid' ? result.chatUrl : null;
  const errors: FieldErrors<SellField> = clientErrors ?? (result?.status === 'invalid' ? result.errors : {});
  const values: Partial<Values> = (plain && plain.status !== 'sent' ? plain.values : null) ?? {};

  useEffect(() => {
    if (result?.status === 'invalid') focusFirstError(formRef.current, result.errors);
  }, [result]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    setDismissed([fetcher.data, actionData]);
    const fields = await fieldsToSend(
      event,
      busy,
      (typed) => {
        const parsed = parseSellForm(typed);
        const imageError = imageFilesError(typed.getAll('images').filter((value): value is File => typeof value !== 'string'));
        return { ...(parsed.ok ? {} : parsed.errors), ...(imageError ? { images: imageError } : {}) };
      },
      // Browsers only allow a new tab during the click itself, not after the upload's await:
      // open it now and point it at the chat when the save answers (a link is shown as well).
      (form, typed) => {
        pending = { tab: openPlaceholderTab(), form, chatWithoutPhotos: sellChatLink(site.whatsappNumber, chatFields(formValues(typed, sellFields))) };
      },
    );
    if (!fields) return;
    fields.set('via', 'script');
    await fetcher.submit(fields, { method: 'post', action: paths.sellVehicle, encType: 'multipart/form-data' });
  }

  const field = leadFieldProps<SellField>('sell', errors, values, ['description']);

  return (
    <FormCard title="Sell Your Vehicle">
      <p className="mb-5 text-slate-700">Tell us about your car and add a few photos. We will send your details to our team on WhatsApp and get back to you with an offer.</p>
      <form ref={formRef} method="post" action={paths.sellVehicle} encType="multipart/form-data" className="relative flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <ContactFields field={field} />
        <TextField {...field('vehicle')} label="Vehicle model" placeholder="e.g. Hyundai i20 Asta" maxLength={LEAD_LIMITS.vehicle} />
        <TextField {...field('year')} label="Year" inputMode="numeric" placeholder="e.g. 2018" maxLength={LEAD_LIMITS.sellYear} />
        <TextField {...field('price')} label="Expected price" placeholder="e.g. ₹4,50,000" maxLength={LEAD_LIMITS.price} />
        <TextAreaField {...field('description')} label="Description (optional)" placeholder="Kilometres driven, owners, condition, service history" maxLength={LEAD_LIMITS.description} />
        <PhotoPicker id="sell-images" name="images" error={errors.images} />
        <Honeypot />
        <input type="hidden" name={FORM_TOKEN_FIELD} value={loaderData.formToken} />
        <PrivacyNotice>{site.siteName} keeps these details and photos to contact you about selling this car.</PrivacyNotice>
        <div aria-live="polite" className="flex flex-col gap-3 empty:hidden">
          {result?.status === 'sent' ? (
            <FormMessage tone="success">
              Thank you! We have received your vehicle details.{' '}
              {tabOpened ? 'WhatsApp has opened in a new tab with your message: tap Send there.' : 'Open WhatsApp to send us your message.'}
              {result.imagesFailed ? ' Your photos could not be uploaded, so the message goes without them; you can attach them in WhatsApp.' : ''}
            </FormMessage>
          ) : null}
          {result?.status === 'not-saved' ? (
            <FormMessage tone="error">
              {result.message} Your details are still in the form.{' '}
              {tabOpened ? 'WhatsApp has opened so you can still send them to us (without photos).' : 'You can still send them to us on WhatsApp (without photos).'}
            </FormMessage>
          ) : null}
          {chatUrl && result?.status !== 'invalid' ? (
            <a href={chatUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center justify-center gap-2 rounded-xl bg-whatsapp px-5 py-3 font-semibold text-white hover:brightness-110">
              <WhatsAppIcon className="h-5 w-5" /> Open WhatsApp chat
            </a>
          ) : null}
        </div>
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? (
            'Uploading...'
          ) : (
            <>
              <WhatsAppIcon className="h-5 w-5" /> Send via WhatsApp
            </>
          )}
        </button>
      </form>
    </FormCard>
  );
}
