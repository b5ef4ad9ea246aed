import type { ColumnType, Generated } from 'kysely';
import type { DocumentKind } from '../../app/features/sales/sale-rules.ts';

/**
 * The tables as Kysely sees them, identical on SQLite and PostgreSQL. To keep one code path
 * over both dialects, timestamps are ISO-8601 text (they sort correctly as text), flags are
 * 0/1 integers and maps are JSON text; `server/db/rows.ts` turns them into app types.
 */

export interface CategoryTable {
  id: Generated<number>;
  name: string;
  slug: string;
  /** The optional image, stored like a vehicle image (see VehicleImageTable). */
  image_key: string | null;
  image_width: number | null;
  image_height: number | null;
  image_widths: string | null;
  created_at: string;
  updated_at: string;
}

export interface VehicleTable {
  id: Generated<number>;
  category_id: number;
  name: string;
  make: string;
  model: string;
  variant: string;
  year: string;
  fuel_type: string;
  transmission: string;
  /** The body type's key (listing-filters BODY_TYPES), or ''. */
  body_type: Generated<string>;
  /** The colour's key (listing-filters COLOURS), or ''. */
  colour: Generated<string>;
  /** As the dealer typed it: digits, a formatted amount, text, or empty. */
  price: string;
  /** The digits of `price` as a number, when it has any; for sorting, JSON-LD and statistics. */
  price_rupees: number | null;
  owners: string;
  registration: string;
  insurance_validity: string;
  odometer: number | null;
  fitness_fc: string;
  tyre_point: string;
  description: string;
  featured: number;
  inspection: string | null;
  refurbishment: string | null;
  financial: string | null;
  video_url: string;
  /** 'draft': made from an accepted inspection offer, not public until published (decision 084). */
  status: 'available' | 'reserved' | 'sold' | 'draft';
  sold_price: number | null;
  sold_at: string | null;
  /** Stock for sale, or a car of the self-drive rental fleet (never in the buy listing). */
  purpose: Generated<VehiclePurpose>;
  /** Lower-cased make, model, name, variant, year, fuel, transmission, body type, category, registration place and description: what search matches. */
  search_text: string;
  /**
   * Read from what the dealer typed, for the buyer's filters (server/catalog/filters.ts
   * filterColumns; decision 023): the make and model as slugs, the model year, the fuel and
   * transmission as their keys (or ''), the number of owners, the registration's state code.
   * Text columns default to '' (rows written without them simply match no filter value).
   */
  make_slug: Generated<string>;
  model_slug: Generated<string>;
  model_year: number | null;
  fuel_key: Generated<string>;
  transmission_key: Generated<string>;
  owner_count: number | null;
  registration_state: Generated<string>;
  /** What the dealer paid for the car, when bought from a seller (migration 044, decision 118). */
  purchase_price_paise: number | null;
  /** India date 'YYYY-MM-DD' the dealer took possession (Form 29C); the stock's age counts from it. */
  purchased_at: string | null;
  created_at: string;
  updated_at: string;
}

export type VehiclePurpose = 'sale' | 'rental';

/**
 * PostgreSQL only (migration 016): one narrow row per car for sale, copied from vehicles by a
 * trigger, carrying the search's trigram index and the listing's orders, so a search reads
 * these instead of whole vehicle rows. SQLite's counterpart is its FTS index, vehicles_fts.
 */
export interface VehicleSearchTable {
  id: number;
  search_text: string;
  featured: number;
  created_at: string;
  price_rupees: number | null;
  model_year: number | null;
  odometer: number | null;
}

/** The columns of a stored photo, as vehicle and sell-submission photos keep them. */
interface StoredImageColumns {
  id: Generated<number>;
  position: number;
  /** Storage key without the width suffix: variants live at `${key}-${width}.webp`. */
  key: string;
  width: number;
  height: number;
  /** Comma-separated widths of the stored WebP variants, smallest first. */
  variant_widths: string;
  created_at: string;
}

