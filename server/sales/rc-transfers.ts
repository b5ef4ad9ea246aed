import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { sql } from 'kysely';
import { formatPaise } from '../../app/lib/money.ts';
import { indiaDay } from '../../app/lib/india-time.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import { daysSince, RC_STEPS, type RcState, type RcStep, type RcStepInput, type RcTransferView } from '../../app/features/sales/rc-transfer-rules.ts';
import { salesText } from '../../app/features/sales/sales-texts.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { recordAudit } from '../audit/audit.ts';
import { settingsFor } from '../admin/settings.ts';
import type { Database } from '../db/connection.ts';
import type { DB, RcTransferTable } from '../db/schema.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import { bulkMove, transition } from '../transitions.ts';
import { nextRcStep, RC_TRANSFER_TRANSITIONS } from './rc-transfer-transitions.ts';
import type { AppServices } from '../services.ts';

/**
 * The registration (RC) transfer of a sold car (docs/decisions/117): made with its sale, moved
 * forward by the desk one step at a time through RC_TRANSFER_TRANSITIONS, each step dated, told
 * to the buyer by mail and SMS in the sale's language, queued in the step's transaction. Two
 * desks recording one step at once: the UPDATE is conditional on the step read, so one moves it
 * and the other is refused as out of order. Until delivered, the car is on the dealer's
 * liability list; past `rcTransferOverdueDays` the desk is told, once.
 */

export type RcTransferServices = Pick<AppServices, 'database' | 'clock' | 'config' | 'settingsCache' | 'logger' | 'mailer'> &
  Partial<Pick<AppServices, 'jobs'>>;

export type RcTransfer = RcTransferView;

/** Each step's columns: when, and by whom. */
const STEP_COLUMNS = {
  'forms-signed': { at: 'forms_signed_ms', by: 'forms_signed_by' },
  submitted: { at: 'submitted_ms', by: 'submitted_by' },
  'fee-paid': { at: 'fee_paid_ms', by: 'fee_paid_by' },
  'rc-issued': { at: 'rc_issued_ms', by: 'rc_issued_by' },
  delivered: { at: 'delivered_ms', by: 'delivered_by' },
} as const satisfies Record<RcStep, { at: keyof RcTransferTable; by: keyof RcTransferTable }>;

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function toRcTransfer(row: Selectable<RcTransferTable>): RcTransfer {
  return {
    saleId: Number(row.sale_id),
    state: row.step,
    soldMs: Number(row.sold_ms),
    steps: RC_STEPS.map((step) => ({ step, doneMs: nullableNumber(row[STEP_COLUMNS[step].at]), by: row[STEP_COLUMNS[step].by] })),
    next: nextRcStep(row.step),
    applicationNumber: row.application_number,
    feePaise: nullableNumber(row.fee_paise),
    feeReceipt: row.fee_receipt,
    newRegistration: row.new_registration,
    form35Needed: Number(row.form35_needed) === 1,
    form28Needed: Number(row.form28_needed) === 1,
    closedMs: nullableNumber(row.closed_ms),
  };
}

/** The sale's transfer, opened in the sale's own transaction. */
export async function openRcTransfer(trx: Transaction<DB>, input: { saleId: number; soldMs: number }): Promise<void> {
  await trx.insertInto('rc_transfers').values({ sale_id: input.saleId, step: 'sold', sold_ms: input.soldMs, updated_ms: input.soldMs }).execute();
}

/** A cancelled sale's open transfer is closed (in the cancel's transaction): nothing is left to transfer. */
export async function closeRcTransfer(trx: Transaction<DB>, input: { saleId: number; nowMs: number }): Promise<void> {
  const { from, to } = bulkMove(RC_TRANSFER_TRANSITIONS, 'close', 'system');
  await trx
    .updateTable('rc_transfers')
    .set({ step: to, closed_ms: input.nowMs, updated_ms: input.nowMs })
    .where('sale_id', '=', input.saleId)
    .where('step', 'in', from)
    .execute();
}

export async function findRcTransfer(db: Kysely<DB>, saleId: number): Promise<RcTransfer | null> {
  const row = await db.selectFrom('rc_transfers').selectAll().where('sale_id', '=', saleId).executeTakeFirst();
  return row ? toRcTransfer(row) : null;
}

/** A step's name as the reader's language says it. */
export function rcStepLabel(step: RcStep, language?: Language): string {
  return salesText(`rcStep_${step}`, undefined, language);
}

