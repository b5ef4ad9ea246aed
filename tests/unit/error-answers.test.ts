import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { pageWindow } from '../../server/db/paging.ts';
import { ConflictError, ImageRefusedError, InvalidInputError, NotFoundError, RateLimitedError } from '../../server/errors.ts';
import { answerError } from '../../server/http/action-errors.ts';

/** A real pino logger writing its JSON lines here. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ base: undefined }, stream), lines };
}

const options = { fallback: 'Failed to update category', prefix: 'Failed to update category', log: 'update category failed' };

describe('answerError', () => {
  it('keeps a refusal’s message (after the prefix), status and fields, and logs nothing', () => {
    const { logger, lines } = capturedLogger();
    const taken = answerError(new InvalidInputError('A category named "SUVs" already exists.', { name: 'taken' }), logger, options);
    expect(taken).toMatchObject({ status: 400, message: 'Failed to update category: A category named "SUVs" already exists.', fields: { name: 'taken' } });
    expect(answerError(new NotFoundError('Category not found'), logger, options)).toMatchObject({ status: 404, fields: {} });
    expect(answerError(new ConflictError('SUVs still has 3 vehicles.'), logger, { ...options, prefix: (message) => `No: ${message}` }).message).toBe(
      'No: SUVs still has 3 vehicles.',
    );
    expect(lines).toEqual([]);
  });

  it('never prefixes a refused photo: its message already says what failed', () => {
    const { logger } = capturedLogger();
    const answer = answerError(new ImageRefusedError('a.jpg', '“a.jpg”: is not a photo.'), logger, options);
    expect(answer).toMatchObject({ status: 400, message: '“a.jpg”: is not a photo.', fields: { images: '“a.jpg”: is not a photo.' } });
  });

  it('says when to retry after a rate limit', () => {
    const { logger } = capturedLogger();
    const answer = answerError(new RateLimitedError('Too many submissions.', 120), logger, options);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('Retry-After')).toBe('120');
  });

  it('logs anything else with its stack and hides it behind the fallback', () => {
    const { logger, lines } = capturedLogger();
    const answer = answerError(new Error('SQLITE_ERROR: no such table: audit_log'), logger, { ...options, context: { id: 7 } });
    expect(answer).toMatchObject({ status: 500, message: 'Failed to update category', fields: {} });
    expect(answer.message).not.toContain('audit_log');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'update category failed', id: 7, err: { message: 'SQLITE_ERROR: no such table: audit_log' } });
    expect(String((lines[0]!.err as { stack: string }).stack)).toContain('error-answers.test.ts');
  });
});

describe('pageWindow', () => {
  it('counts pages, clamps the page into them and gives the offset', () => {
    expect(pageWindow(0, 1, 10)).toEqual({ page: 1, pageCount: 1, perPage: 10, limit: 10, offset: 0 });
    expect(pageWindow(25, 2, 10)).toMatchObject({ page: 2, pageCount: 3, offset: 10 });
    expect(pageWindow(25, 99, 10)).toMatchObject({ page: 3, offset: 20 });
    expect(pageWindow(25, 0, 10)).toMatchObject({ page: 1, offset: 0 });
    expect(pageWindow(25, 2.7, 10)).toMatchObject({ page: 2 });
  });
});