export interface VehicleImageTable extends StoredImageColumns {
  vehicle_id: number;
}

export interface ProfileTable {
  user_id: string;
  email: string;
  name: string;
  photo_url: string;
  phone: string;
  phone_verified: number;
  created_at: string;
  last_login_at: string | null;
  updated_at: string;
  /** 'en', 'hi', or '' before the person chose one (English). */
  language: Generated<string>;
}

export interface WishlistEntryTable {
  user_id: string;
  vehicle_id: number;
  title: string;
  created_at: string;
}

export interface PhoneOtpTable {
  id: Generated<number>;
  user_id: string;
  phone: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** How the code went: 'sms' or 'whatsapp' (decision 126). */
  channel: Generated<OtpChannel>;
}

export type OtpChannel = 'sms' | 'whatsapp';

export interface RateLimitHitTable {
  key: string;
  window_start: number;
  count: number;
}

export interface BotCheckSpentTable {
  signature: string;
  expires_at: number;
}

export interface OutboxMessageTable {
  id: Generated<number>;
  channel: 'email' | 'sms' | 'whatsapp' | 'push';
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
}

/** A device with notifications on (migration 048, server/notify/push.ts): where its push service takes the person's notifications. */
export interface PushSubscriptionTable {
  id: Generated<number>;
  user_id: string;
  /** The push service's URL for this device; unique. */
  endpoint: string;
  /** The device's P-256 public key and auth secret, base64url (RFC 8291). */
  p256dh: string;
  auth: string;
  language: 'en' | 'hi';
  /** A short label of the browser and system ("Chrome on Android"), never the whole header. */
  user_agent: string;
  created_at: string;
  last_sent_at: string | null;
  /** Sends that failed in a row (reset by one that goes through). */
  failures: Generated<number>;
}

/** One row (id 1): the installation's VAPID key pair when VAPID_* is not set (migration 048, server/notify/push-keys.ts). */
export interface PushKeyTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: string;
}

/** Every WhatsApp opt-in and opt-out (migration 047, server/notify/whatsapp-consent.ts); a number's consent is its latest row. */
export interface WhatsAppConsentTable {
  id: Generated<number>;
  phone: string;
  user_id: string | null;
  choice: 'in' | 'out';
  source: 'profile' | 'form' | 'reply';
  wording: string;
  language: string;
  created_at: string;
}

export type WhatsAppStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';

/** Each WhatsApp template message and its delivery status (migration 047, server/notify/whatsapp.ts). */
export interface WhatsAppMessageTable {
  id: Generated<number>;
  recipient: string;
  user_id: string | null;
  purpose: 'customer' | 'team' | 'code';
  template: string;
  language: string;
  variables: string;
  preview: string;
  status: WhatsAppStatus;
  wamid: string | null;
  error_code: number | null;
  error_text: string | null;
  sms_fallback: string | null;
  fell_back_at: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
}

export interface AdminTable {
  email: string;
  created_by: string | null;
  created_at: string;
}

export interface SettingTable {
  key: string;
  value: string;
  updated_by: string | null;
  updated_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_email: string;
  action: string;
  entity: string;
  entity_id: string;
  summary: string;
  before: string | null;
  after: string | null;
  created_at: string;
}

/** Each admin's dashboard visits: "new since your last visit" counts from `previous_seen_at`. */
export interface AdminDashboardVisitTable {
  admin_email: string;
  /** When the current visit began (a visit is a run of dashboard loads less than 30 minutes apart). */
  seen_at: string;
  previous_seen_at: string | null;
}

export type LeadStatus = 'new' | 'contacted' | 'closed';

