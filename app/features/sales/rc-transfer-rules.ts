import { z } from 'zod';
import { parseRupeesAsPaise } from '../../lib/money.ts';
import { salesText as t } from './sales-texts.ts';

/**
 * The registration (RC) transfer's steps and the shapes of what the desk types at them
 * (decision 117), shared by the desk's page, the service and the buyer's views. Pure.
 */

/** The steps, in the one order they happen; the RTO needs each before the next. */
export const RC_STEPS = ['forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered'] as const;
export type RcStep = (typeof RC_STEPS)[number];

/** Where a transfer stands: the last step done, `sold` before the first, `closed` once its sale was cancelled. */
export const RC_STATES = ['sold', ...RC_STEPS, 'closed'] as const;
export type RcState = (typeof RC_STATES)[number];

/**
 * An RTO application number as Vahan prints it on the receipt: the state's two letters and 8 to
 * 14 digits (MH2411123456789). Typed with spaces or dashes, kept without them, in capitals.
 */
export const APPLICATION_NUMBER_SHAPE = /^[A-Z]{2}\d{8,14}$/;
export const APPLICATION_NUMBER_EXAMPLE = 'MH2411123456789';

/** An Indian registration number: state, district, series letters, number (MH12AB1234, DL3CAB1234), or a BH-series one (22BH1234AA). */
export const REGISTRATION_SHAPE = /^(?:[A-Z]{2}\d{1,2}[A-Z]{0,3}\d{1,4}|\d{2}BH\d{4}[A-Z]{1,2})$/;
const REGISTRATION_EXAMPLES = { example: 'MH12AB1234', bhExample: '22BH1234AA' };

const compact = (value: unknown) => (typeof value === 'string' ? value.replace(/[\s-]+/g, '').toUpperCase() : '');
const line = (max: number) => z.preprocess((value) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : ''), z.string().max(max));
const checkbox = z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean());

/** A transfer as the desk's page, the buyer's profile and the API show it; times in epoch ms, money in paise. */
export type RcTransferView = {
  saleId: number;
  state: RcState;
  soldMs: number;
  /** Each step in order: when it was done and by which admin, null while it is to come. */
  steps: Array<{ step: RcStep; doneMs: number | null; by: string | null }>;
  next: RcStep | null;
  applicationNumber: string | null;
  feePaise: number | null;
  feeReceipt: string | null;
  newRegistration: string | null;
  form35Needed: boolean;
  form28Needed: boolean;
  closedMs: number | null;
};

/** What the desk sends at each step; `step` names the step the desk means to record. */
export const rcStepSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('forms-signed'), form35Needed: checkbox, form28Needed: checkbox }),
  z.object({
    step: z.literal('submitted'),
    applicationNumber: z.preprocess(
      compact,
      z
        .string()
        .min(1, { error: () => t('rcApplicationRequired') })
        .regex(APPLICATION_NUMBER_SHAPE, { error: () => t('rcApplicationShape', { example: APPLICATION_NUMBER_EXAMPLE }) }),
    ),
  }),
  z.object({
    step: z.literal('fee-paid'),
    fee: z.preprocess(
      (value) => (typeof value === 'string' ? value : ''),
      z.string().transform((typed, context) => {
        const paise = parseRupeesAsPaise(typed, 1_000_000);
        if (paise === null || paise <= 0) {
          context.issues.push({ code: 'custom', message: t('rcFeeInvalid'), input: typed });
          return z.NEVER;
        }
        return paise;
      }),
    ),
    feeReceipt: line(60).pipe(z.string().min(1, { error: () => t('rcReceiptRequired') })),
  }),
  z.object({
    step: z.literal('rc-issued'),
    newRegistration: z.preprocess(
      compact,
      z.string().refine((value) => value === '' || REGISTRATION_SHAPE.test(value), { error: () => t('rcRegistrationShape', REGISTRATION_EXAMPLES) }),
    ),
  }),
  z.object({ step: z.literal('delivered') }),
]);
export type RcStepInput = z.output<typeof rcStepSchema>;

/** The step the schema cannot read (an unknown `step`), as its own refusal. */
export function isRcStep(value: unknown): value is RcStep {
  return typeof value === 'string' && (RC_STEPS as readonly string[]).includes(value);
}

/** Whole days since the sale, India calendar aside: a transfer is overdue after so many full days. */
export function daysSince(soldMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - soldMs) / 86_400_000));
}
