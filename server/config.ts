import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { PublicConfig } from '../app/lib/public-config.ts';
import { PASSWORD_LENGTH } from '../app/lib/input.ts';

/**
 * The environment, read and validated once at start. A bad value stops the server with one
 * line per variable naming what is wrong, instead of failing later in some request.
 */

const modes = ['production', 'demo', 'test'] as const;
export type AppMode = (typeof modes)[number];

const phone = z.string().regex(/^\+?[0-9]{10,15}$/, 'must be a phone number of 10 to 15 digits, optionally starting with +');

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email('must be a comma-separated list of email addresses')));

const schema = z.object({
  APP_MODE: z.enum(modes).default('production'),
  PORT: z.coerce.number({ message: 'must be a port number (0-65535)' }).int('must be a whole number').min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  // S3-compatible object storage for photos instead of DATA_DIR (decision 068): endpoint, bucket and both keys, or none.
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: "must be the storage server's http(s) URL, such as https://s3.ap-south-1.amazonaws.com" }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots or hyphens')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  // true for servers that only answer http://host/bucket/key (MinIO, s3rver, many S3-compatible services).
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  // Backups (decision 112): where they go (a folder, or s3://bucket/prefix with the S3_* keys), the
  // key they are encrypted with, when the daily one is taken (India time, or off) and how many are kept.
  BACKUP_TO: z
    .string()
    .min(1)
    .regex(/^(?!s3:\/\/)|^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'must be a folder, or s3://bucket/prefix')
    .optional(),
  BACKUP_KEY: z.string().min(16, 'must be at least 16 characters of random text (keep a copy away from the backups)').optional(),
  BACKUP_AT: z
    .string()
    .regex(/^(off|([01][0-9]|2[0-3]):[0-5][0-9])$/, 'must be a time of day in India, HH:MM (such as 02:30), or off')
    .optional(),
  BACKUP_KEEP: z
    .string()
    .regex(/^\d{1,3},\d{1,3},\d{1,3}$/, 'must be three numbers: daily, weekly, monthly backups to keep (such as 7,4,12)')
    .default('7,4,12'),
  // Public photos are linked at this URL (a CDN in front of the bucket, or the bucket itself) + /media/<key>; unset: served by the app.
  MEDIA_PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL such as https://media.example.in' }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL (leave it unset for SQLite)')
    .optional(),
  SITE_ORIGIN: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL such as https://www.example.in' }).optional(),
  SITE_NAME: z.string().min(1).default('Gaadi Bazaar'),
  SELLER_PHONE: phone.default('+919876543210'),
  WHATSAPP_NUMBER: z
    .string()
    .regex(/^[0-9]{10,15}$/, 'must be the number in international format, digits only (e.g. 919876543210)')
    .default('919876543210'),
  // Where "Download App" goes: the dealer's Play Store listing or APK. Unset: it installs the web app (decision 121).
  ANDROID_APP_URL: z.url({ protocol: /^https$/, message: 'must be an https:// address of the Play Store listing or the APK' }).optional(),
  // The Android app built from the web manifest (docs/android-app.md), for /.well-known/assetlinks.json.
  ANDROID_PACKAGE: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/, 'must be an Android package name such as in.gaadibazaar.twa')
    .optional(),
  ANDROID_CERT_SHA256: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, 'must be SHA-256 certificate fingerprints, 32 hex pairs joined by colons, separated by commas'),
        )
        .min(1, 'must name at least one SHA-256 certificate fingerprint'),
    )
    .optional(),
  CONTACT_EMAIL: z.email().default('sales@gaadibazaar.in'),
  CONTACT_ADDRESS: z.string().min(1).default('Plot 14, Andheri-Kurla Road, Andheri East, Mumbai 400069'),
  ADMIN_EMAILS: emailList.default(['admin@gaadibazaar.in', 'manager@gaadibazaar.in']),
  // Sessions and signed tokens. Required in production; elsewhere the installation makes one (startup.ts).
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters of random text').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Gaadi Bazaar <no-reply@gaadibazaar.in>'),
  SMS_PROVIDER: z.enum(['outbox', 'msg91', 'twilio']).optional(),
  MSG91_AUTH_KEY: z.string().min(1).optional(),
  MSG91_TEMPLATE_ID: z.string().min(1).optional(),
  MSG91_API_URL: z.url().default('https://control.msg91.com'),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z.string().min(1).optional(),
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  // WhatsApp Business Platform, Cloud API (decision 123): all four, or none (no message goes to WhatsApp).
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^[0-9]{5,20}$/, 'must be the phone number ID from WhatsApp Manager (digits)')
    .optional(),
  WHATSAPP_ACCESS_TOKEN: z.string().min(20, 'must be the system user access token from Meta Business Suite').optional(),
  WHATSAPP_APP_SECRET: z.string().min(8, "must be the Meta app's secret (App settings → Basic)").optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(8, 'must be the verify token typed into the webhook settings (8 characters or more)').optional(),
  WHATSAPP_GRAPH_URL: z.url().default('https://graph.facebook.com'),
  // The Graph API version every request names, pinned so that Meta's new versions change nothing until chosen.
  WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v[0-9]{1,3}\.[0-9]$/, 'must be a Graph API version such as v23.0')
    .default('v23.0'),
  // Web Push (decision 124): the VAPID key pair (`npx web-push generate-vapid-keys`) and who the push services may write to about it; all three, or none (a pair is then made once and kept in the database).
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be the public key that `npx web-push generate-vapid-keys` prints (87 base64url characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the private key that `npx web-push generate-vapid-keys` prints (43 base64url characters)')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: address or an https: URL where the push services can reach the dealer')
    .optional(),
  // Online payment of rental bookings (both keys, or neither: pay at pickup only).
  RAZORPAY_KEY_ID: z
    .string()
    .regex(/^rzp_(test|live)_[A-Za-z0-9]+$/, 'must be a Razorpay key id such as rzp_live_…')
    .optional(),
  RAZORPAY_KEY_SECRET: z.string().min(8, 'must be the key secret from the Razorpay dashboard').optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(8, 'must be the webhook secret set in the Razorpay dashboard').optional(),
  RAZORPAY_API_URL: z.url().default('https://api.razorpay.com'),
  // Razorpay Checkout's script; the page's CSP allows its origin (and the API's, for Checkout's frame) only while the keys are set.
  RAZORPAY_CHECKOUT_URL: z.url().default('https://checkout.razorpay.com/v1/checkout.js'),
  // sandbox: payments go through a Razorpay sandbox this server serves itself (`npm run demo` sets it;
  // decision 095). Refused in production and beside Razorpay keys; unset: Razorpay with the keys, else pay at pickup.
  PAYMENTS: z.enum(['sandbox'], { message: "must be sandbox (the demo's payment sandbox), or unset" }).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  // Where Google's OpenID configuration lives; tests point it at a local OpenID server.
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  BOT_CHECK_PROVIDER: z.enum(['altcha', 'recaptcha', 'turnstile']).default('altcha'),
  BOT_CHECK_SITE_KEY: z.string().min(1).optional(),
  BOT_CHECK_SECRET_KEY: z.string().min(1).optional(),
  // Lets tests point reCAPTCHA/Turnstile verification at a local stand-in.
  BOT_CHECK_VERIFY_URL: z.url().optional(),
  // Set when a reverse proxy in front of the app sets X-Forwarded-For (rate limits key on the client address).
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  BODY_IDLE_TIMEOUT_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).int('must be a whole number').min(1).max(600).default(60),
  DEMO_ADMIN_PASSWORD: z
    .string()
    .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
    .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`)
    .optional(),
  DEMO_IMAGE_CACHE: z.string().min(1).optional(),
  // Seconds a public page is kept for signed-out visitors (0 turns the cache off; off in test mode).
  PAGE_CACHE_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).int().min(0).max(300).optional(),
  // Seconds each instance keeps a listing's count of matches (0 counts on every request; 0 in test mode).
  LISTING_TOTALS_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).int().min(0).max(300).optional(),
  // memory: the listing counts and pages from the in-memory index of the cars for sale (decision 082); off: from SQL alone.
  LISTING_INDEX: z.enum(['memory', 'off'], { message: 'must be memory or off' }).default('memory'),
  // Seconds the admin settings are kept per instance (0 reads them on every request; 0 in test mode).
  SETTINGS_CACHE_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).int().min(0).max(60).optional(),
  // How many images may be decoded and resized at once, server-wide (one core each).
  IMAGE_CONCURRENCY: z.coerce.number({ message: 'must be a whole number from 1 to 16' }).int().min(1).max(16).default(1),
  // fast-for-tests: cheap password hashing for the test suite only (refused in production).
  PASSWORD_HASHING: z.enum(['standard', 'fast-for-tests']).default('standard'),
  // light-for-tests: a bot-check proof of work of at most 500 hashes, for the test suite only (refused in production).
  BOT_CHECK_WORK: z.enum(['standard', 'light-for-tests']).default('standard'),
  // An instant (ISO 8601 with its offset) the server's clock starts at, then runs on from, so a test can choose the time of day (refused in production).
  TEST_CLOCK_START: z.iso.datetime({ offset: true, message: 'must be an instant such as 2026-12-01T11:30:00+05:30' }).optional(),
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  // off: this instance runs no jobs (mail, SMS, scheduled work); another process (`npm run worker`) does (decision 069).
  WORKER: z.enum(['on', 'off']).default('on'),
  // Milliseconds between looks at the job queue when nothing woke the worker (an enqueue in this process wakes it at once).
  JOB_POLL_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(10).max(60_000).default(1000),
  // The first retry's wait in milliseconds; each further retry waits twice as long, at most an hour.
  JOB_BACKOFF_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(10).max(3_600_000).default(30_000),
  // How long a running job is its worker's; after that (the worker died) another worker takes it again.
  JOB_LEASE_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100).max(3_600_000).default(120_000),
  // One period for every recurring job (for tests of the scheduler; each job has its own period otherwise).
  SCHEDULE_PERIOD_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100).optional(),
  // Milliseconds between SIGTERM (from then /readyz says 503) and closing the port: about the load balancer's health-check interval times its failure threshold.
  DRAIN_DELAY_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).max(120_000).default(0),
  // /metrics for Prometheus (decision 111, docs/operations.md): on a port of its own, bound to HOST (the site's port then answers 404 there)…
  METRICS_PORT: z.coerce
    .number({ message: 'must be a port number (1-65535) for /metrics alone' })
    .int('must be a whole number')
    .min(1, 'must be a port number (1-65535) for /metrics alone')
    .max(65535, 'must be a port number (1-65535) for /metrics alone')
    .optional(),
  // …and/or to a scraper sending `Authorization: Bearer <METRICS_TOKEN>`. Neither set: no /metrics.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces (it travels in an Authorization header)')
    .min(32, 'must be at least 32 characters of random text (for example `openssl rand -hex 32`)')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // json (one record a line, for log collectors) or pretty (readable lines); pretty by default in demo mode only.
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
});

/** Every environment variable the configuration reads (.env.example lists exactly these; a unit test checks). */
export const configVariables = Object.keys(schema.shape);

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {}

/** Settings that must come together, or that production needs. Reads the raw values, so these
 * are reported alongside any malformed ones. */
function requirementProblems(raw: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const mode = raw.APP_MODE ?? 'production';
  if (mode === 'production') {
    if (!raw.SITE_ORIGIN) problems.push('SITE_ORIGIN: is required in production (the canonical https origin)');
    if (!raw.AUTH_SECRET) problems.push('AUTH_SECRET: is required in production (at least 32 random characters)');
    if (!raw.SMTP_URL) problems.push('SMTP_URL: is required in production (verification mail goes through it)');
  }
  const smsProvider = raw.SMS_PROVIDER ?? (mode === 'production' ? undefined : 'outbox');
  if (!smsProvider) problems.push('SMS_PROVIDER: is required in production (msg91 or twilio)');
  if (smsProvider === 'outbox' && mode === 'production') problems.push('SMS_PROVIDER: outbox is for demo and test only');
  if (raw.PASSWORD_HASHING === 'fast-for-tests' && mode === 'production') problems.push('PASSWORD_HASHING: fast-for-tests is for the test suite only');
  if (raw.BOT_CHECK_WORK === 'light-for-tests' && mode === 'production') problems.push('BOT_CHECK_WORK: light-for-tests is for the test suite only');
  if (raw.TEST_CLOCK_START && mode === 'production') problems.push('TEST_CLOCK_START: is for the test suite only');
  if (smsProvider === 'msg91' && (!raw.MSG91_AUTH_KEY || !raw.MSG91_TEMPLATE_ID)) {
    problems.push('MSG91_AUTH_KEY, MSG91_TEMPLATE_ID: are required when SMS_PROVIDER is msg91');
  }
  if (smsProvider === 'twilio' && (!raw.TWILIO_ACCOUNT_SID || !raw.TWILIO_AUTH_TOKEN || !raw.TWILIO_FROM)) {
    problems.push('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM: are required when SMS_PROVIDER is twilio');
  }
  const whatsappKeys = ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'];
  const whatsappSet = whatsappKeys.filter((name) => raw[name]);
  if (whatsappSet.length > 0 && whatsappSet.length < whatsappKeys.length) {
    problems.push(`${whatsappKeys.join(', ')}: set all four to send WhatsApp messages, or none`);
  }
  const vapidKeys = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'];
  const vapidSet = vapidKeys.filter((name) => raw[name]);
  if (vapidSet.length > 0 && vapidSet.length < vapidKeys.length) {
    problems.push(`${vapidKeys.join(', ')}: set all three (npx web-push generate-vapid-keys), or none to have a key pair made and kept in the database`);
  }
  if (Boolean(raw.RAZORPAY_KEY_ID) !== Boolean(raw.RAZORPAY_KEY_SECRET)) {
    problems.push('RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET: set both to take online payments, or neither (pay at pickup only)');
  }
  if (raw.PAYMENTS === 'sandbox') {
    const keys = ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'].filter((name) => raw[name]);
    // One line, the first reason: a production site never takes pretend payments, whatever else is set.
    if (mode === 'production')
      problems.push(
        'PAYMENTS: sandbox is for the demo and tests only; a production site takes payments through Razorpay with RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
      );
    else if (keys.length > 0)
      problems.push(
        `PAYMENTS: sandbox cannot run beside Razorpay keys (${keys.join(', ')} set): unset PAYMENTS to pay through Razorpay, or the keys to try the sandbox`,
      );
    else if (raw.WORKER === 'off') problems.push('PAYMENTS: the sandbox lives in this server, whose worker retries its refunds: leave WORKER on');
  }
  if (Boolean(raw.GOOGLE_CLIENT_ID) !== Boolean(raw.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both to enable Google sign-in, or neither');
  }
  if (Boolean(raw.ANDROID_PACKAGE) !== Boolean(raw.ANDROID_CERT_SHA256)) {
    problems.push("ANDROID_PACKAGE, ANDROID_CERT_SHA256: the Android app's link check needs both (docs/android-app.md), or neither");
  }
  const s3 = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
  if (raw.BACKUP_TO?.startsWith('s3://') && s3.some((name) => !raw[name]))
    problems.push('BACKUP_TO: backups to a bucket use the S3_* settings; set all four of them');
  const s3Missing = s3.filter((name) => !raw[name]);
  if (s3Missing.length > 0 && s3Missing.length < s3.length) {
    problems.push(
      `${s3Missing.join(', ')}: ${s3Missing.length === 1 ? 'is' : 'are'} required for object storage when ${s3.filter((name) => raw[name]).join(', ')} ${s3.length - s3Missing.length === 1 ? 'is' : 'are'} set (set all four, or none to keep photos in DATA_DIR)`,
    );
  }
  if (raw.METRICS_PORT && raw.METRICS_PORT === (raw.PORT ?? '3000'))
    problems.push(
      `METRICS_PORT: must differ from PORT (${raw.PORT ?? '3000'}): /metrics gets a port of its own, or set METRICS_TOKEN instead to serve it on the site's port`,
    );
  const botCheck = raw.BOT_CHECK_PROVIDER ?? 'altcha';
  if (botCheck !== 'altcha' && (!raw.BOT_CHECK_SITE_KEY || !raw.BOT_CHECK_SECRET_KEY)) {
    problems.push(`BOT_CHECK_SITE_KEY, BOT_CHECK_SECRET_KEY: are required when BOT_CHECK_PROVIDER is ${botCheck}`);
  }
  return problems;
}