/** What the step's form brought, as the columns keep it. */
function stepValues(input: RcStepInput): Updateable<RcTransferTable> {
  switch (input.step) {
    case 'forms-signed':
      return { form35_needed: input.form35Needed ? 1 : 0, form28_needed: input.form28Needed ? 1 : 0 };
    case 'submitted':
      return { application_number: input.applicationNumber };
    case 'fee-paid':
      return { fee_paise: input.fee, fee_receipt: input.feeReceipt };
    case 'rc-issued':
      return { new_registration: input.newRegistration === '' ? null : input.newRegistration };
    case 'delivered':
      return {};
  }
}

/** The refusal of a step that is not the next one, naming the one that is. */
function outOfOrder(state: RcState, asked: RcStep): ConflictError {
  if (state === 'closed') return new ConflictError(salesText('rcClosed')).because('closed');
  const next = nextRcStep(state);
  const message = next === null ? salesText('rcAlreadyDelivered') : salesText('rcOutOfOrder', { asked: rcStepLabel(asked), next: rcStepLabel(next) });
  return new ConflictError(message).because('out-of-order');
}

/**
 * Records the transfer's next step for a sale. Errors: NotFoundError (no such sale), ConflictError
 * (`out-of-order`: the step is not the next one, or another desk recorded it first; `closed`: the
 * sale was cancelled).
 */
export async function recordRcStep(services: RcTransferServices, input: { saleId: number; step: RcStepInput; actorEmail: string }): Promise<RcTransfer> {
  const db = services.database.db;
  const sale = await db
    .selectFrom('sales')
    .select(['id', 'user_id', 'vehicle_title', 'invoice_number', 'buyer_email', 'buyer_phone', 'language'])
    .where('id', '=', input.saleId)
    .executeTakeFirst();
  const before = sale ? await findRcTransfer(db, input.saleId) : null;
  if (!sale || !before) throw new NotFoundError(salesText('saleNotFound'));
  const asked = input.step.step;
  const to = transition(RC_TRANSFER_TRANSITIONS, before.state, asked, 'desk');
  if (to === null) throw outOfOrder(before.state, asked);
  const nowMs = services.clock.now();
  const columns = STEP_COLUMNS[asked];
  await db.transaction().execute(async (trx) => {
    // Conditional on the step read: of two desks at once, one moves it and the other finds it moved.
    const moved = await trx
      .updateTable('rc_transfers')
      .set({ ...stepValues(input.step), step: to, [columns.at]: nowMs, [columns.by]: input.actorEmail, updated_ms: nowMs } as Updateable<RcTransferTable>)
      .where('sale_id', '=', input.saleId)
      .where('step', '=', before.state)
      .returning('id')
      .executeTakeFirst();
    if (!moved) {
      const now = await findRcTransfer(trx, input.saleId);
      throw outOfOrder(now?.state ?? before.state, asked);
    }
    const after = (await findRcTransfer(trx, input.saleId))!;
    await tellBuyer(trx, services, { sale, transfer: after, step: asked, nowMs });
  });
  services.jobs?.wake();
  const after = (await findRcTransfer(db, input.saleId))!;
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'rc-step',
    entity: 'sale',
    entityId: input.saleId,
    summary: `Registration transfer of ${sale.vehicle_title} (invoice ${sale.invoice_number}): ${rcStepLabel(asked, 'en')}${stepSummary(after, asked)}`,
    before: { rcStep: before.state },
    after: { rcStep: after.state, ...auditDetail(after, asked) },
  });
  return after;
}

function auditDetail(transfer: RcTransfer, step: RcStep): Record<string, unknown> {
  switch (step) {
    case 'forms-signed':
      return { form35Needed: transfer.form35Needed, form28Needed: transfer.form28Needed };
    case 'submitted':
      return { applicationNumber: transfer.applicationNumber };
    case 'fee-paid':
      return { feePaise: transfer.feePaise, feeReceipt: transfer.feeReceipt };
    case 'rc-issued':
      return { newRegistration: transfer.newRegistration };
    case 'delivered':
      return {};
  }
}

function stepSummary(transfer: RcTransfer, step: RcStep): string {
  if (step === 'submitted') return `, application ${transfer.applicationNumber}`;
  if (step === 'fee-paid') return `, ${formatPaise(transfer.feePaise ?? 0)} (receipt ${transfer.feeReceipt})`;
  if (step === 'rc-issued' && transfer.newRegistration) return `, new registration ${transfer.newRegistration}`;
  return '';
}

