import type { Generated } from 'kysely';

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
  status: 'available' | 'reserved' | 'sold';
  sold_price: number | null;
  sold_at: string | null;
  /** Stock for sale, or a car of the self-drive rental fleet (never in the buy listing). */
  purpose: Generated<VehiclePurpose>;
  /** Lower-cased make, model, name, variant, year, category and description: what search matches. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

export type VehiclePurpose = 'sale' | 'rental';

export interface VehicleImageTable {
  id: Generated<number>;
  vehicle_id: number;
  position: number;
  /** Storage key without the width suffix: variants live at `${key}-${width}.webp`. */
  key: string;
  width: number;
  height: number;
  /** Comma-separated widths of the stored WebP variants, smallest first. */
  variant_widths: string;
  created_at: string;
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
}

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
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
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

export type LeadStatus = 'new' | 'contacted' | 'closed';

export interface VehicleRequestTable {
  id: Generated<number>;
  name: string;
  phone: string;
  model: string;
  year: string;
  budget: string;
  description: string;
  status: LeadStatus;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface SellSubmissionTable {
  id: Generated<number>;
  name: string;
  phone: string;
  vehicle: string;
  year: string;
  price: string;
  description: string;
  status: LeadStatus;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface SellSubmissionImageTable {
  id: Generated<number>;
  submission_id: number;
  position: number;
  key: string;
  width: number;
  height: number;
  variant_widths: string;
  created_at: string;
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
  expiresAt: string | Date;
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
  /** A BookingStatus (app/lib/rentals.ts), or 'blocked' for a block. */
  status: string;
  starts_ms: number;
  ends_ms: number;
  held_until_ms: number;
  pickup: Generated<string>;
  pin_code: Generated<string>;
  /** JSON: the RentalQuote as booked. */
  quote: Generated<string>;
  /** JSON: the RentalTerms as booked. */
  terms: Generated<string>;
  payment_method: Generated<string>;
  amount_paid: Generated<number>;
  amount_refunded: Generated<number>;
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
  deposit_refund: number | null;
  note: Generated<string>;
  reminder_sent_at: string | null;
  created_by: string | null;
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

export interface DB {
  categories: CategoryTable;
  vehicles: VehicleTable;
  vehicle_images: VehicleImageTable;
  profiles: ProfileTable;
  wishlist_entries: WishlistEntryTable;
  phone_otps: PhoneOtpTable;
  rate_limit_hits: RateLimitHitTable;
  bot_check_spent: BotCheckSpentTable;
  outbox_messages: OutboxMessageTable;
  admins: AdminTable;
  settings: SettingTable;
  audit_log: AuditLogTable;
  user: AuthUserTable;
  session: AuthSessionTable;
  account: AuthAccountTable;
  verification: AuthVerificationTable;
  vehicle_requests: VehicleRequestTable;
  sell_submissions: SellSubmissionTable;
  sell_submission_images: SellSubmissionImageTable;
  rental_terms: RentalTermsTable;
  rental_bookings: RentalBookingTable;
  driving_licences: DrivingLicenceTable;
}
