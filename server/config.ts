import { z } from 'zod';

/**
 * The environment, read and validated once at start. A bad value stops the server with one
 * line per variable naming what is wrong, instead of failing later in some request.
 */

const modes = ['production', 'demo', 'test'] as const;
export type AppMode = (typeof modes)[number];

const phone = z
  .string()
  .regex(/^\+?[0-9]{10,15}$/, 'must be a phone number of 10 to 15 digits, optionally starting with +');

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
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL (leave it unset for SQLite)')
    .optional(),
  SITE_ORIGIN: z.url('must be an absolute URL such as https://www.example.in').optional(),
  SITE_NAME: z.string().min(1).default('Gaadi Bazaar'),
  SELLER_PHONE: phone.default('+919876543210'),
  WHATSAPP_NUMBER: z
    .string()
    .regex(/^[0-9]{10,15}$/, 'must be the number in international format, digits only (e.g. 919876543210)')
    .default('919876543210'),
  ANDROID_APP_URL: z.url().default('https://play.google.com/store/apps/details?id=in.gaadibazaar.app'),
  CONTACT_EMAIL: z.email().default('sales@gaadibazaar.in'),
  CONTACT_ADDRESS: z.string().min(1).default('Plot 14, Andheri-Kurla Road, Andheri East, Mumbai 400069'),
  ADMIN_EMAILS: emailList.default(['admin@gaadibazaar.in', 'manager@gaadibazaar.in']),
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings in a .env file mean "not set", not "set to nothing".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = result.data;
  if (values.APP_MODE === 'production' && !values.SITE_ORIGIN) {
    throw new ConfigError('Invalid configuration:\n  SITE_ORIGIN: is required in production (the canonical https origin)');
  }
  const siteOrigin = (values.SITE_ORIGIN ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    mode: values.APP_MODE,
    port: values.PORT,
    host: values.HOST,
    dataDir: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL,
    siteOrigin,
    siteName: values.SITE_NAME,
    sellerPhone: values.SELLER_PHONE,
    whatsappNumber: values.WHATSAPP_NUMBER,
    androidAppUrl: values.ANDROID_APP_URL,
    contactEmail: values.CONTACT_EMAIL,
    contactAddress: values.CONTACT_ADDRESS,
    adminEmails: values.ADMIN_EMAILS,
    logLevel: values.LOG_LEVEL,
    /** Load the demo inventory into an empty database: on in demo mode unless turned off. */
    seedDemo: values.SEED_DEMO ? values.SEED_DEMO === 'true' : values.APP_MODE === 'demo',
  };
}

/**
 * The values the browser may see. Secrets never go here: this object is serialised into
 * every page.
 */
export function publicConfig(config: Config) {
  return {
    siteName: config.siteName,
    siteOrigin: config.siteOrigin,
    sellerPhone: config.sellerPhone,
    whatsappNumber: config.whatsappNumber,
    androidAppUrl: config.androidAppUrl,
    contactEmail: config.contactEmail,
    contactAddress: config.contactAddress,
  };
}
export type PublicConfig = ReturnType<typeof publicConfig>;