/** What a step adds to the buyer's message: the application number, the fee, the new registration. */
export function rcStepDetail(transfer: RcTransfer, step: RcStep, language?: Language): string {
  const say = (key: Parameters<typeof salesText>[0], values?: Record<string, string | number>) => salesText(key, values, language);
  if (step === 'submitted' && transfer.applicationNumber) return say('rcDetailApplication', { number: transfer.applicationNumber });
  if (step === 'fee-paid' && transfer.feePaise !== null)
    return say('rcDetailFee', { amount: formatPaise(transfer.feePaise), receipt: transfer.feeReceipt ?? '' });
  if (step === 'rc-issued' && transfer.newRegistration) return say('rcDetailRegistration', { registration: transfer.newRegistration });
  return '';
}

/** The buyer's mail (when the sale has an email) and phone message (WhatsApp or SMS, and push) about a step, in the sale's language. */
async function tellBuyer(
  trx: Kysely<DB>,
  services: RcTransferServices,
  input: {
    sale: { user_id: string | null; vehicle_title: string; invoice_number: string; buyer_email: string; buyer_phone: string; language: Language };
    transfer: RcTransfer;
    step: RcStep;
    nowMs: number;
  },
): Promise<void> {
  const { sale, transfer, step } = input;
  const language = sale.language;
  const say = (key: Parameters<typeof salesText>[0], values?: Record<string, string | number>) => salesText(key, values, language);
  const car = sale.vehicle_title.replace(/\s+/g, ' ').slice(0, 60);
  const label = rcStepLabel(step, language);
  const link = `${new URL(paths.profile, services.config.siteOrigin).href}#rc-transfers`;
  const detail = rcStepDetail(transfer, step, language);
  if (sale.buyer_email !== '')
    await queueMail(trx, services, {
      to: sale.buyer_email,
      subject: say('rcMailSubject', { car, step: label }),
      text: [
        say('rcMailLine1', { car, invoice: sale.invoice_number, step: label, date: indiaDay(input.nowMs) }),
        detail,
        step === 'delivered' ? say('rcMailDone') : say('rcMailNext', { next: rcStepLabel(transfer.next!, language) }),
        say('rcMailLink', { link }),
      ]
        .filter((line) => line !== '')
        .join('\n\n'),
    });
  const sms = say('rcSms', { site: services.config.siteName, car: car.slice(0, 30), step: label, detail }).trim();
  await queuePhoneMessage(trx, services, {
    userId: sale.user_id,
    phone: sale.buyer_phone || null,
    language,
    sms,
    whatsapp: whatsappTemplate('rc_transfer_step', { car, step: label, detail, link }),
    push: pushOfSms(services.config.siteName, sms, `${paths.profile}#rc-transfers`, language),
  });
}

/** A car on the dealer's liability list: sold, its transfer not yet delivered. */
export type OpenRcTransfer = {
  saleId: number;
  invoiceNumber: string;
  car: string;
  registration: string;
  buyer: string;
  state: RcState;
  next: RcStep | null;
  soldMs: number;
  days: number;
  overdue: boolean;
};

/** The open transfers of recorded sales, oldest first: so the overdue ones, the oldest, come first. */
export async function openRcTransfers(services: RcTransferServices): Promise<OpenRcTransfer[]> {
  const { rcTransferOverdueDays } = await settingsFor(services);
  const nowMs = services.clock.now();
  const rows = await openQuery(services.database.db)
    .select(['sales.id', 'sales.invoice_number', 'sales.vehicle_title', 'sales.registration', 'sales.buyer_name', 'rc_transfers.step', 'rc_transfers.sold_ms'])
    .orderBy('rc_transfers.sold_ms')
    .orderBy('sales.id')
    .execute();
  return rows.map((row) => {
    const soldMs = Number(row.sold_ms);
    const days = daysSince(soldMs, nowMs);
    return {
      saleId: Number(row.id),
      invoiceNumber: row.invoice_number,
      car: row.vehicle_title,
      registration: row.registration,
      buyer: row.buyer_name,
      state: row.step,
      next: nextRcStep(row.step),
      soldMs,
      days,
      overdue: days >= rcTransferOverdueDays,
    };
  });
}

function openQuery(db: Kysely<DB>) {
  return db
    .selectFrom('rc_transfers')
    .innerJoin('sales', 'sales.id', 'rc_transfers.sale_id')
    .where('sales.status', '=', 'recorded')
    .where('rc_transfers.step', 'not in', ['delivered', 'closed']);
}

