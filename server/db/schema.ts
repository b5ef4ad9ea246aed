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
  /** Lower-cased make, model, name, variant, year, category and description: what search matches. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

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

/** Each admin's dashboard visits: "new since your last visit" counts from `previous_seen_at`. */
export interface AdminDashboardVisitTable {
  admin_email: string;
  /** When the current visit began (a visit is a run of dashboard loads less than 30 minutes apart). */
  seen_at: string;
  previous_seen_at: string | null;
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
  admin_dashboard_visits: AdminDashboardVisitTable;
}
