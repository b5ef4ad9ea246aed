import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Busboy } from '@fastify/busboy';
import type { MiddlewareHandler } from 'hono';
import { cleanLine, hasControlCharacters, hasControlText } from '../../app/lib/input.ts';
import { AppError } from '../errors.ts';
import type { Upload } from '../media/images.ts';
import { problem } from './problem.ts';
import { bodyTimeoutMessage, bodyClassFor, BodyTimeoutError, BodyTooLargeError, countedBody, declaredTooLarge, tooLargeMessage } from './body-limit.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';

/**
 * The one way route actions read a form body. Limits come from the path's body class
 * (server/http/body-limit.ts); whatever a client sends that is not a form we can read
 * becomes a FormReadError with a status and a message for the person, never a 500.
 */

export type FormReadProblem = 'too-large' | 'too-many-files' | 'file-too-large' | 'malformed' | 'unsupported' | 'control-characters' | 'timeout';

export class FormReadError extends AppError {
  constructor(
    readonly problem: FormReadProblem,
    message: string,
    readonly fileName?: string,
    /** The text fields read before an upload was refused, so the page can show them again. */
    readonly fields: FormData = new FormData(),
    /** The field a refused text was in (a control character), for the page to mark it. */
    readonly field?: string,
  ) {
    super(message);
  }
  /** 413 for a body over the limit; 408 for one that stopped arriving; 400 for anything unreadable and for a refused file (like any photo refused by its content). */
  get status(): 400 | 408 | 413 {
    return this.problem === 'too-large' ? 413 : this.problem === 'timeout' ? 408 : 400;
  }
}

const MALFORMED = () => t('formMalformed');
const UNSUPPORTED = () => t('formUnsupported');
/** Why a text with control characters is refused, in the request's language. */
export const controlCharactersMessage = () => t('controlCharacters');

/**
 * Whether a text field may pass the edge (decision 061): no NUL or other control character
 * (tab and line breaks aside) in its name or value, so none reaches a query (PostgreSQL
 * refuses NUL in text and answered 500) or a stored record. Passwords are left alone: they
 * are only hashed, never stored as text, and are the person's to choose (decision 012).
 */
function acceptableField(name: string, value: string): boolean {
  return !hasControlCharacters(name) && (/password/i.test(name) || !hasControlCharacters(value));
}

/** `form` as read, or a 400 when a text field holds a control character. */
function refuseControlCharacters(form: FormData): FormData {
  for (const [name, value] of form) {
    if (typeof value === 'string' && !acceptableField(name, value))
      throw new FormReadError('control-characters', controlCharactersMessage(), undefined, undefined, name);
  }
  return form;
}

function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function hasBoundary(request: Request): boolean {
  return /;\s*boundary=("[^"]+"|[^\s;]+)/i.test(request.headers.get('content-type') ?? '');
}

async function cancelBody(request: Request) {
  await request.body?.cancel().catch(() => {});
}

/** Whether a read failed because the body passed a limit (ours here, or the edge's). */
function isTooLarge(error: unknown): boolean {
  return error instanceof BodyTooLargeError || (error as { cause?: unknown } | null)?.cause instanceof BodyTooLargeError;
}

/** Whether a read failed because the client stopped sending (the edge's idle limit). */
function isStalled(error: unknown): boolean {
  return error instanceof BodyTimeoutError || (error as { cause?: unknown } | null)?.cause instanceof BodyTimeoutError;
}

/** The whole body, refused as soon as it passes `maxBytes`. */
async function readBytes(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = countedBody(body, maxBytes).getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      total += read.value.byteLength;
    }
  } catch (error) {
    if (isTooLarge(error)) throw new FormReadError('too-large', tooLargeMessage(maxBytes));
    if (isStalled(error)) throw new FormReadError('timeout', bodyTimeoutMessage());
    throw new FormReadError('malformed', MALFORMED());
  }
  return Buffer.concat(chunks, total);
}

