import { describe, expect, it } from 'vitest';
import { createTwilioSender } from '../../server/notify/sms-twilio.ts';
import { resetBeforeEachTest, smsFailure, startTwilioStandIn, unusedLocalUrl } from '../support/sms-standins.ts';

/** The Twilio adapter against a local server that answers as Twilio's Messages API does. */

const standIn = await startTwilioStandIn();
resetBeforeEachTest(standIn);

function sender(overrides: { authToken?: string; accountSid?: string; from?: string; apiUrl?: string; timeoutMs?: number } = {}) {
  return createTwilioSender({ accountSid: standIn.accountSid, authToken: standIn.authToken, from: standIn.from, apiUrl: standIn.url, ...overrides });
}

const TEXT = '482913 is your Gaadi Bazaar verification code. It is valid for 10 minutes. Do not share it with anyone.';

describe('Twilio adapter', () => {
  it('sends the text from the configured number', async () => {
    await sender().send('+919876543210', TEXT, { otp: '482913' });
    expect(standIn.messages).toHaveLength(1);
    expect(standIn.messages[0]).toMatchObject({ to: '+919876543210', from: standIn.from, body: TEXT, messagingServiceSid: null });
    expect(standIn.messages[0]?.sid).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it('sends through a Messaging Service when From is one', async () => {
    const service = `MG${'a'.repeat(32)}`;
    await sender({ from: service }).send('+919876543210', TEXT);
    expect(standIn.messages[0]).toMatchObject({ to: '+919876543210', from: '', messagingServiceSid: service });
  });

  it('reports a wrong auth token as invalid-credential (20003)', async () => {
    const error = await smsFailure(sender({ authToken: 'wrong' }).send('+919876543210', TEXT));
    expect(error.code).toBe('invalid-credential');
    expect(error.message).toBe('Authenticate');
    expect(error.status).toBe(401);
    expect(standIn.messages).toHaveLength(0);
  });

  it('reports a revoked account as invalid-credential', async () => {
    standIn.setMode('invalid-credential');
    const error = await smsFailure(sender().send('+919876543210', TEXT));
    expect(error.code).toBe('invalid-credential');
  });

  it('reports the API rate limit (20429) as quota-exceeded', async () => {
    standIn.setMode('too-many-requests');
    const error = await smsFailure(sender().send('+919876543210', TEXT));
    expect(error.code).toBe('quota-exceeded');
    expect(error.status).toBe(429);
  });

  it('reports a full sending queue (21611) as quota-exceeded', async () => {
    standIn.setMode('queue-full');
    const error = await smsFailure(sender().send('+919876543210', TEXT));
    expect(error.code).toBe('quota-exceeded');
    expect(error.message).toBe("This 'From' number has exceeded the maximum number of queued messages");
  });

  it("reports a 'To' Twilio rejects (21211) as invalid-number", async () => {
    const error = await smsFailure(sender().send('+9112345', TEXT));
    expect(error.code).toBe('invalid-number');
    expect(error.message).toBe("The 'To' number +9112345 is not a valid phone number.");
  });

  it('passes any other refusal on with Twilio’s own message', async () => {
    const error = await smsFailure(sender({ from: '+15550000000' }).send('+919876543210', TEXT));
    expect(error.code).toBe('provider');
    expect(error.message).toMatch(/not a valid message-capable Twilio phone number/);
  });

  it('reports a Twilio outage as a provider error', async () => {
    standIn.setMode('server-error');
    const error = await smsFailure(sender().send('+919876543210', TEXT));
    expect(error.code).toBe('provider');
    expect(error.status).toBe(500);
  });

  it('reports an unreachable host as a provider error naming it', async () => {
    const apiUrl = await unusedLocalUrl();
    const host = new URL(apiUrl).host;
    const error = await smsFailure(sender({ apiUrl }).send('+919876543210', TEXT));
    expect(error.code).toBe('provider');
    expect(error.message).toBe(`Twilio could not be reached (${host}): connect ECONNREFUSED ${host}`);
  });

  it('gives up on a request that gets no answer', async () => {
    standIn.setMode('hang');
    const error = await smsFailure(sender({ timeoutMs: 300 }).send('+919876543210', TEXT));
    expect(error.code).toBe('provider');
    expect(error.message).toMatch(/^Twilio did not answer within 0\.3 s/);
  });
});
