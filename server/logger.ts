import pino from 'pino';
import { censorField, maskPersonalText, REDACTED_PATHS } from './observability/log-masking.ts';
import { currentRequestId } from './request-context.ts';

export type Logger = pino.Logger;

/** `json` for machines (production, tests); `pretty` for a person reading a terminal (demo). */
export type LogFormat = 'json' | 'pretty';

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * One pino JSON record as a readable line: `12:04:31 INFO  message  key=value …`, with an
 * error's stack below it. Small on purpose: pino-pretty would be a dependency (and a worker
 * thread) for what the demo prints at start.
 */
export function formatLogLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, time, msg, err, ...fields } = record;
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const name = (LEVEL_NAMES[Number(level)] ?? String(level)).padEnd(5);
  const details = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const stack = err && typeof err === 'object' && 'stack' in err ? `\n${String((err as { stack: unknown }).stack)}` : err ? `\n${JSON.stringify(err)}` : '';
  return `${clock} ${name} ${String(msg ?? '')}${details ? `  ${details}` : ''}${stack}`;
}

/**
 * `destination` replaces standard output: the integration tests run the server inside their
 * worker and read its records from there (tests/support/server.ts).
 */
export function createLogger(level: string, format: LogFormat = 'json', destination: { write: (line: string) => void } = process.stdout): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    // Every line written while answering a request, or running a job one queued, names it (decision 111).
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === null ? {} : { requestId };
    },
    // Never log credentials, session cookies or people's details, whatever a call site passes in:
    // the fields by name here, and whatever free text still holds below (server/observability/log-masking.ts).
    redact: { paths: REDACTED_PATHS, censor: censorField },
    hooks: { streamWrite: maskPersonalText },
  };
  if (format === 'json') return destination === process.stdout ? pino(options) : pino(options, destination);
  return pino(options, {
    write(line: string) {
      destination.write(`${formatLogLine(line.trimEnd())}\n`);
    },
  });
}