/**
 * A small form (URL-encoded or multipart without large files), read whole into memory but
 * never more than `maxBytes` (default: the path's limit).
 */
export async function readForm(request: Request, options: { maxBytes?: number } = {}): Promise<FormData> {
  const maxBytes = options.maxBytes ?? bodyClassFor(new URL(request.url).pathname).maxBytes;
  const type = mediaType(request);
  // A post without any body (a button alone) is an empty form.
  if (!request.body || (type === '' && request.headers.get('content-length') === '0')) return new FormData();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    await cancelBody(request);
    throw new FormReadError('unsupported', UNSUPPORTED());
  }
  if (type === 'multipart/form-data' && !hasBoundary(request)) {
    await cancelBody(request);
    throw new FormReadError('malformed', MALFORMED());
  }
  if (declaredTooLarge(request.headers, maxBytes)) {
    await cancelBody(request);
    throw new FormReadError('too-large', tooLargeMessage(maxBytes));
  }
  const bytes = await readBytes(request.body, maxBytes);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
      headers: { 'content-type': request.headers.get('content-type')! },
    }).formData();
  } catch {
    throw new FormReadError('malformed', MALFORMED());
  }
  return refuseControlCharacters(form);
}

/**
 * readForm that also takes a JSON object (the Android API sends JSON), bounded and refused the
 * same way; its text values become the form's fields, and a JSON value that is not an object
 * has none.
 */
export async function readFormOrJson(request: Request, options: { maxBytes?: number } = {}): Promise<FormData> {
  const type = mediaType(request);
  if (type !== 'application/json' && !type.endsWith('+json')) return readForm(request, options);
  const maxBytes = options.maxBytes ?? bodyClassFor(new URL(request.url).pathname).maxBytes;
  if (declaredTooLarge(request.headers, maxBytes)) {
    await cancelBody(request);
    throw new FormReadError('too-large', tooLargeMessage(maxBytes));
  }
  const form = new FormData();
  if (!request.body) return form;
  let value: unknown;
  try {
    value = JSON.parse((await readBytes(request.body, maxBytes)).toString('utf8'));
  } catch (error) {
    if (error instanceof FormReadError) throw error;
    throw new FormReadError('malformed', MALFORMED());
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, field] of Object.entries(value)) if (typeof field === 'string') form.append(name, field);
  }
  return refuseControlCharacters(form);
}

/** One uploaded file, on disk until the form is discarded. */
export type UploadedFile = { field: string; name: string; type: string; path: string; size: number };

export type UploadForm = {
  /** The text fields. */
  fields: FormData;
  /** The files, in the order they arrived (empty file inputs are left out). */
  files: UploadedFile[];
  /** Removes the files from disk; call it in a `finally` once the upload is handled. */
  discard: () => Promise<void>;
};

export type UploadOptions = {
  /** Parent of the per-request temporary folder (e.g. DATA_DIR/tmp). */
  tempDir: string;
  maxBytes?: number;
  maxFileBytes?: number;
  maxFiles?: number;
  /** Messages in the form's own words. */
  messages?: Partial<Record<'tooLarge' | 'tooManyFiles' | 'fileTooLarge', string>>;
};

/** A field longer than this in an upload form is refused (the longest text field is a description). */
const MAX_UPLOAD_FIELD_BYTES = 256 * 1024;

/**
 * An upload form: the text fields in memory, each file streamed to its own temporary file
 * under `tempDir` while the size of every file, the number of files and the whole body are
 * counted, so a client can neither fill the memory nor the disk past the limits. On any
 * failure the temporary files are removed before the error is thrown; on success the caller
 * removes them with `discard()`. A URL-encoded post (a form without files) is read as a
 * plain form.
 */
