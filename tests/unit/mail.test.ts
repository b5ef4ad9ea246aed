import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createLogger } from '../../server/logger.ts';
import { escapeHtml } from '../../server/html.ts';
import { MailError, createMailer, passwordResetEmail, verificationEmail } from '../../server/notify/mail.ts';
import { latestOutboxMessage, listOutboxMessages } from '../../server/notify/outbox.ts';
import { unusedLocalUrl } from '../support/sms-standins.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';

/** The mailer over real SMTP (a local smtp-server) and the outbox in a real SQLite database. */

let dataDir: string;
let database: Database;
let peer: SmtpPeer;
const logger = createLogger('silent');
/** The time the messages are recorded at. */
const NOW = Date.parse('2026-11-25T06:30:00.000Z');
const clock = { now: () => NOW };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-mail-'));
  database = openDatabase({ dataDir });
  await migrateToLatest(database);
  peer = await startSmtpPeer();
});
afterAll(async () => {
  await peer.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.deleteFrom('outbox_messages').execute();
  peer.messages.length = 0;
});

const production = {
  APP_MODE: 'production',
  SITE_ORIGIN: 'https://www.gaadibazaar.in',
  AUTH_SECRET: 'x'.repeat(40),
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 't',
  TWILIO_FROM: '+15005550006',
};
const verifyUrl = 'https://www.gaadibazaar.in/api/auth/verify-email?token=abc.def&callbackURL=%2Fprofile%3Fverified%3D1';

async function smtpUrlOfNothing() {
  return (await unusedLocalUrl()).replace('http://', 'smtp://');
}

