import { z } from 'zod';
import { zodFormErrors } from './form-errors.ts';
import { cleanLine as cleanInputLine, cleanText as cleanInputText } from './input.ts';
import { looksLikePhone } from './phone.ts';
import { MAX_IMAGE_BYTES, MAX_IMAGE_MB } from './uploads.ts';
import { leadsText as t } from './i18n/leads.ts';
import { liveTexts } from './i18n/texts.ts';

/**
 * The Request a Vehicle and Sell Your Vehicle forms (SPEC 2, 4, 5): one set of rules, limits
 * and messages for the browser (checks before sending, `maxLength` on the inputs) and the
 * server (which checks everything again).
 */

/** Longest accepted value per field, in UTF-16 code units (what `maxLength` counts). */
export const LEAD_LIMITS = {
  name: 100,
  phone: 20,
  model: 120,
  vehicle: 120,
  /** Request form: free text such as '2019 or newer'. */
  requestYear: 20,
  /** Sell form: a four-digit year. */
  sellYear: 4,
  budget: 40,
  price: 40,
  description: 1000,
} as const;

/** The most photos one sell submission may carry (each at most MAX_IMAGE_BYTES, app/lib/uploads.ts). */
export const MAX_SELL_IMAGES = 10;
/**
 * All photos of one submission together. The form is read into memory on the server, so the
 * total is kept well below ten times the per-photo limit; phone photos are 3-8 MB.
 */
export const MAX_SELL_UPLOAD_BYTES = 60 * 1024 * 1024;
export const OLDEST_YEAR = 1900;

/**
 * A field people never see (off screen, hidden from screen readers, out of the tab order) but
 * form-filling bots do. A name browsers do not autofill, so a person's autofill cannot trip it.
 */
export const HONEYPOT_FIELD = 'leave_blank';

/** The hidden field carrying the signed time a form was rendered, for browsers without JavaScript (server/leads/form-guard.ts). */
export const FORM_TOKEN_FIELD = 'formToken';

/** The request form's answers, in the language of the page or request of the moment. */
export const requestFailed = () => t('requestFailed');
export const requestSent = () => t('requestSent');

/** The lead forms' messages, read in the language of the page or request of the moment. */
export const leadMessages = {
  get nameRequired() {
    return t('nameRequired');
  },
  get phoneRequired() {
    return t('phoneRequired');
  },
  get phoneInvalid() {
    return t('phoneInvalid');
  },
  get modelRequired() {
    return t('modelRequired');
  },
  get vehicleRequired() {
    return t('vehicleRequired');
  },
  get yearRequired() {
    return t('yearRequired');
  },
  get yearInvalid() {
    return t('yearInvalid');
  },
  get budgetRequired() {
    return t('budgetRequired');
  },
  get priceRequired() {
    return t('priceRequired');
  },
  get tooManyImages() {
    return t('tooManyImages', { max: MAX_SELL_IMAGES });
  },
  /** “name” is larger than … */
  imageTooLarge: (name: string) => t('imageTooLarge', { name, mb: MAX_IMAGE_MB }),
  /** “name” is not a photo … */
  notAnImage: (name: string) => t('notAnImage', { name }),
  tooManySubmissions: (minutes: number) => t('tooManySubmissions', { count: minutes }),
  get botCheckFailed() {
    return t('botCheckFailed');
  },
  get formTooLarge() {
    return t('formTooLarge', { max: MAX_SELL_IMAGES, mb: MAX_IMAGE_MB });
  },
  get sellNotSaved() {
    return t('sellNotSaved');
  },
};

export function tooLongMessage(label: string, max: number): string {
  return t('tooLong', { label, max });
}

/** A field's name in a 'too long' message, read when the message is made. */
const FIELD_LABELS = {
  Name: 'fieldName',
  'Phone number': 'fieldPhone',
  Description: 'fieldDescription',
  'Vehicle model': 'fieldVehicleModel',
  Year: 'fieldYear',
  Budget: 'fieldBudget',
  'Expected price': 'fieldExpectedPrice',
} as const;
type FieldLabel = keyof typeof FIELD_LABELS;
const tooLong = (label: FieldLabel, max: number) => ({ error: () => tooLongMessage(t(FIELD_LABELS[label]), max) });

/** Text fields go through the one cleaner in input.ts; re-exported for the lead modules. */
export function cleanLine(value: unknown): string {
  return cleanInputLine(value);
}

/** Several lines (the description): Windows line breaks become \n, other controls are dropped. */
export function cleanText(value: unknown): string {
  return cleanInputText(value, { multiline: true });
}

function line(label: FieldLabel, max: number, required?: () => string) {
  const base = z.string().max(max, tooLong(label, max));
  return z.preprocess(cleanLine, required ? z.string().min(1, { error: required }).pipe(base) : base);
}

function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/**
 * The phone as typed, given the browser's light look (app/lib/phone.ts). The server reads the
 * forms with this field extended: the number made canonical E.164 (what is stored) or refused
 * when it is not a valid Indian mobile (server/leads/intake.ts, by server/phone.ts).
 */
const phone = z.preprocess(
  cleanLine,
  z
    .string()
    .min(1, { error: () => leadMessages.phoneRequired })
    .pipe(
      z
        .string()
        .max(LEAD_LIMITS.phone, tooLong('Phone number', LEAD_LIMITS.phone))
        .refine(looksLikePhone, { error: () => leadMessages.phoneInvalid }),
    ),
);

const description = z.preprocess(cleanText, z.string().max(LEAD_LIMITS.description, tooLong('Description', LEAD_LIMITS.description)));

/** A year a car on the road can have been made in: four digits, not after next year. */
export function isValidYear(value: string, now: Date = new Date()): boolean {
  if (!/^\d{4}$/.test(value)) return false;
  const year = Number(value);
  return year >= OLDEST_YEAR && year <= now.getFullYear() + 1;
}

