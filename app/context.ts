import { createContext } from 'react-router';
import type { Config } from '../server/config.ts';
import type { Database } from '../server/db/connection.ts';
import type { Storage } from '../server/media/storage.ts';
import type { Logger } from '../server/http/logger.ts';
import type { Auth } from '../server/auth/auth.ts';
import type { Mailer } from '../server/notify/mail.ts';
import type { SmsSender } from '../server/notify/sms.ts';
import type { BotCheck } from '../server/security/bot-check.ts';

/**
 * What the server hands every loader and action: the database and the other services are
 * created once at start (server/http/server-entry.ts), never imported as globals, so tests
 * and the JSON API use exactly the same instances.
 */
export type AppServices = {
  config: Config;
  database: Database;
  storage: Storage;
  logger: Logger;
  auth: Auth;
  mailer: Mailer;
  sms: SmsSender;
  botCheck: BotCheck;
};

export type RequestContext = AppServices & {
  /** Per-request nonce that lets our own inline scripts pass the Content-Security-Policy. */
  nonce: string;
  /** The visitor's address, for rate limits (from X-Forwarded-For only behind a trusted proxy). */
  clientAddress: string;
  /** The TCP peer's address, never a header: who may see the demo outbox (loopback only). */
  socketAddress: string;
};

export const appContext = createContext<RequestContext>();
