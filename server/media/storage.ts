import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * Where uploaded and generated files live. Keys are relative paths such as
 * 'vehicles/sedans/1732179000000_city-front-800.webp'. The local implementation keeps them
 * under DATA_DIR/media; the S3-compatible one (s3-storage.ts) in a bucket. Either may throw
 * ServiceUnavailableError when the storage does not answer.
 */
export interface Storage {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The file as a web stream with its size, or null when there is none. */
  get(key: string): Promise<{ body: ReadableStream; size: number } | null>;
  delete(key: string): Promise<void>;
  /** Every key held, in no particular order (for backups, decision 112). */
  keys(): AsyncIterable<string>;
  /** Whether the storage answers within `timeoutMs`, for /readyz: a folder that is there, a bucket that replies. */
  answers(timeoutMs: number): Promise<boolean>;
}

/** Public photos never change under their key (a new upload gets a new key): a year in every cache. */
export const IMMUTABLE_CACHING = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.avif': 'image/avif',
  '.pdf': 'application/pdf',
};

/** A stored file's type from its key's extension, for files copied or restored without their original type. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

/** Keys are built by the server, but a key that climbs out of the media root is never served. */
export function isSafeKey(key: string): boolean {
  return (
    key.length > 0 && key.length <= 300 && /^[a-z0-9][a-z0-9/_.-]*$/i.test(key) && !key.split('/').some((part) => part === '' || part === '.' || part === '..')
  );
}

export function createLocalStorage(root: string): Storage {
  const fileFor = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, body);
      await rename(temporary, file);
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      const file = fileFor(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { body: Readable.toWeb(createReadStream(file)) as ReadableStream, size: info.size };
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
    async *keys() {
      let entries;
      try {
        entries = await readdir(root, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        // A half-written upload (`*.tmp`, renamed when whole) or a stray file is not one of the app's keys.
        if (isSafeKey(key) && !key.endsWith('.tmp')) yield key;
      }
    },
    async answers() {
      // Made on the first upload: a folder not there yet is a storage with nothing in it.
      return stat(root).then(
        (info) => info.isDirectory(),
        (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
      );
    },
  };
}
