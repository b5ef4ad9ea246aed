import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    // Never log credentials or session cookies, whatever a call site passes in.
    redact: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.otp'],
  });
}