export async function readUploadForm(request: Request, options: UploadOptions): Promise<UploadForm> {
  const bodyClass = bodyClassFor(new URL(request.url).pathname);
  const maxBytes = options.maxBytes ?? bodyClass.maxBytes;
  const maxFileBytes = options.maxFileBytes ?? bodyClass.upload?.maxFileBytes ?? 0;
  const maxFiles = options.maxFiles ?? bodyClass.upload?.maxFiles ?? 0;
  const messages = {
    tooLarge: tooLargeMessage(maxBytes),
    tooManyFiles: t('tooManyFiles', { count: maxFiles }),
    fileTooLarge: t('fileTooLarge', { mb: Math.floor(maxFileBytes / (1024 * 1024)) }),
    ...options.messages,
  };
  const type = mediaType(request);
  if (type !== 'multipart/form-data') {
    const fields = await readForm(request, { maxBytes: Math.min(maxBytes, MAX_UPLOAD_FIELD_BYTES) });
    return { fields, files: [], discard: async () => {} };
  }
  if (!hasBoundary(request) || !request.body) {
    await cancelBody(request);
    throw new FormReadError('malformed', MALFORMED());
  }
  if (declaredTooLarge(request.headers, maxBytes)) {
    await cancelBody(request);
    throw new FormReadError('too-large', messages.tooLarge);
  }

  await mkdir(options.tempDir, { recursive: true });
  const dir = await mkdtemp(path.join(options.tempDir, 'upload-'));
  const discard = () => rm(dir, { recursive: true, force: true });
  const fields = new FormData();
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  const open = new Set<Readable>();
  let failure: FormReadError | null = null;

  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': request.headers.get('content-type')! },
      limits: { fileSize: maxFileBytes, files: maxFiles, fields: 200, fieldSize: MAX_UPLOAD_FIELD_BYTES, parts: maxFiles + 200, headerPairs: 20 },
    });
  } catch {
    await discard();
    await cancelBody(request);
    throw new FormReadError('malformed', MALFORMED());
  }
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.byteLength;
      if (received > maxBytes) callback(new FormReadError('too-large', messages.tooLarge));
      else callback(null, chunk);
    },
  });
  const source = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  const fail = (error: FormReadError) => {
    failure ??= error;
    // A photo too large or one too many: the rest of the body (within the path's total, which
    // the counter still enforces) is read and thrown away, so a browser still sending gets the
    // answer instead of a reset connection. Only a body over the total or unreadable is cut off.
    if (error.problem === 'too-large' || error.problem === 'malformed') source.destroy();
  };

  parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) fail(new FormReadError('too-large', messages.tooLarge));
    else if (!acceptableField(name, value)) fail(new FormReadError('control-characters', controlCharactersMessage(), undefined, undefined, name));
    else fields.append(name, value);
  });
  parser.on('file', (field, stream, fileName, _encoding, mimeType) => {
    const target = path.join(dir, String(writes.length));
    const file: UploadedFile = { field, name: fileName ?? '', type: mimeType, path: target, size: 0 };
    stream.on('limit', () => fail(new FormReadError('file-too-large', messages.fileTooLarge, file.name)));
    open.add(stream);
    writes.push(
      pipeline(stream, createWriteStream(target)).then(
        () => {
          open.delete(stream);
          file.size = stream.bytesRead;
          // An untouched file input sends an empty part with no name.
          if (file.size > 0 && !stream.truncated) files.push(file);
        },
        () => {
          open.delete(stream);
          fail(new FormReadError('malformed', MALFORMED()));
        },
      ),
    );
  });
  parser.on('filesLimit', () => fail(new FormReadError('too-many-files', messages.tooManyFiles)));
  parser.on('partsLimit', () => fail(new FormReadError('too-large', messages.tooLarge)));
  parser.on('fieldsLimit', () => fail(new FormReadError('too-large', messages.tooLarge)));

  try {
    await pipeline(source, counter, parser);
    await Promise.all(writes);
  } catch (error) {
    if (!failure) {
      if (isTooLarge(error)) failure = new FormReadError('too-large', messages.tooLarge);
      else if (isStalled(error)) failure = new FormReadError('timeout', bodyTimeoutMessage());
      else failure = error instanceof FormReadError ? error : new FormReadError('malformed', MALFORMED());
    }
    // A file cut off mid-body never ends by itself.
    for (const stream of open) stream.destroy();
    await Promise.allSettled(writes);
  }
  if (failure) {
    await discard();
    const refused: FormReadError = failure;
    throw new FormReadError(refused.problem, refused.message, refused.fileName, fields);
  }
  // Files arrive in order but finish writing in any order.
  files.sort((a, b) => Number(path.basename(a.path)) - Number(path.basename(b.path)));
  return { fields, files, discard };
}

