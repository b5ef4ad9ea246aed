import { describe, expect, it } from 'vitest';
import { acceptedOrigins, ConfigError, parseConfig, publicConfig } from '../../server/config.ts';

/** The error lines of a configuration that does not parse (the first line is the heading). */
function problems(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const [heading, ...lines] = (error as Error).message.split('\n');
    expect(heading).toBe('Invalid configuration:');
    return lines.map((line) => line.trim());
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

/** The variable names a problem line is about ('A, B: text' names A and B). */
const variablesOf = (line: string) => line.slice(0, line.indexOf(':')).split(', ');

describe('parseConfig: defaults', () => {
  it('runs outside production with nothing set', () => {
    const config = parseConfig({ APP_MODE: 'test' });
    expect(config.mode).toBe('test');
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('./data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.siteOrigin).toBe('http://localhost:3000');
    expect(config.siteName).toBe('Gaadi Bazaar');
    expect(config.sellerPhone).toMatch(/^\+?\d{10,15}$/);
    expect(config.whatsappNumber).toMatch(/^\d{10,15}$/);
    expect(config.adminEmails).toHaveLength(2);
  });

  it('defaults the canonical origin to localhost on the configured port', () => {
    expect(parseConfig({ APP_MODE: 'demo', PORT: '8080' }).siteOrigin).toBe('http://localhost:8080');
  });

  it('treats empty values as not set', () => {
    const config = parseConfig({ APP_MODE: 'test', PORT: '', SITE_ORIGIN: '', DATABASE_URL: '', SITE_NAME: '' });
    expect(config.port).toBe(3000);
    expect(config.siteOrigin).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.siteName).toBe('Gaadi Bazaar');
  });

  it('seeds the demo inventory in demo mode unless told not to', () => {
    expect(parseConfig({ APP_MODE: 'demo' }).seedDemo).toBe(true);
    expect(parseConfig({ APP_MODE: 'demo', SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(parseConfig({ APP_MODE: 'test' }).seedDemo).toBe(false);
    expect(parseConfig({ APP_MODE: 'test', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });
});

describe('parseConfig: values', () => {
  it('drops trailing slashes from SITE_ORIGIN', () => {
    expect(parseConfig({ APP_MODE: 'test', SITE_ORIGIN: 'https://www.gaadibazaar.in/' }).siteOrigin).toBe('https://www.gaadibazaar.in');
    expect(parseConfig({ APP_MODE: 'test', SITE_ORIGIN: 'https://www.gaadibazaar.in///' }).siteOrigin).toBe('https://www.gaadibazaar.in');
  });

  it('reads the admin allow-list as trimmed, lower-cased addresses', () => {
    expect(parseConfig({ APP_MODE: 'test', ADMIN_EMAILS: ' Owner@GaadiBazaar.in , manager@gaadibazaar.in,' }).adminEmails).toEqual([
      'owner@gaadibazaar.in',
      'manager@gaadibazaar.in',
    ]);
  });

  it('accepts postgres:// and postgresql:// database URLs', () => {
    expect(parseConfig({ APP_MODE: 'test', DATABASE_URL: 'postgres://u@db/gaadi' }).databaseUrl).toBe('postgres://u@db/gaadi');
    expect(parseConfig({ APP_MODE: 'test', DATABASE_URL: 'postgresql://u@db/gaadi' }).databaseUrl).toBe('postgresql://u@db/gaadi');
  });

  it('gives the browser only public values', () => {
    const visible = publicConfig(parseConfig({ APP_MODE: 'test', DATABASE_URL: 'postgres://user:secret@db/gaadi' }));
    expect(Object.keys(visible).sort()).toEqual([
      'androidAppUrl',
      'contactAddress',
      'contactEmail',
      'mediaBaseUrl',
      'sellerPhone',
      'siteName',
      'siteOrigin',
      'whatsappNumber',
    ]);
    expect(JSON.stringify(visible)).not.toContain('secret');
  });
});

describe('parseConfig: one clear message per bad variable', () => {
  it('names each bad variable once, on its own line, with what is wrong', () => {
    const lines = problems({
      APP_MODE: 'test',
      PORT: 'abc',
      DATABASE_URL: 'mysql://root@localhost/gaadi',
      SITE_ORIGIN: 'not a url',
      SELLER_PHONE: '12345',
      WHATSAPP_NUMBER: '+91 98765 43210',
      LOG_LEVEL: 'loud',
    });
    expect(lines.map((line) => variablesOf(line)[0])).toEqual(['PORT', 'DATABASE_URL', 'SITE_ORIGIN', 'SELLER_PHONE', 'WHATSAPP_NUMBER', 'LOG_LEVEL']);
    expect(lines).toContain('DATABASE_URL: must be a postgres:// connection URL (leave it unset for SQLite)');
    expect(lines).toContain('SITE_ORIGIN: must be an absolute http(s) URL such as https://www.example.in');
    expect(lines).toContain('SELLER_PHONE: must be a phone number of 10 to 15 digits, optionally starting with +');
    for (const line of lines) expect(line.slice(line.indexOf(':') + 1).trim().length).toBeGreaterThan(5);
  });

  it.each([
    ['APP_MODE', 'staging'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['SEED_DEMO', 'yes'],
    ['CONTACT_EMAIL', 'sales-at-gaadibazaar'],
    ['ANDROID_APP_URL', 'play store'],
    ['ANDROID_APP_URL', 'http://play.google.com/store/apps/details?id=in.gaadibazaar.twa'],
  ])('refuses %s=%j with one line about it', (name, value) => {
    const lines = problems({ APP_MODE: 'test', [name]: value });
    expect(lines).toHaveLength(1);
    expect(variablesOf(lines[0]!)).toEqual([name]);
  });

  it('reads the Android app for the link check: a package and its certificates, both or neither (decision 121)', () => {
    const fingerprint = Array.from({ length: 32 }, (_, index) => index.toString(16).padStart(2, '0')).join(':');
    const config = parseConfig({
      APP_MODE: 'test',
      ANDROID_PACKAGE: 'in.gaadibazaar.twa',
      ANDROID_CERT_SHA256: ` ${fingerprint}, ${fingerprint.toUpperCase()} `,
    });
    expect(config.androidApp).toEqual({ packageName: 'in.gaadibazaar.twa', certificates: [fingerprint.toUpperCase(), fingerprint.toUpperCase()] });
    expect(parseConfig({ APP_MODE: 'test' }).androidApp).toBeNull();
    expect(parseConfig({ APP_MODE: 'test' }).androidAppUrl).toBe('');
    expect(problems({ APP_MODE: 'test', ANDROID_PACKAGE: 'in.gaadibazaar.twa' }).map((line) => variablesOf(line)[0])).toEqual(['ANDROID_PACKAGE']);
    expect(problems({ APP_MODE: 'test', ANDROID_PACKAGE: 'gaadibazaar', ANDROID_CERT_SHA256: fingerprint }).map((line) => variablesOf(line)[0])).toEqual([
      'ANDROID_PACKAGE',
    ]);
    expect(problems({ APP_MODE: 'test', ANDROID_PACKAGE: 'in.gaadibazaar.twa', ANDROID_CERT_SHA256: 'AB:CD' }).map((line) => variablesOf(line)[0])).toEqual([
      'ANDROID_CERT_SHA256',
    ]);
  });

  it('reports a bad admin allow-list once, by the variable name, however many addresses are wrong', () => {
    const lines = problems({ APP_MODE: 'test', ADMIN_EMAILS: 'owner, manager-at-gaadibazaar.in, admin@gaadibazaar.in' });
    expect(lines).toEqual(['ADMIN_EMAILS: must be a comma-separated list of email addresses']);
  });

  it.each(['localhost:3000', 'www.gaadibazaar.in:443', 'javascript:alert(1)', 'mailto:sales@gaadibazaar.in'])(
    'refuses SITE_ORIGIN=%j, which is not an http(s) origin that page links can be built on',
    (origin) => {
      const lines = problems({ APP_MODE: 'test', SITE_ORIGIN: origin });
      expect(lines.map((line) => variablesOf(line)[0])).toEqual(['SITE_ORIGIN']);
    },
  );
});

describe('parseConfig: production', () => {
  it('requires SITE_ORIGIN', () => {
    const lines = problems({ APP_MODE: 'production' });
    expect(lines).toContain('SITE_ORIGIN: is required in production (the canonical https origin)');
  });

  it('is production when APP_MODE is not set, so SITE_ORIGIN is required then too', () => {
    expect(problems({}).some((line) => variablesOf(line).includes('SITE_ORIGIN'))).toBe(true);
  });

  it('does not complain about SITE_ORIGIN once it is set', () => {
    let lines: string[] = [];
    try {
      parseConfig({ APP_MODE: 'production', SITE_ORIGIN: 'https://www.gaadibazaar.in' });
    } catch (error) {
      lines = (error as Error).message.split('\n').slice(1);
    }
    expect(lines.some((line) => line.includes('SITE_ORIGIN'))).toBe(false);
  });

  it('reports a missing SITE_ORIGIN together with the other bad values, not one at a time', () => {
    const lines = problems({ APP_MODE: 'production', PORT: 'abc' });
    const named = lines.flatMap(variablesOf);
    expect(named).toContain('PORT');
    expect(named).toContain('SITE_ORIGIN');
  });
});

describe('parseConfig: object storage (decision 068)', () => {
  const s3 = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'gaadi-media', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret-key' };

  it('keeps photos under DATA_DIR unless the bucket is configured', () => {
    const config = parseConfig({ APP_MODE: 'test' });
    expect(config.s3).toBeNull();
    expect(config.mediaBaseUrl).toBe('');
  });

  it('reads the bucket, region and path style, and never shows the keys to the browser', () => {
    const config = parseConfig({ APP_MODE: 'test', ...s3, S3_FORCE_PATH_STYLE: 'true', MEDIA_PUBLIC_BASE_URL: 'https://media.example.in/' });
    expect(config.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'gaadi-media',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret-key',
      forcePathStyle: true,
    });
    expect(config.mediaBaseUrl).toBe('https://media.example.in');
    const visible = JSON.stringify(publicConfig(config));
    expect(visible).toContain('https://media.example.in');
    expect(visible).not.toContain('secret-key');
  });

  it('names what is missing when only part of the bucket is configured', () => {
    expect(problems({ APP_MODE: 'test', S3_BUCKET: 'gaadi-media' })).toEqual([
      'S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: are required for object storage when S3_BUCKET is set (set all four, or none to keep photos in DATA_DIR)',
    ]);
    expect(problems({ APP_MODE: 'test', ...s3, S3_SECRET_ACCESS_KEY: '' })).toEqual([
      'S3_SECRET_ACCESS_KEY: is required for object storage when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID are set (set all four, or none to keep photos in DATA_DIR)',
    ]);
  });

  it('refuses a malformed endpoint, bucket name, path-style switch or public base URL', () => {
    const lines = problems({
      APP_MODE: 'test',
      ...s3,
      S3_ENDPOINT: 'minio:9000',
      S3_BUCKET: 'Gaadi_Media',
      S3_FORCE_PATH_STYLE: 'yes',
      MEDIA_PUBLIC_BASE_URL: 'media.example.in',
    });
    expect(lines.flatMap(variablesOf).sort()).toEqual(['MEDIA_PUBLIC_BASE_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE']);
  });
});

describe('parseConfig: the payment sandbox (decision 095)', () => {
  /** A production configuration that starts: every requirement met. */
  const production = {
    APP_MODE: 'production',
    SITE_ORIGIN: 'https://www.gaadibazaar.in',
    AUTH_SECRET: 'a'.repeat(40),
    SMTP_URL: 'smtps://mail.example.in',
    SMS_PROVIDER: 'msg91',
    MSG91_AUTH_KEY: 'key',
    MSG91_TEMPLATE_ID: 'template',
  };
  const keys = { RAZORPAY_KEY_ID: 'rzp_live_Abc123', RAZORPAY_KEY_SECRET: 'live-secret-123' };

  it('is off unless asked for; the demo and the tests may ask', () => {
    expect(parseConfig(production).paymentSandbox).toBe(false);
    expect(parseConfig({ APP_MODE: 'demo' }).paymentSandbox).toBe(false);
    const demo = parseConfig({ APP_MODE: 'demo', PAYMENTS: 'sandbox' });
    expect(demo.paymentSandbox).toBe(true);
    // The server fills Razorpay in with the sandbox's own keys once it listens, never from here.
    expect(demo.razorpay).toBeNull();
    expect(parseConfig({ APP_MODE: 'test', PAYMENTS: 'sandbox' }).paymentSandbox).toBe(true);
    expect(parseConfig({ APP_MODE: 'demo', PAYMENTS: '' }).paymentSandbox).toBe(false);
  });

  it('refuses it in production with one clear line, whatever else is set', () => {
    expect(problems({ ...production, PAYMENTS: 'sandbox' })).toEqual([
      'PAYMENTS: sandbox is for the demo and tests only; a production site takes payments through Razorpay with RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
    ]);
    expect(problems({ ...production, ...keys, PAYMENTS: 'sandbox' })).toEqual([
      'PAYMENTS: sandbox is for the demo and tests only; a production site takes payments through Razorpay with RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
    ]);
  });

  it('refuses it beside Razorpay keys with one clear line naming them', () => {
    expect(problems({ APP_MODE: 'demo', ...keys, PAYMENTS: 'sandbox' })).toEqual([
      'PAYMENTS: sandbox cannot run beside Razorpay keys (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET set): unset PAYMENTS to pay through Razorpay, or the keys to try the sandbox',
    ]);
    expect(problems({ APP_MODE: 'test', RAZORPAY_WEBHOOK_SECRET: 'webhook-secret', PAYMENTS: 'sandbox' })).toEqual([
      'PAYMENTS: sandbox cannot run beside Razorpay keys (RAZORPAY_WEBHOOK_SECRET set): unset PAYMENTS to pay through Razorpay, or the keys to try the sandbox',
    ]);
  });

  it("refuses it without the server's own worker, and any other value", () => {
    expect(problems({ APP_MODE: 'demo', WORKER: 'off', PAYMENTS: 'sandbox' })).toEqual([
      'PAYMENTS: the sandbox lives in this server, whose worker retries its refunds: leave WORKER on',
    ]);
    expect(problems({ APP_MODE: 'demo', PAYMENTS: 'on' })).toEqual(["PAYMENTS: must be sandbox (the demo's payment sandbox), or unset"]);
  });
});

describe("acceptedOrigins: the origins whose posts count as the site's own", () => {
  it('is the site origin alone for a public name', () => {
    expect(acceptedOrigins('https://gaadi.example')).toEqual(['https://gaadi.example']);
    expect(acceptedOrigins('https://localhost.gaadi.example')).toEqual(['https://localhost.gaadi.example']);
  });

  it('adds the other loopback names on the same port when the site is on loopback', () => {
    expect(acceptedOrigins('http://localhost:3311')).toEqual(['http://localhost:3311', 'http://127.0.0.1:3311', 'http://[::1]:3311']);
    expect(acceptedOrigins('http://127.0.0.1:3000')).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']);
    expect(acceptedOrigins('http://localhost')).toEqual(['http://localhost', 'http://127.0.0.1', 'http://[::1]']);
  });

  it('is what the parsed configuration carries', () => {
    expect(parseConfig({ APP_MODE: 'test', PORT: '4000' }).acceptedOrigins).toContain('http://127.0.0.1:4000');
  });
});
