import { describe, expect, it } from 'vitest';
import { createMsg91Sender } from '../../server/notify/sms-msg91.ts';
import { resetBeforeEachTest, smsFailure, startMsg91StandIn, unusedLocalUrl } from '../support/sms-standins.ts';

/** The MSG91 adapter against a local server that answers as MSG91's Flow API does. */

const standIn = await startMsg91StandIn();
resetBeforeEachTest(standIn);

function sender(overrides: { authKey?: string; apiUrl?: string; timeoutMs?: number } = {}) {
  return createMsg91Sender({ authKey: standIn.authKey, templateId: standIn.templateId, apiUrl: standIn.url, ...overrides });
}

describe('MSG91 adapter', () => {
  it('sends the code through the template to the number in international digits', async () => {
    await sender().send('+919876543210', '482913 is your Gaadi Bazaar verification code.', { otp: '482913' });
    expect(standIn.messages).toEqual([{ templateId: standIn.templateId, shortUrl: '0', mobiles: '919876543210', otp: '482913', authKey: standIn.authKey }]);
  });

  it('reports a wrong auth key as invalid-credential', async () => {
    const error = await smsFailure(sender({ authKey: 'not-the-key' }).send('+919876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('invalid-credential');
    expect(error.status).toBe(401);
    expect(standIn.messages).toHaveLength(0);
  });

  it('reports a server outside the IP allow-list as invalid-credential', async () => {
    standIn.setMode('ip-not-whitelisted');
    const error = await smsFailure(sender().send('+919876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('invalid-credential');
    expect(error.message).toBe('IP not whitelisted');
  });

  it('reports insufficient balance (an error with HTTP 200) as quota-exceeded', async () => {
    standIn.setMode('insufficient-balance');
    const error = await smsFailure(sender().send('+919876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('quota-exceeded');
    expect(error.message).toBe('Insufficient balance');
    expect(standIn.messages).toHaveLength(0);
  });

  it('reports a number MSG91 rejects as invalid-number', async () => {
    const error = await smsFailure(sender().send('+9112345', 'text', { otp: '111111' }));
    expect(error.code).toBe('invalid-number');
  });

  it('refuses a number that is not in international format without calling MSG91', async () => {
    const error = await smsFailure(sender().send('9876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('invalid-number');
  });

  it('passes any other refusal on with MSG91’s own message', async () => {
    const error = await smsFailure(
      createMsg91Sender({ authKey: standIn.authKey, templateId: 'someone-elses', apiUrl: standIn.url }).send('+919876543210', 'text', { otp: '1' }),
    );
    expect(error.code).toBe('provider');
    expect(error.message).toBe('Template ID Missing or Invalid Template');
  });

  it('needs the code: the template cannot carry free text', async () => {
    const error = await smsFailure(sender().send('+919876543210', 'hello'));
    expect(error.code).toBe('provider');
    expect(standIn.messages).toHaveLength(0);
  });

  it('says so when a gateway answers with HTML', async () => {
    standIn.setMode('gateway-error');
    const error = await smsFailure(sender().send('+919876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('provider');
    expect(error.message).toMatch(/HTTP 502/);
  });

  it('reports an unreachable host as a provider error naming it', async () => {
    const apiUrl = await unusedLocalUrl();
    const error = await smsFailure(sender({ apiUrl }).send('+919876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('provider');
    expect(error.message).toBe(`MSG91 could not be reached (${new URL(apiUrl).host}): connect ECONNREFUSED ${new URL(apiUrl).host}`);
  });

  it('gives up on a request that gets no answer', async () => {
    standIn.setMode('hang');
    const error = await smsFailure(sender({ timeoutMs: 300 }).send('+919876543210', 'text', { otp: '111111' }));
    expect(error.code).toBe('provider');
    expect(error.message).toMatch(/did not answer within 0\.3 s/);
  });
});
