import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../server/config.ts';
import type { BotCheckLogger } from '../../server/security/bot-check.ts';

/** Helpers of the bot-check tests (unit: the vendors; integration: ALTCHA on each database). */

export const authSecret = 'test-auth-secret-of-at-least-thirty-two-characters';

/** A logger that keeps the messages of warnings and errors. */
export function recordingLogger() {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: BotCheckLogger = {
    warn: (_details, message) => warnings.push(message),
    error: (_details, message) => errors.push(message),
  };
  return { logger, warnings, errors };
}

/** The configuration createBotCheck reads: ALTCHA at the standard work unless changed. */
export function botCheckConfig(botCheck: Partial<Config['botCheck']> = {}): Pick<Config, 'botCheck' | 'authSecret'> {
  return { authSecret, botCheck: { provider: 'altcha', siteKey: '', secretKey: '', verifyUrl: undefined, work: 'standard', ...botCheck } };
}

/** A local stand-in HTTP server (a vendor's verify endpoint) on a free port. */
export async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