export function parseConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings in a .env file mean "not set", not "set to nothing".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  // One line per variable: the first thing wrong with it.
  const malformed = new Map<string, string>();
  for (const issue of result.success ? [] : result.error.issues) {
    const variable = String(issue.path[0] ?? '');
    if (!malformed.has(variable)) malformed.set(variable, `${variable}: ${issue.message}`);
  }
  const problems = [...malformed.values(), ...requirementProblems(cleaned).filter((line) => !malformed.has(line.split(':')[0]!))];
  if (!result.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  const values = result.data;
  const smsProvider = values.SMS_PROVIDER ?? (values.APP_MODE === 'production' ? undefined : 'outbox');

  const siteOrigin = (values.SITE_ORIGIN ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    mode: values.APP_MODE,
    port: values.PORT,
    host: values.HOST,
    dataDir: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL,
    backups: backupSettings(values),
    /** Object storage for the photos, or null: they live under DATA_DIR (decision 068). */
    s3:
      values.S3_ENDPOINT && values.S3_BUCKET && values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: values.S3_ENDPOINT,
            bucket: values.S3_BUCKET,
            region: values.S3_REGION,
            accessKeyId: values.S3_ACCESS_KEY_ID,
            secretAccessKey: values.S3_SECRET_ACCESS_KEY,
            forcePathStyle: values.S3_FORCE_PATH_STYLE === 'true',
          }
        : null,
    /** Where pages link public photos ('' = this site's own /media/); no trailing slash. */
    mediaBaseUrl: (values.MEDIA_PUBLIC_BASE_URL ?? '').replace(/\/+$/, ''),
    siteOrigin,
    /** Origins whose forms and calls count as this site's own (CSRF check, better-auth). */
    acceptedOrigins: acceptedOrigins(siteOrigin),
    siteName: values.SITE_NAME,
    sellerPhone: values.SELLER_PHONE,
    whatsappNumber: values.WHATSAPP_NUMBER,
    androidAppUrl: values.ANDROID_APP_URL ?? '',
    /** The Android app that may open this site's links full screen (a Trusted Web Activity), or null. */
    androidApp: values.ANDROID_PACKAGE && values.ANDROID_CERT_SHA256 ? { packageName: values.ANDROID_PACKAGE, certificates: values.ANDROID_CERT_SHA256 } : null,
    contactEmail: values.CONTACT_EMAIL,
    contactAddress: values.CONTACT_ADDRESS,
    adminEmails: values.ADMIN_EMAILS,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT ?? (values.APP_MODE === 'demo' ? ('pretty' as const) : ('json' as const)),
    demoAdminPassword: values.DEMO_ADMIN_PASSWORD,
    trustProxy: values.TRUST_PROXY === 'true',
    /** A request body that sends nothing for this long is answered 408 (server/http/body-limit.ts). */
    bodyIdleTimeoutMs: values.BODY_IDLE_TIMEOUT_SECONDS * 1000,
    /** Demo and test keep every mail and SMS in an outbox shown at /dev/outbox; production never does. */
    outboxEnabled: values.APP_MODE !== 'production',
    // Signs sessions, verification links, form tokens and bot-check challenges. Unset (the demo, a
    // first try), a random one for this process; the server and the worker replace it with the
    // one this installation keeps in DATA_DIR (startup.ts keptAuthSecret), so it survives restarts
    // and no two installations, and nobody who read this code, share it.
    authSecret: values.AUTH_SECRET ?? randomBytes(32).toString('base64url'),
    authSecretSource: values.AUTH_SECRET ? ('environment' as const) : ('data-dir' as const),
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM },
    /** The WhatsApp Cloud API's credentials, or null: nothing goes to WhatsApp (the outbox shows what would have, in demo and test). */
    whatsapp:
      values.WHATSAPP_PHONE_NUMBER_ID && values.WHATSAPP_ACCESS_TOKEN && values.WHATSAPP_APP_SECRET && values.WHATSAPP_VERIFY_TOKEN
        ? {
            phoneNumberId: values.WHATSAPP_PHONE_NUMBER_ID,
            accessToken: values.WHATSAPP_ACCESS_TOKEN,
            appSecret: values.WHATSAPP_APP_SECRET,
            verifyToken: values.WHATSAPP_VERIFY_TOKEN,
            graphUrl: values.WHATSAPP_GRAPH_URL.replace(/\/+$/, ''),
            graphVersion: values.WHATSAPP_GRAPH_VERSION,
          }
        : null,
    /**
     * Web Push (decision 124): the VAPID keys from the environment, or null (the installation's
     * pair in the database, server/notify/push-keys.ts); the subject always, the contact mail by default.
     */
    push: {
      vapid:
        values.VAPID_PUBLIC_KEY && values.VAPID_PRIVATE_KEY && values.VAPID_SUBJECT
          ? { publicKey: values.VAPID_PUBLIC_KEY, privateKey: values.VAPID_PRIVATE_KEY }
          : null,
      subject: values.VAPID_SUBJECT ?? `mailto:${values.CONTACT_EMAIL}`,
    },
    sms:
      smsProvider === 'msg91'
        ? { provider: 'msg91' as const, authKey: values.MSG91_AUTH_KEY!, templateId: values.MSG91_TEMPLATE_ID!, apiUrl: values.MSG91_API_URL }
        : smsProvider === 'twilio'
          ? {
              provider: 'twilio' as const,
              accountSid: values.TWILIO_ACCOUNT_SID!,
              authToken: values.TWILIO_AUTH_TOKEN!,
              from: values.TWILIO_FROM!,
              apiUrl: values.TWILIO_API_URL,
            }
          : { provider: 'outbox' as const },
    /**
     * Razorpay, or null: pay at pickup only. With the payment sandbox the server fills it in once
     * it listens, with the sandbox's keys, its own address and Checkout's script as a path on the site (server-entry.ts).
     */
    razorpay:
      values.RAZORPAY_KEY_ID && values.RAZORPAY_KEY_SECRET
        ? {
            keyId: values.RAZORPAY_KEY_ID,
            keySecret: values.RAZORPAY_KEY_SECRET,
            webhookSecret: values.RAZORPAY_WEBHOOK_SECRET,
            apiUrl: values.RAZORPAY_API_URL,
            checkoutUrl: values.RAZORPAY_CHECKOUT_URL,
          }
        : null,
    /** Payments go through the server's own Razorpay sandbox (PAYMENTS=sandbox; decision 095): never in production. */
    paymentSandbox: values.PAYMENTS === 'sandbox',
    google:
      values.GOOGLE_CLIENT_ID && values.GOOGLE_CLIENT_SECRET
        ? { clientId: values.GOOGLE_CLIENT_ID, clientSecret: values.GOOGLE_CLIENT_SECRET, issuer: values.GOOGLE_ISSUER.replace(/\/+$/, '') }
        : null,
    botCheck: {
      provider: values.BOT_CHECK_PROVIDER,
      siteKey: values.BOT_CHECK_SITE_KEY ?? '',
      secretKey: values.BOT_CHECK_SECRET_KEY ?? '',
      verifyUrl: values.BOT_CHECK_VERIFY_URL,
      /** The ALTCHA proof of work: `light-for-tests` lets the suite solve hundreds of forms. */
      work: values.BOT_CHECK_WORK,
    },
    /** Where drawn demo photos are kept between seeds (the test suite seeds many databases). */
    demoImageCache: values.DEMO_IMAGE_CACHE,
    pageCacheSeconds: values.PAGE_CACHE_SECONDS ?? (values.APP_MODE === 'test' ? 0 : 5),
    // Tests add cars and count them at once; a kept count would make them wait it out.
    listingTotalsSeconds: values.LISTING_TOTALS_SECONDS ?? (values.APP_MODE === 'test' ? 0 : 30),
    listingIndex: values.LISTING_INDEX,
    // Tests write settings and read them back at once; a cache would make them wait it out.
    settingsCacheSeconds: values.SETTINGS_CACHE_SECONDS ?? (values.APP_MODE === 'test' ? 0 : 2),
    imageConcurrency: values.IMAGE_CONCURRENCY,
    passwordHashing: values.PASSWORD_HASHING,
    /** Where the server's clock starts (epoch ms), or null for the system's time. */
    testClockStartMs: values.TEST_CLOCK_START ? Date.parse(values.TEST_CLOCK_START) : null,
    drainDelayMs: values.DRAIN_DELAY_MS,
    /** /metrics (decision 111): its own port (null: none) and the bearer token that opens it (null: none); neither, no /metrics. */
    metrics: { port: values.METRICS_PORT ?? null, token: values.METRICS_TOKEN ?? null },
    jobs: {
      worker: values.WORKER === 'on',
      pollMs: values.JOB_POLL_MS,
      backoffMs: values.JOB_BACKOFF_MS,
      leaseMs: values.JOB_LEASE_MS,
      schedulePeriodMs: values.SCHEDULE_PERIOD_MS ?? null,
    },
    /** Load the demo inventory into an empty database: on in demo mode unless turned off. */
    seedDemo: values.SEED_DEMO ? values.SEED_DEMO === 'true' : values.APP_MODE === 'demo',
  };
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins this site's own pages post from: SITE_ORIGIN, and when that is a loopback address
 * (a laptop, the demo) the other names of loopback on the same port, so a person who opens
 * http://127.0.0.1:3000 while the site calls itself http://localhost:3000 can still sign in.
 * Only this machine reaches a loopback address, and a page on another loopback name is another
 * site for the browser: SameSite=Lax keeps the session cookie off its posts all the same.
 */