/** SPEC 5, Request form: name, phone, preferred model and budget required; year and description optional. */
export const requestSchema = z.object({
  name: line('Name', LEAD_LIMITS.name, () => leadMessages.nameRequired),
  phone,
  model: line('Vehicle model', LEAD_LIMITS.model, () => leadMessages.modelRequired),
  year: line('Year', LEAD_LIMITS.requestYear),
  budget: line('Budget', LEAD_LIMITS.budget, () => leadMessages.budgetRequired),
  description,
});

/** SPEC 5, Sell form: name, phone, vehicle, year and expected price required; description optional. */
export const sellSchema = z.object({
  name: line('Name', LEAD_LIMITS.name, () => leadMessages.nameRequired),
  phone,
  vehicle: line('Vehicle model', LEAD_LIMITS.vehicle, () => leadMessages.vehicleRequired),
  year: z.preprocess(
    cleanLine,
    z
      .string()
      .min(1, { error: () => leadMessages.yearRequired })
      .pipe(z.string().refine((value) => isValidYear(value), { error: () => leadMessages.yearInvalid })),
  ),
  price: line('Expected price', LEAD_LIMITS.price, () => leadMessages.priceRequired),
  description,
});

export type RequestInput = z.infer<typeof requestSchema>;
export type SellInput = z.infer<typeof sellSchema>;
export type RequestField = keyof RequestInput;
export type SellField = keyof SellInput | 'images';
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export const requestFields = ['name', 'phone', 'model', 'year', 'budget', 'description'] as const satisfies readonly RequestField[];
export const sellFields = ['name', 'phone', 'vehicle', 'year', 'price', 'description'] as const satisfies readonly (keyof SellInput)[];

/** The values as typed, for refilling a form (every field a string, length-capped for the echo). */
export function formValues<Field extends string>(form: FormData | URLSearchParams, fields: readonly Field[]): Record<Field, string> {
  const values = {} as Record<Field, string>;
  for (const field of fields) {
    const value = form.get(field);
    values[field] = typeof value === 'string' ? value.slice(0, 20_000) : '';
  }
  return values;
}

/** The first message per field (zodFormErrors, typed by the form's fields). */
export function fieldErrors<Field extends string>(error: z.ZodError): FieldErrors<Field> {
  return zodFormErrors(error).fields as FieldErrors<Field>;
}

export type ParsedLead<T, Field extends string> = { ok: true; data: T } | { ok: false; errors: FieldErrors<Field> };

/** The request form by `schema`: the browser's (requestSchema), or the server's with the phone made canonical. */
export function parseRequestForm(form: FormData | URLSearchParams, schema: z.ZodType<RequestInput> = requestSchema): ParsedLead<RequestInput, RequestField> {
  const result = schema.safeParse(formValues(form, requestFields));
  return result.success ? { ok: true, data: result.data } : { ok: false, errors: fieldErrors<RequestField>(result.error) };
}

/** The sell form by `schema`: the browser's (sellSchema), or the server's with the phone made canonical. */
export function parseSellForm(form: FormData | URLSearchParams, schema: z.ZodType<SellInput> = sellSchema): ParsedLead<SellInput, SellField> {
  const result = schema.safeParse(formValues(form, sellFields));
  return result.success ? { ok: true, data: result.data } : { ok: false, errors: fieldErrors<SellField>(result.error) };
}

/**
 * The browser's look at chosen photos before sending (the server decides by content): image
 * types only, SVG refused (it is a document, not a photo), MAX_IMAGE_BYTES each, MAX_SELL_IMAGES at most.
 */
export function imageFilesError(files: ReadonlyArray<{ name: string; size: number; type: string }>): string | null {
  const chosen = files.filter((file) => file.size > 0);
  if (chosen.length > MAX_SELL_IMAGES) return leadMessages.tooManyImages;
  for (const file of chosen) {
    if (!file.type.startsWith('image/') || file.type === 'image/svg+xml') return leadMessages.notAnImage(file.name);
    if (file.size > MAX_IMAGE_BYTES) return leadMessages.imageTooLarge(file.name);
  }
  if (chosen.reduce((sum, file) => sum + file.size, 0) > MAX_SELL_UPLOAD_BYTES) return leadMessages.formTooLarge;
  return null;
}

// ------------------------------------------------------------------------------------ admin

export const LEAD_STATUSES = ['new', 'contacted', 'closed'] as const;
export type LeadStatusValue = (typeof LEAD_STATUSES)[number];
/** Each status's label, read in the language of the moment (getters, so callers index it as before). */
export const LEAD_STATUS_LABELS: Readonly<Record<LeadStatusValue, string>> = liveTexts(t, {
  new: 'statusNew',
  contacted: 'statusContacted',
  closed: 'statusClosed',
});
export const MAX_NOTES = 2000;
/** How long leads are kept (the privacy page says so); then they are deleted with their photos. */
export const LEAD_RETENTION_MONTHS = 12;
export const MAX_SEARCH = 100;

export type LeadUpdate = { status: LeadStatusValue; notes: string };

/** The admin's status form: a known status and notes of at most MAX_NOTES characters. */

export function isLeadStatus(value: unknown): value is LeadStatusValue {
  return typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value);
}

/**
 * The number to open a WhatsApp chat with a customer: digits only, and an Indian 10-digit
 * mobile number (or one written with a leading 0) gets the country code 91.
 */
export function customerWhatsappNumber(phone: string): string {
  const digits = phoneDigits(phone);
  if (digits.length === 10) return `91${digits}`;
  if (digits.length === 11 && digits.startsWith('0')) return `91${digits.slice(1)}`;
  return digits;
}