/** The columns every lead table has: who sent it, what they wrote, and how the dealer is working it. */
export interface LeadColumns {
  id: Generated<number>;
  name: string;
  phone: string;
  description: string;
  status: LeadStatus;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface VehicleRequestTable extends LeadColumns {
  model: string;
  year: string;
  budget: string;
}

export interface SellSubmissionTable extends LeadColumns {
  vehicle: string;
  year: string;
  price: string;
  /** JSON: the seller's car as the estimate step read it (SellCar, app/features/sell/estimate-schemas.ts), or null (migration 025). */
  car: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON: the estimate shown for it (SellEstimate, server/leads/sell-estimate.ts), or null. */
  estimate: ColumnType<string | null, string | null | undefined, string | null>;
  /** The inspection this lead was made by booking (migration 030), or null for the sell form's leads. */
  inspection_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SellSubmissionImageTable extends StoredImageColumns {
  submission_id: number;
}

/**
 * What a booked visit keeps, at the hub or at home, alike for test drives and inspections: who
 * booked it and how to reach them, where, the slot and its seat, and its status.
 */
interface VisitBookingColumns {
  id: Generated<number>;
  user_id: string;
  mode: 'hub' | 'home';
  pin_code: string;
  /** Migration 033 (decision 097): a home visit's house or flat, street and area, and an optional landmark; '' at the hub. */
  street: Generated<string>;
  landmark: Generated<string>;
  name: string;
  phone: string;
  email: string;
  /** The instant the slot begins, epoch milliseconds (migration 037, decision 107), as every rental time. */
  slot_start_ms: number;
  /** The slot's seat this booking holds: unique per slot, below the capacity (decision 025). */
  seat: number;
  status: 'booked' | 'confirmed' | 'done' | 'no_show' | 'cancelled';
  reminded_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An inspection of a seller's car (server/inspections/inspections.ts, migration 025). */
export interface InspectionTable extends VisitBookingColumns {
  car: string;
  estimate: string;
  /** Migration 027 (decision 084): JSON Record<item, status>, as a vehicle's condition report. */
  condition: string | null;
  notes: string | null;
  odometer: number | null;
  /** JSON ImageRef[]. */
  photos: string | null;
  recorded_at: string | null;
  offer_rupees: number | null;
  /** India date 'YYYY-MM-DD'. */
  offer_valid_until: string | null;
  offer_status: 'open' | 'accepted' | 'declined' | null;
  offer_made_at: string | null;
  offer_answered_at: string | null;
  draft_vehicle_id: number | null;
}

/** A test-drive booking (server/test-drives/, migration 007). */
export interface TestDriveTable extends VisitBookingColumns {
  vehicle_id: number | null;
  vehicle_title: string;
}

/** better-auth's user table (it owns the table; we only read these columns). */
export interface AuthUserTable {
  id: string;
  email: string;
  name: string;
  emailVerified: number | boolean;
  createdAt: string | Date;
}

/** better-auth's session table (only what account deletion and the retention purge touch). */
export interface AuthSessionTable {
  id: string;
  userId: string;
  /** The session token: the cookie's value, and the app's bearer token (signed). Never shown as an id. */
  token: string;
  expiresAt: string | Date;
  createdAt: string | Date;
  /** Moved on when the session is renewed: in use, at most once a day (decision 074). */
  updatedAt: string | Date;
  userAgent: string | null;
  /** 'app' for a token the Android app signed in for, 'site' (or null, before decision 074) for the browser's cookie. */
  kind: string | null;
}

/** better-auth's account table: one row per sign-in method (providerId 'credential' holds the password). */
export interface AuthAccountTable {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  /** better-auth's password hash, on the 'credential' row only. */
  password: string | null;
}

/** better-auth's verification table: short-lived tokens (password reset, OAuth state). */
export interface AuthVerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: string | Date;
}

/** better-auth's own limiter (server/auth/auth.ts `rateLimit`, storage 'database'): hits per key in its window. */
export interface AuthRateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number | bigint;
}

/** A rental fleet car's terms, set by the admin (whole rupees). */
export interface RentalTermsTable {
  vehicle_id: number;
  hourly_rate: number;
  daily_rate: number;
  weekly_rate: number | null;
  /** null: unlimited km. */
  km_per_day: number | null;
  extra_km_rate: number;
  deposit: number;
  fuel_policy: string;
  min_age: number;
  min_hours: number;
  seats: number;
  /** 0/1: only a commercially registered car may be rented out self-drive. */
  commercial_registration: number;
  /** 0/1: can be delivered within the serviceable PIN codes (fee from the settings). */
  delivery_available: number;
  created_at: string;
  updated_at: string;
}

/**
 * A renter's booking or the desk's block of a car. Times are epoch milliseconds; the car is
 * held over [starts_ms, held_until_ms) while the status is one of the holding ones (requested,
 * confirmed, active, blocked); PostgreSQL's exclusion constraint refuses overlapping holds.
 */
export interface RentalBookingTable {
  id: Generated<number>;
  kind: 'booking' | 'block';
  vehicle_id: number;
  user_id: string | null;
  /** A BookingStatus (app/features/rentals/rentals.ts), or 'blocked' for a block. */
  status: string;
  starts_ms: number;
  ends_ms: number;
  held_until_ms: number;
  pickup: Generated<string>;
  pin_code: Generated<string>;
  /** Where a delivered car goes (migration 018); '' for hub pickup. */
  delivery_address: Generated<string>;
  /** 1 when the renter chose the damage-protection plan (migration 018). */
  protection: Generated<number>;
  /** JSON: the RentalQuote as booked, its lines with it (app/features/rentals/rental-price.ts). */
  quote: Generated<string>;
  /** JSON: the RentalTerms as booked. */
  terms: Generated<string>;
  payment_method: Generated<string>;
  /** What the booking counted as paid, and what of it went back, in paise (migration 036; whole rupees before). */
  amount_paid_paise: Generated<number>;
  amount_refunded_paise: Generated<number>;
  payment_order_id: string | null;
  payment_id: string | null;
  hold_expires_ms: number | null;
  odometer_out: number | null;
  fuel_out: number | null;
  odometer_in: number | null;
  fuel_in: number | null;
  returned_ms: number | null;
  /** JSON: the ReturnCharges computed at return. */
  charges: string | null;
  /** The deposit to give back, as set at the return or the settlement, in paise. */
  deposit_refund_paise: number | null;
  /** When the car actually went out (migration 034); null before the handover and on older bookings. */
  handed_over_ms: number | null;
  /** What the desk collected at the handover, in paise, and how (a MoneyMethod, app/lib/money.ts) with its UPI/card reference. */
  handover_paise: number | null;
  handover_method: string | null;
  handover_reference: string | null;
  /** What moved at the settlement: 'returned' (the deposit back), 'collected' (charges beyond it) or 'none', in paise, how, and its reference. */
  settle_direction: string | null;
  settle_paise: number | null;
  settle_method: string | null;
  settle_reference: string | null;
  note: Generated<string>;
  /** A payment this booking did not accept (short, another currency or order, a second one), for the desk. */
  payment_problem: string | null;
  reminder_sent_at: string | null;
  /** The tax invoice's number from the rental series, taken at the settlement (migration 045); null before, or when withheld. */
  invoice_number: string | null;
  /** JSON: the RentalInvoice as issued (server/rentals/rental-documents.ts). */
  invoice: string | null;
  /** Why a settled booking has no invoice ('dealer-gstin-missing'), for the desk. */
  invoice_withheld: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Who a ledger row belongs to: a kind of thing paid for (docs/decisions/106). A new payable thing is a new kind. */
export type PaymentOwnerKind = 'rental-booking' | 'reservation';

/** What a ledger row records: an order for what is owed, a verified payment settled once, money going back. */
export type PaymentEntry = 'charge' | 'payment' | 'refund';

/**
 * Money taken and given back, one row per charge, payment or refund, each with its owner
 * (migration 036, server/payments/ledger.ts). Amounts in the currency's subunits (paise for INR).
 */
export interface PaymentLedgerTable {
  id: Generated<number>;
  owner_kind: PaymentOwnerKind;
  owner_id: number;
  entry: PaymentEntry;
  order_id: string | null;
  payment_id: string | null;
  amount_paise: number;
  currency: Generated<string>;
  /** charge: 'open'; payment: 'accepted' | 'late' | 'taken' | 'not accepted'; refund: 'owed' | 'refunded'. */
  status: string;
  reason: string | null;
  /** A refund of money the owner counted as paid (1) or of a payment it never accepted (0). */
  of_paid: Generated<number>;
  attempts: Generated<number>;
  last_error: string | null;
  next_try_ms: number | null;
  claimed_until_ms: number | null;
  provider_refund_id: string | null;
  /** A refund copied from the tables before 036: the first part of the idempotency key it was asked with. */
  refund_key: string | null;
  created_at: string;
  updated_at: string;
  refunded_at: string | null;
}

export type CarReservationStatus = 'pending' | 'active' | 'lapsed' | 'cancelled' | 'expired' | 'converted';

/** A buyer's reservation of a car for sale with a refundable token (migration 024, decision 080). */
export interface CarReservationTable {
  id: Generated<number>;
  user_id: string;
  vehicle_id: number | null;
  vehicle_title: string;
  name: Generated<string>;
  phone: string;
  email: string;
  amount_paise: number;
  hold_hours: number;
  status: CarReservationStatus;
  payment_order_id: string | null;
  payment_id: string | null;
  payment_problem: string | null;
  /** A pending reservation's order must be paid by then, else it lapses and frees the car. */
  pay_by_ms: number;
  /** An active reservation holds the car until then. */
  held_until_ms: number | null;
  amount_refunded_paise: Generated<number>;
  sale_price: number | null;
  paid_at: string | null;
  /** The receipt voucher's number (`RV/2026-27/00001`), taken when the token is accepted (migration 046). */
  receipt_number: Generated<string | null>;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
}

export type LicenceStatus = 'pending' | 'approved' | 'refused';

/** A renter's driving licence; the photos are private storage keys, never public media. */
export interface DrivingLicenceTable {
  user_id: string;
  number: string;
  /** YYYY-MM-DD */
  date_of_birth: string;
  front_key: string;
  back_key: string;
  status: LicenceStatus;
  refusal_reason: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** Work after a response (server/jobs/queue.ts); times in epoch milliseconds. */
export interface JobTable {
  id: Generated<number>;
  name: string;
  /** JSON text. */
  payload: string;
  status: JobStatus;
  attempts: Generated<number>;
  max_attempts: number;
  run_at_ms: number;
  locked_until_ms: number | null;
  last_error: string | null;
  created_at_ms: number;
  finished_at_ms: number | null;
  /** The X-Request-Id of the request that queued it (decision 111), or null. */
  request_id: string | null;
}

/** One row per recurring job: the next period's run is due at next_run_ms (server/jobs/scheduler.ts). */
export interface ScheduleTable {
  name: string;
  period_ms: number;
  next_run_ms: number;
}

/** The photo checklist of a handover or a return (migration 019, server/rentals/checklists.ts). */
export interface RentalChecklistTable {
  id: Generated<number>;
  booking_id: number;
  stage: 'handover' | 'return';
  odometer: number;
  /** Eighths of a tank. */
  fuel: number;
  /** JSON: ChecklistPhoto[]. */
  photos: string;
  recorded_by: string;
  created_at: string;
}

/** One row (id 1): grows with every write to `vehicles` (migration 026), for the in-memory listing index. */
export interface CatalogueVersionTable {
  id: number;
  version: number | string;
}

/** One row (id 1): this installation's random id (migration 032, server/db/installation.ts), made on first use. */
export interface InstallationTable {
  id: number;
  installation_id: string;
  created_at: string;
}

/** The admin's additions to the shipped catalogue of car models (migration 035, decision 098). */
export interface CarModelAdditionTable {
  id: Generated<number>;
  make: string;
  make_hi: string;
  model: string;
  model_hi: string;
  variant: string;
  body_type: string;
  make_key: string;
  model_key: string;
  variant_key: string;
  added_by: string;
  created_at: string;
}

/** Each backup taken (migration 038, decision 112). */
export interface BackupRunTable {
  id: Generated<number>;
  /** The backup's file name in its place (server/backups/places.ts). */
  name: string;
  started_ms: number;
  finished_ms: number | null;
  status: 'running' | 'good' | 'failed';
  bytes: number | null;
  /** Where it was written: a folder or s3://bucket/prefix. */
  place: string;
  error: string | null;
  desk_told: Generated<number>;
}

/** One counter per invoice series (migration 040): the last number issued in it. */
export interface InvoiceSeriesTable {
  series: string;
  last: number;
}

export type SaleStatus = 'recorded' | 'cancelled';
export type SaleSource = 'reservation' | 'desk';

/** A car sold (migration 040, server/sales), with its tax invoice's particulars frozen in it; money in paise. */
export interface SaleTable {
  id: Generated<number>;
  vehicle_id: number | null;
  source: SaleSource;
  reservation_id: number | null;
  user_id: string | null;
  vehicle_title: string;
  make: string;
  model: string;
  variant: string;
  year: string;
  registration: string;
  chassis_number: string;
  engine_number: string;
  buyer_name: string;
  buyer_address: string;
  buyer_phone: string;
  buyer_email: string;
  buyer_pan: string;
  buyer_state_code: string;
  language: 'en' | 'hi';
  price_paise: number;
  token_paise: number;
  paid_paise: number;
  paid_method: string;
  loan_paise: number;
  lender: string;
  purchase_price_paise: number | null;
  invoice_number: string;
  invoice_date: string;
  scheme: 'margin' | 'normal';
  taxable_paise: number;
  tax_paise: number;
  /** JSON: TaxLine[] (app/features/sales/tax.ts). */
  tax_lines: string;
  /** JSON: the dealer's particulars at the sale. */
  dealer: string;
  status: SaleStatus;
  credit_note_number: string | null;
  credit_note_date: string | null;
  cancel_reason: string | null;
  cancelled_by: string | null;
  cancelled_at: string | null;
  recorded_by: string;
  created_at: string;
  updated_at: string;
}

/** What a document issued is (app/features/sales/sale-rules.ts DOCUMENT_KINDS). */
export type { DocumentKind };

/** What a document is about (decision 119: rental bookings too). */
export type DocumentOwnerKind = 'sale' | 'rental-booking' | 'reservation';

/** The delivery of a sold car (migration 042, server/sales/deliveries.ts): one per sale. */
export interface SaleDeliveryTable {
  id: Generated<number>;
  sale_id: number;
  odometer: number;
  /** Eighths of a tank. */
  fuel: number;
  keys_count: number;
  /** JSON: DeliveryDocument[]. */
  documents_handed: string;
  other_documents: string;
  /** JSON: StoredPhoto[] (server/rentals/checklists.ts). */
  photos: string;
  signature_key: string | null;
  typed_signature: string | null;
  signer_name: string;
  signed_at_ms: number;
  delivered_by: string;
  created_at: string;
}

/** A PDF issued (migration 040, server/documents): kept in the private storage. */
export interface DocumentTable {
  id: Generated<number>;
  kind: DocumentKind;
  number: string;
  owner_kind: DocumentOwnerKind;
  owner_id: number;
  user_id: string | null;
  storage_key: string;
  language: 'en' | 'hi';
  sha256: string;
  bytes: number;
  created_at: string;
}

/** Where a sold car's registration transfer stands: the last step done (decision 117). */
export type RcTransferStep = 'sold' | 'forms-signed' | 'submitted' | 'fee-paid' | 'rc-issued' | 'delivered' | 'closed';

/** The RC transfer of a sale (migration 043, server/sales/rc-transfers.ts); times in epoch ms, money in paise. */
export interface RcTransferTable {
  id: Generated<number>;
  sale_id: number;
  step: RcTransferStep;
  sold_ms: number;
  forms_signed_ms: number | null;
  forms_signed_by: string | null;
  submitted_ms: number | null;
  submitted_by: string | null;
  application_number: string | null;
  fee_paid_ms: number | null;
  fee_paid_by: string | null;
  fee_paise: number | null;
  fee_receipt: string | null;
  rc_issued_ms: number | null;
  rc_issued_by: string | null;
  new_registration: string | null;
  delivered_ms: number | null;
  delivered_by: string | null;
  form35_needed: Generated<number>;
  form28_needed: Generated<number>;
  closed_ms: number | null;
  overdue_told: Generated<number>;
  updated_ms: number;
}

export type PurchasePaymentMethod = 'transfer' | 'upi' | 'cheque' | 'cash';

/** A car bought from a seller (migration 044, server/purchases, decision 118); money in paise. */
export interface PurchaseTable {
  id: Generated<number>;
  inspection_id: number | null;
  vehicle_id: number | null;
  user_id: string | null;
  vehicle_title: string;
  registration: string;
  price_paise: number;
  payment_method: PurchasePaymentMethod;
  payment_reference: string;
  /** JSON: PurchaseDocument[] (app/features/purchases/schemas.ts). */
  documents: string;
  documents_other: string;
  /** India date 'YYYY-MM-DD': the Form 29C date of possession. */
  possession_date: string;
  seller_name: string;
  seller_phone: string;
  seller_address: string;
  recorded_by: string;
  created_at: string;
  updated_at: string;
}

export interface DB {
  categories: CategoryTable;
  vehicles: VehicleTable;
  vehicle_search: VehicleSearchTable;
  vehicle_images: VehicleImageTable;
  profiles: ProfileTable;
  wishlist_entries: WishlistEntryTable;
  phone_otps: PhoneOtpTable;
  rate_limit_hits: RateLimitHitTable;
  bot_check_spent: BotCheckSpentTable;
  outbox_messages: OutboxMessageTable;
  whatsapp_consents: WhatsAppConsentTable;
  whatsapp_messages: WhatsAppMessageTable;
  push_subscriptions: PushSubscriptionTable;
  push_keys: PushKeyTable;
  admins: AdminTable;
  settings: SettingTable;
  audit_log: AuditLogTable;
  user: AuthUserTable;
  session: AuthSessionTable;
  account: AuthAccountTable;
  verification: AuthVerificationTable;
  rateLimit: AuthRateLimitTable;
  vehicle_requests: VehicleRequestTable;
  sell_submissions: SellSubmissionTable;
  sell_submission_images: SellSubmissionImageTable;
  test_drives: TestDriveTable;
  inspections: InspectionTable;
  rental_terms: RentalTermsTable;
  rental_bookings: RentalBookingTable;
  rental_checklists: RentalChecklistTable;
  driving_licences: DrivingLicenceTable;
  admin_dashboard_visits: AdminDashboardVisitTable;
  jobs: JobTable;
  schedules: ScheduleTable;
  catalogue_version: CatalogueVersionTable;
  car_reservations: CarReservationTable;
  payment_ledger: PaymentLedgerTable;
  installation: InstallationTable;
  car_model_additions: CarModelAdditionTable;
  backup_runs: BackupRunTable;
  invoice_series: InvoiceSeriesTable;
  sales: SaleTable;
  documents: DocumentTable;
  sale_deliveries: SaleDeliveryTable;
  rc_transfers: RcTransferTable;
  purchases: PurchaseTable;
}