export function acceptedOrigins(siteOrigin: string): string[] {
  const url = new URL(siteOrigin);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [url.origin];
  const port = url.port ? `:${url.port}` : '';
  return [url.origin, ...LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${port}`).filter((origin) => origin !== url.origin)];
}

/**
 * The values the browser may see. Secrets never go here: this object is serialised into
 * every page.
 */
export function publicConfig(config: Config): PublicConfig {
  return {
    siteName: config.siteName,
    siteOrigin: config.siteOrigin,
    sellerPhone: config.sellerPhone,
    whatsappNumber: config.whatsappNumber,
    androidAppUrl: config.androidAppUrl,
    contactEmail: config.contactEmail,
    contactAddress: config.contactAddress,
    mediaBaseUrl: config.mediaBaseUrl,
  };
}

/** Where backups go and how (decision 112); with nothing set, DATA_DIR/backups and a key kept beside it. */
function backupSettings(values: z.infer<typeof schema>) {
  const to = values.BACKUP_TO ?? path.join(values.DATA_DIR, 'backups');
  const bucket = /^s3:\/\/([^/]+)\/?(.*)$/.exec(to);
  const [daily, weekly, monthly] = values.BACKUP_KEEP.split(',').map(Number) as [number, number, number];
  // Tests take their backups when they ask; everywhere else the daily one is on unless turned off.
  const at = values.BACKUP_AT ?? (values.APP_MODE === 'test' ? 'off' : '02:30');
  const [hour, minute] = at === 'off' ? [] : at.split(':').map(Number);
  return {
    place: bucket
      ? { kind: 'bucket' as const, bucket: bucket[1]!, prefix: bucket[2] ? `${bucket[2].replace(/\/+$/, '')}/` : '' }
      : { kind: 'folder' as const, folder: to },
    /** Null: the installation makes one and keeps it in DATA_DIR/backup.key (fine for a first try, not for a real site). */
    key: values.BACKUP_KEY ?? null,
    /** The daily backup's time of day in India, or null when backups are taken only by hand. */
    dailyAt: hour === undefined ? null : { hour, minute: minute! },
    keep: { daily, weekly, monthly },
  };
}