/** The instant before which a sale's open transfer is overdue. */
function overdueBefore(nowMs: number, days: number): number {
  return nowMs - days * 86_400_000;
}

/** How many open transfers are overdue, for the admin panel. */
export async function countOverdueRcTransfers(services: RcTransferServices): Promise<number> {
  const { rcTransferOverdueDays } = await settingsFor(services);
  const row = await openQuery(services.database.db)
    .where('rc_transfers.sold_ms', '<=', overdueBefore(services.clock.now(), rcTransferOverdueDays))
    .select(sql<number>`count(*)`.as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The recurring job that tells the desk of each transfer that became overdue. */
export const RC_TRANSFER_OVERDUE_JOB = 'rc-transfer-overdue';
export const RC_TRANSFER_OVERDUE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Mails the desk (the admin email setting) once per overdue transfer: `overdue_told` is set by a
 * conditional UPDATE in the mail's own transaction, so two runs at once, or a run again, never
 * mail twice. With no admin email nothing is marked, and the desk is told once one is set.
 */
export async function tellDeskOfOverdueRcTransfers(services: RcTransferServices): Promise<number> {
  const settings = await settingsFor(services);
  if (!settings.adminEmail) return 0;
  const nowMs = services.clock.now();
  const due = await openQuery(services.database.db)
    .where('rc_transfers.sold_ms', '<=', overdueBefore(nowMs, settings.rcTransferOverdueDays))
    .where('rc_transfers.overdue_told', '=', 0)
    .select([
      'rc_transfers.id',
      'sales.id as saleId',
      'sales.invoice_number',
      'sales.vehicle_title',
      'sales.buyer_name',
      'rc_transfers.step',
      'rc_transfers.sold_ms',
    ])
    .execute();
  let told = 0;
  for (const transfer of due) {
    const sent = await services.database.db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('rc_transfers')
        .set({ overdue_told: 1 })
        .where('id', '=', transfer.id)
        .where('overdue_told', '=', 0)
        .returning('id')
        .executeTakeFirst();
      if (!marked) return false;
      const next = nextRcStep(transfer.step);
      await queueMail(trx, services, {
        to: settings.adminEmail,
        subject: `Registration transfer overdue: ${transfer.vehicle_title} (invoice ${transfer.invoice_number})`,
        text: [
          `The registration transfer of ${transfer.vehicle_title}, sold to ${transfer.buyer_name} on ${indiaDay(Number(transfer.sold_ms))} (invoice ${transfer.invoice_number}), is still open after ${daysSince(Number(transfer.sold_ms), nowMs)} days.`,
          next ? `Its next step: ${rcStepLabel(next, 'en')}.` : '',
          `Until the RC is delivered the car stays on the dealer's liability list: ${new URL(adminPaths.sale(Number(transfer.saleId)), services.config.siteOrigin).href}`,
          'You are told once per transfer.',
        ]
          .filter((line) => line !== '')
          .join('\n\n'),
      });
      return true;
    });
    if (sent) told += 1;
  }
  if (told > 0) services.jobs?.wake();
  return told;
}

/** A purchase of the person's, with its transfer, for the profile and the API. */
export type MyPurchase = { saleId: number; car: string; registration: string; invoiceNumber: string; invoiceDate: string; transfer: RcTransfer };

/** The person's recorded purchases, newest first, with their transfers; nobody else's. */
export async function purchasesOfBuyer(database: Database, userId: string): Promise<MyPurchase[]> {
  const rows = await database.db
    .selectFrom('sales')
    .innerJoin('rc_transfers', 'rc_transfers.sale_id', 'sales.id')
    .selectAll('rc_transfers')
    .select(['sales.vehicle_title', 'sales.registration', 'sales.invoice_number', 'sales.invoice_date'])
    .where('sales.user_id', '=', userId)
    .where('sales.status', '=', 'recorded')
    .orderBy('sales.id', 'desc')
    .execute();
  return rows.map((row) => ({
    saleId: Number(row.sale_id),
    car: row.vehicle_title,
    registration: row.registration,
    invoiceNumber: row.invoice_number,
    invoiceDate: row.invoice_date,
    transfer: toRcTransfer(row),
  }));
}

/** A purchase as its buyer sees it: without the admins who recorded the steps. */
export function forTheBuyer(purchase: MyPurchase): MyPurchase {
  return { ...purchase, transfer: { ...purchase.transfer, steps: purchase.transfer.steps.map((step) => ({ ...step, by: null })) } };
}
