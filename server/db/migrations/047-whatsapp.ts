import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * WhatsApp through the WhatsApp Business Platform (docs/decisions/123).
 *
 * - `whatsapp_consents`: every opt-in and opt-out, never updated or deleted while the number is
 *   in use (DPDP Act: the person's consent can be shown, with its time and wording). A number's
 *   consent is its latest row.
 * - `whatsapp_messages`: each template message, its variables, the Graph API's message id
 *   (`wamid`, unique: a status for one message updates one row) and its delivery status
 *   (queued → sent → delivered → read, or failed). `sms_fallback` is the SMS that goes instead
 *   when the message fails; `fell_back_at` is set once, by the update that claims the fallback,
 *   so a replayed webhook or a second worker never sends it twice.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('whatsapp_consents')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text')
    // 'in' | 'out'
    .addColumn('choice', 'text', (col) => col.notNull())
    // Where it was given: 'profile' | 'form' | 'reply' (a STOP to our message)
    .addColumn('source', 'text', (col) => col.notNull())
    // The sentence the person agreed to, as shown, in their language; the reply's text for a STOP.
    .addColumn('wording', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addCheckConstraint('whatsapp_consents_choice_check', sql`choice IN ('in', 'out')`)
    .execute();
  await db.schema.createIndex('whatsapp_consents_phone_idx').on('whatsapp_consents').columns(['phone', 'id']).execute();
  await db.schema.createIndex('whatsapp_consents_user_idx').on('whatsapp_consents').column('user_id').execute();

  await db.schema
    .createTable('whatsapp_messages')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    // E.164
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text')
    // 'customer' | 'team' | 'code'
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('template', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    // JSON list of the template's variables in order.
    .addColumn('variables', 'text', (col) => col.notNull())
    // What the desk reads beside the status: the message as the person sees it.
    .addColumn('preview', 'text', (col) => col.notNull())
    // 'queued' | 'sent' | 'delivered' | 'read' | 'failed'
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('wamid', 'text')
    .addColumn('error_code', 'integer')
    .addColumn('error_text', 'text')
    .addColumn('sms_fallback', 'text')
    .addColumn('fell_back_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('read_at', 'text')
    .addColumn('failed_at', 'text')
    .addCheckConstraint('whatsapp_messages_status_check', sql`status IN ('queued', 'sent', 'delivered', 'read', 'failed')`)
    .addCheckConstraint('whatsapp_messages_purpose_check', sql`purpose IN ('customer', 'team', 'code')`)
    .execute();
  await db.schema.createIndex('whatsapp_messages_wamid_uq').on('whatsapp_messages').column('wamid').unique().execute();
  await db.schema.createIndex('whatsapp_messages_recipient_idx').on('whatsapp_messages').columns(['recipient', 'id']).execute();
  await db.schema.createIndex('whatsapp_messages_user_idx').on('whatsapp_messages').column('user_id').execute();
}
