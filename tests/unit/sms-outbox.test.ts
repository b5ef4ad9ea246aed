import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createLogger } from '../../server/logger.ts';
import { latestOutboxMessage, listOutboxMessages, recordOutboxMessage } from '../../server/notify/outbox.ts';
import { SmsError, createSmsSender, otpSmsText } from '../../server/notify/sms.ts';
import { startMsg91StandIn, startTwilioStandIn, type Msg91StandIn, type TwilioStandIn } from '../support/sms-standins.ts';

/** The outbox store and the SMS sender that picks a provider from the configuration, on a real SQLite database. */

let dataDir: string;
let database: Database;
let msg91: Msg91StandIn;
let twilio: TwilioStandIn;
const logger = createLogger('silent');
/** The time the messages are recorded at. */
const NOW = Date.parse('2026-11-25T06:30:00.000Z');
const clock = { now: () => NOW };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-sms-'));
  database = openDatabase({ dataDir });
  await migrateToLatest(database);
  msg91 = await startMsg91StandIn();
  twilio = await startTwilioStandIn();
});
afterAll(async () => {
  await msg91.close();
  await twilio.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.deleteFrom('outbox_messages').execute();
  msg91.setMode('ok');
  msg91.messages.length = 0;
  twilio.messages.length = 0;
});

const production = { APP_MODE: 'production', SITE_ORIGIN: 'https://www.gaadibazaar.in', AUTH_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://127.0.0.1:2525' };

describe('outbox', () => {
  it('lists newest first, limited, and finds the latest per recipient', async () => {
    await recordOutboxMessage(database, { channel: 'email', recipient: 'Priya@Example.in', subject: 'First', body: 'one' }, NOW);
    await recordOutboxMessage(database, { channel: 'sms', recipient: '+919876543210', body: 'two' }, NOW);
    const third = await recordOutboxMessage(database, { channel: 'email', recipient: 'priya@example.in', subject: 'Second', body: 'three' }, NOW);

    expect(third).toMatchObject({ channel: 'email', recipient: 'priya@example.in', subject: 'Second', body: 'three' });
    expect(third.createdAt).toBe('2026-11-25T06:30:00.000Z');

    const all = await listOutboxMessages(database, { limit: 10 });
    expect(all.map((message) => message.body)).toEqual(['three', 'two', 'one']);
    expect((await listOutboxMessages(database, { limit: 2 })).map((message) => message.body)).toEqual(['three', 'two']);
    expect((await listOutboxMessages(database, { limit: 10, channel: 'sms' })).map((message) => message.body)).toEqual(['two']);

    // Mail addresses are matched without case.
    expect(await latestOutboxMessage(database, { channel: 'email', recipient: 'PRIYA@example.in' })).toMatchObject({ subject: 'Second' });
    expect(await latestOutboxMessage(database, { channel: 'sms', recipient: '+919876543210' })).toMatchObject({ body: 'two', subject: '' });
    expect(await latestOutboxMessage(database, { channel: 'sms', recipient: '+910000000000' })).toBeNull();
  });
});

describe('createSmsSender', () => {
  const text = otpSmsText({ siteName: 'Gaadi Bazaar', code: '482913', minutes: 10 });

  it('writes the verification text', () => {
    expect(text).toBe('482913 is your Gaadi Bazaar verification code. It is valid for 10 minutes. Do not share it with anyone.');
  });

  it('keeps the message in the outbox when the provider is the outbox', async () => {
    const config = parseConfig({ APP_MODE: 'demo' });
    expect(config.sms.provider).toBe('outbox');
    await createSmsSender({ config, database, logger, clock }).send('+919876543210', text, { otp: '482913' });
    expect(await latestOutboxMessage(database, { channel: 'sms', recipient: '+919876543210' })).toMatchObject({ body: text });
  });

  it('sends through MSG91 and, in test mode, records in the outbox too', async () => {
    const config = parseConfig({
      APP_MODE: 'test',
      SMS_PROVIDER: 'msg91',
      MSG91_AUTH_KEY: msg91.authKey,
      MSG91_TEMPLATE_ID: msg91.templateId,
      MSG91_API_URL: msg91.url,
    });
    await createSmsSender({ config, database, logger, clock }).send('+919876543210', text, { otp: '482913' });
    expect(msg91.messages).toMatchObject([{ mobiles: '919876543210', otp: '482913' }]);
    expect(await latestOutboxMessage(database, { channel: 'sms', recipient: '+919876543210' })).toMatchObject({ body: text });
  });

  it('records first, so a demo still shows the code when the provider refuses', async () => {
    msg91.setMode('insufficient-balance');
    const config = parseConfig({
      APP_MODE: 'demo',
      SMS_PROVIDER: 'msg91',
      MSG91_AUTH_KEY: msg91.authKey,
      MSG91_TEMPLATE_ID: msg91.templateId,
      MSG91_API_URL: msg91.url,
    });
    const error = await createSmsSender({ config, database, logger, clock })
      .send('+919876543210', text, { otp: '482913' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SmsError);
    expect((error as SmsError).code).toBe('quota-exceeded');
    expect(await latestOutboxMessage(database, { channel: 'sms', recipient: '+919876543210' })).toMatchObject({ body: text });
  });

  it('sends through Twilio in production without writing the code to the database', async () => {
    const config = parseConfig({
      ...production,
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: twilio.from,
      TWILIO_API_URL: twilio.url,
    });
    await createSmsSender({ config, database, logger, clock }).send('+919876543210', text, { otp: '482913' });
    expect(twilio.messages).toMatchObject([{ to: '+919876543210', body: text }]);
    expect(await listOutboxMessages(database, { limit: 10 })).toEqual([]);
  });

  it('refuses a number that is not in international format', async () => {
    const config = parseConfig({ APP_MODE: 'test' });
    const error = await createSmsSender({ config, database, logger, clock })
      .send('98765 43210', text)
      .catch((caught: unknown) => caught);
    expect((error as SmsError).code).toBe('invalid-number');
    expect(await listOutboxMessages(database, { limit: 10 })).toEqual([]);
  });
});