describe('createMailer', () => {
  it('sends over SMTP with text, HTML and the configured sender, and keeps a copy in the outbox in test mode', async () => {
    const config = parseConfig({ APP_MODE: 'test', SMTP_URL: peer.url, MAIL_FROM: 'Gaadi Bazaar <no-reply@gaadibazaar.in>' });
    const mail = verificationEmail({ siteName: 'Gaadi Bazaar', name: 'Priya Sharma', url: verifyUrl });
    await createMailer({ config, database, logger, clock }).send({ to: 'priya@example.in', ...mail });

    const received = await peer.waitForMessage((message) => message.envelopeTo.includes('priya@example.in'));
    expect(received.envelopeFrom).toBe('no-reply@gaadibazaar.in');
    expect(received.from).toBe('Gaadi Bazaar <no-reply@gaadibazaar.in>');
    expect(received.to).toBe('priya@example.in');
    expect(received.subject).toBe('Verify your email address for Gaadi Bazaar');
    expect(received.text).toBe(mail.text);
    expect(received.text).toContain(`Verify email address: ${verifyUrl}`);
    expect(received.html).toContain(`href="${escapeHtml(verifyUrl)}"`);

    const stored = await latestOutboxMessage(database, { channel: 'email', recipient: 'priya@example.in' });
    expect(stored).toMatchObject({ subject: mail.subject, body: mail.text });
  });

  it('carries names and subjects outside ASCII intact', async () => {
    const config = parseConfig({ APP_MODE: 'test', SMTP_URL: peer.url });
    await createMailer({ config, database, logger, clock }).send({
      to: 'ravi@example.in',
      subject: 'Price drop: ₹4,50,000 for रवि',
      text: 'Namaste रवि,\nThe price is now ₹4,50,000.',
      html: '<p>Namaste रवि</p>',
    });
    const received = await peer.waitForMessage((message) => message.envelopeTo.includes('ravi@example.in'));
    expect(received.subject).toBe('Price drop: ₹4,50,000 for रवि');
    expect(received.text).toBe('Namaste रवि,\nThe price is now ₹4,50,000.');
    expect(received.html).toContain('<p>Namaste रवि</p>');
  });

  it('keeps mail only in the outbox in a demo without SMTP_URL', async () => {
    const config = parseConfig({ APP_MODE: 'demo' });
    await createMailer({ config, database, logger, clock }).send({ to: 'demo@example.in', subject: 'Hello', text: 'Body' });
    expect(await listOutboxMessages(database, { limit: 5 })).toMatchObject([
      { channel: 'email', recipient: 'demo@example.in', subject: 'Hello', body: 'Body' },
    ]);
    expect(peer.messages).toHaveLength(0);
  });

  it('in production sends over SMTP and writes nothing to the outbox', async () => {
    const config = parseConfig({ ...production, SMTP_URL: peer.url });
    await createMailer({ config, database, logger, clock }).send({ to: 'buyer@example.in', subject: 'Hello', text: 'Body' });
    const received = await peer.waitForMessage((message) => message.envelopeTo.includes('buyer@example.in'));
    expect(received.text).toBe('Body');
    expect(received.html).toBe('');
    expect(await listOutboxMessages(database, { limit: 5 })).toEqual([]);
  });

  it('in production throws a clear error when the SMTP server cannot be reached', async () => {
    const smtpUrl = await smtpUrlOfNothing();
    const config = parseConfig({ ...production, SMTP_URL: smtpUrl });
    const error = await createMailer({ config, database, logger, clock })
      .send({ to: 'buyer@example.in', subject: 'Hello', text: 'Body' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailError);
    const host = new URL(smtpUrl).host;
    expect((error as MailError).message).toMatch(
      new RegExp(`^Mail to b\\*\\*\\*@example\\.in could not be sent through SMTP \\(${host.replaceAll('.', '\\.')}\\): .*ECONNREFUSED`),
    );
  });

  it('in a demo with a dead SMTP server keeps the mail in the outbox and does not fail', async () => {
    const config = parseConfig({ APP_MODE: 'demo', SMTP_URL: await smtpUrlOfNothing() });
    await createMailer({ config, database, logger, clock }).send({ to: 'demo@example.in', subject: 'Hello', text: 'Body' });
    expect(await latestOutboxMessage(database, { channel: 'email', recipient: 'demo@example.in' })).toMatchObject({ subject: 'Hello' });
  });
});

describe('mail templates', () => {
  it('greets by name and escapes what goes into HTML', () => {
    const mail = verificationEmail({ siteName: 'Gaadi <Bazaar>', name: '<b>Priya</b>', url: 'https://example.in/verify?a=1&b="2"' });
    expect(mail.text).toMatch(/^Namaste <b>Priya<\/b>,\n/);
    expect(mail.html).toContain('Namaste &lt;b&gt;Priya&lt;/b&gt;,');
    expect(mail.html).toContain('href="https://example.in/verify?a=1&amp;b=&quot;2&quot;"');
    expect(mail.html).not.toContain('<b>Priya</b>');
    expect(mail.html).toContain('Gaadi &lt;Bazaar&gt;');
  });

  it('greets without a name when there is none', () => {
    expect(verificationEmail({ siteName: 'Gaadi Bazaar', name: '  ', url: verifyUrl }).text).toMatch(/^Namaste,\n/);
  });

  it('refuses links that are not web addresses', () => {
    expect(() => verificationEmail({ siteName: 'Gaadi Bazaar', name: 'A', url: 'javascript:alert(1)' })).toThrow(TypeError);
    expect(() => passwordResetEmail({ siteName: 'Gaadi Bazaar', name: 'A', url: '/relative' })).toThrow(TypeError);
  });

  it('writes the password reset mail', () => {
    const mail = passwordResetEmail({ siteName: 'Gaadi Bazaar', name: 'Priya', url: 'https://www.gaadibazaar.in/reset?token=1' });
    expect(mail.subject).toBe('Reset your Gaadi Bazaar password');
    expect(mail.text).toContain('valid for 1 hour');
    expect(mail.text).toContain('Choose a new password: https://www.gaadibazaar.in/reset?token=1');
    expect(mail.text).toMatch(/Regards,\nTeam Gaadi Bazaar$/);
  });
});