/**
 * Reads an upload form and hands it to `handle`, removing its temporary files afterwards whatever
 * `handle` did; a body that could not be read (FormReadError) goes to `refused` instead.
 */
export async function withUploadForm<Answer>(
  request: Request,
  options: UploadOptions,
  handle: (upload: UploadForm) => Promise<Answer>,
  refused: (error: FormReadError) => Answer,
): Promise<Answer> {
  let upload: UploadForm;
  try {
    upload = await readUploadForm(request, options);
  } catch (error) {
    if (!(error instanceof FormReadError)) throw error;
    return refused(error);
  }
  try {
    return await handle(upload);
  } finally {
    await upload.discard();
  }
}

/** The files of an upload form's field, as uploads for the image services (on disk until the form is discarded). */
export function uploadsFrom(form: Pick<UploadForm, 'files'>, field: string): Upload[] {
  return form.files.filter((file) => file.field === field).map((file) => ({ name: displayName(file.name), source: file.path }));
}

/** A file name as a client sent it, fit to show in a message: no folders, no control characters, not too long. */
export function displayName(name: string): string {
  const clean = cleanLine(name.split(/[\\/]/).pop() ?? '', 120);
  return clean || 'image';
}

/** The temporary folder for uploads under the data directory. */
export function uploadTempDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'uploads');
}

/**
 * Removes upload folders older than `maxAgeMs` that a crash left behind. Only old ones: other
 * instances sharing the data directory may be reading uploads right now, and none takes an hour.
 */
export async function removeStaleUploads(tempDir: string, nowMs: number, maxAgeMs = 60 * 60_000): Promise<number> {
  let removed = 0;
  const entries = await readdir(tempDir).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith('upload-')) continue;
    const folder = path.join(tempDir, entry);
    const info = await stat(folder).catch(() => null);
    if (info && nowMs - info.mtimeMs > maxAgeMs) {
      await rm(folder, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * readForm for actions that answer a refused body in their own shape: the form, or the
 * FormReadError to turn into the page's message (any other error is thrown on).
 */
export async function readFormOrError(request: Request, options: { maxBytes?: number } = {}): Promise<FormData | FormReadError> {
  try {
    return await readForm(request, options);
  } catch (error) {
    if (error instanceof FormReadError) return error;
    throw error;
  }
}

/**
 * The JSON API's side of the control-character rule (decision 061): a JSON body holding a NUL
 * or another control character in any key or text value (passwords aside) is a 400 before a
 * handler reads it. The handler still reads the body itself: this looks at a copy. A body that
 * is not JSON passes on, and its handler says what it expected.
 */
export function refuseControlCharactersInJson(): MiddlewareHandler {
  return async (c, next) => {
    const type = mediaType(c.req.raw);
    if (!c.req.raw.body || (type !== 'application/json' && !type.endsWith('+json'))) return next();
    let text: string;
    try {
      text = await c.req.raw.clone().text();
    } catch (error) {
      if (isStalled(error)) return problem(c, 408, bodyTimeoutMessage(), { headers: { Connection: 'close' } });
      if (isTooLarge(error)) return next();
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return next();
    }
    if (hasControlText(value)) {
      // The top-level fields that hold it, marked as every refusal marks its fields.
      const fields = Object.fromEntries(
        Object.entries(value as object)
          .filter(([key, item]) => hasControlText({ [key]: item }))
          .map(([key]) => [key, controlCharactersMessage()]),
      );
      return problem(c, 400, controlCharactersMessage(), { fields });
    }
    return next();
  };
}
