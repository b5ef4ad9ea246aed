import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * The backup file (decision 112): one encrypted archive of named entries.
 *
 * On disk: a 40-byte header, then chunks of at most CHUNK_BYTES plaintext, each sealed with
 * AES-256-GCM. The key is derived from the operator's backup key with scrypt and the header's
 * salt. Each chunk's nonce is the header's nonce prefix and the chunk's number, and its
 * additional data is the header and whether it is the last chunk, so chunks cannot be reordered,
 * dropped, or cut off after any of them without the reader noticing; a wrong key or a changed
 * byte fails the first chunk it touches.
 *
 * Inside (the plaintext): entries one after another, each its name's length (4 bytes), its name
 * (UTF-8), its size (8 bytes) and its bytes. Streams both ways, so a backup of any size needs
 * a chunk's memory, not the backup's.
 */

const MAGIC = Buffer.from('GADIBKP1', 'ascii');
const HEADER_BYTES = MAGIC.length + 16 + 8 + 8;
const CHUNK_BYTES = 1 << 20;
const TAG_BYTES = 16;
/** scrypt's cost: about 0.1 s and 32 MiB per backup, nothing next to the backup itself. */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export class BackupUnreadableError extends Error {}

const WRONG_KEY_OR_ALTERED =
  'The backup cannot be read: it was made with another key, or it has been altered or damaged since it was written. Check BACKUP_KEY, or use another backup.';

function deriveKey(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, 32, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))));
}

function nonceFor(prefix: Buffer, index: number): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0, 0, 8);
  nonce.writeUInt32BE(index, 8);
  return nonce;
}

function additionalData(header: Buffer, last: boolean): Buffer {
  return Buffer.concat([header, Buffer.from([last ? 1 : 0])]);
}

/** Writes an archive to an open file; `finish` seals it. Nothing is readable until then. */
export async function createArchiveWriter(file: FileHandle, secret: string) {
  const salt = randomBytes(16);
  const noncePrefix = randomBytes(8);
  const header = Buffer.concat([MAGIC, salt, noncePrefix, Buffer.alloc(8)]);
  const key = await deriveKey(secret, salt);
  await file.write(header);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;

  async function seal(plain: Buffer, last: boolean) {
    const cipher = createCipheriv('aes-256-gcm', key, nonceFor(noncePrefix, index));
    cipher.setAAD(additionalData(header, last));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(plain.length);
    await file.write(Buffer.concat([length, sealed]));
    index += 1;
  }

  async function push(bytes: Buffer) {
    pending.push(bytes);
    pendingBytes += bytes.length;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending);
      await seal(all.subarray(0, CHUNK_BYTES), false);
      pending = [all.subarray(CHUNK_BYTES)];
      pendingBytes = all.length - CHUNK_BYTES;
    }
  }

  return {
    /** Adds one entry whose bytes come from `body` and number exactly `size`. */
    async add(name: string, size: number, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
      const nameBytes = Buffer.from(name, 'utf8');
      const head = Buffer.alloc(4 + nameBytes.length + 8);
      head.writeUInt32BE(nameBytes.length, 0);
      nameBytes.copy(head, 4);
      head.writeBigUInt64BE(BigInt(size), 4 + nameBytes.length);
      await push(head);
      let written = 0;
      for await (const piece of body) {
        written += piece.length;
        if (written > size) throw new Error(`${name} grew while it was being backed up`);
        await push(Buffer.from(piece));
      }
      if (written !== size) throw new Error(`${name} is ${written} bytes, not the ${size} it was when the backup began`);
    },
    async finish() {
      await seal(Buffer.concat(pending), true);
      pending = [];
      pendingBytes = 0;
    },
  };
}

/** Reads exactly `length` bytes at `position`, or fewer at the end of the file. */
async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** The archive's plaintext, chunk by chunk, each checked before it is given out. */
async function* plaintextChunks(path: string, secret: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    const header = await readAt(file, 0, HEADER_BYTES);
    if (header.length < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new BackupUnreadableError(`${path} is not a backup of this app (or its start is damaged).`);
    }
    const salt = header.subarray(MAGIC.length, MAGIC.length + 16);
    const noncePrefix = header.subarray(MAGIC.length + 16, MAGIC.length + 24);
    const key = await deriveKey(secret, salt);
    const size = (await file.stat()).size;
    let position = HEADER_BYTES;
    for (let index = 0; ; index++) {
      const lengthBytes = await readAt(file, position, 4);
      if (lengthBytes.length < 4) throw new BackupUnreadableError(`${path} ends before its last part: it was cut short while being written or copied.`);
      const plainLength = lengthBytes.readUInt32BE();
      if (plainLength > CHUNK_BYTES) throw new BackupUnreadableError(WRONG_KEY_OR_ALTERED);
      const sealed = await readAt(file, position + 4, plainLength + TAG_BYTES);
      if (sealed.length < plainLength + TAG_BYTES)
        throw new BackupUnreadableError(`${path} ends before its last part: it was cut short while being written or copied.`);
      position += 4 + sealed.length;
      const last = position === size;
      const decipher = createDecipheriv('aes-256-gcm', key, nonceFor(noncePrefix, index));
      decipher.setAAD(additionalData(header, last));
      decipher.setAuthTag(sealed.subarray(plainLength));
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(sealed.subarray(0, plainLength)), decipher.final()]);
      } catch {
        throw new BackupUnreadableError(WRONG_KEY_OR_ALTERED);
      }
      yield plain;
      if (last) return;
    }
  } finally {
    await file.close();
  }
}

/** Pulls exact byte counts out of a chunk stream. */
function byteReader(chunks: AsyncGenerator<Buffer>) {
  let buffer: Buffer = Buffer.alloc(0);
  let ended = false;
  async function fill(wanted: number): Promise<boolean> {
    while (buffer.length < wanted && !ended) {
      const next = await chunks.next();
      if (next.done) ended = true;
      else buffer = buffer.length === 0 ? next.value : Buffer.concat([buffer, next.value]);
    }
    return buffer.length >= wanted;
  }
  return {
    async atEnd() {
      return !(await fill(1));
    },
    async take(length: number): Promise<Buffer> {
      if (!(await fill(length))) throw new BackupUnreadableError(WRONG_KEY_OR_ALTERED);
      const taken = buffer.subarray(0, length);
      buffer = buffer.subarray(length);
      return taken;
    },
    /** Up to `most` bytes (at least one), for streaming an entry's body. */
    async some(most: number): Promise<Buffer> {
      if (!(await fill(1))) throw new BackupUnreadableError(WRONG_KEY_OR_ALTERED);
      const taken = buffer.subarray(0, Math.min(most, buffer.length));
      buffer = buffer.subarray(taken.length);
      return taken;
    },
  };
}

export type ArchiveEntry = { name: string; size: number; body: AsyncIterable<Buffer> };

/**
 * The archive's entries in order. Each entry's body must be read (or left: it is skipped) before
 * the next is asked for. Throws BackupUnreadableError on a wrong key, an altered byte or a cut.
 */
export async function* readArchive(path: string, secret: string): AsyncGenerator<ArchiveEntry> {
  const reader = byteReader(plaintextChunks(path, secret));
  while (!(await reader.atEnd())) {
    const nameLength = (await reader.take(4)).readUInt32BE();
    if (nameLength > 4096) throw new BackupUnreadableError(WRONG_KEY_OR_ALTERED);
    const name = (await reader.take(nameLength)).toString('utf8');
    const size = Number((await reader.take(8)).readBigUInt64BE());
    let left = size;
    const nextPiece = async (): Promise<IteratorResult<Buffer>> => {
      if (left === 0) return { value: undefined, done: true };
      const piece = await reader.some(Math.min(left, CHUNK_BYTES));
      left -= piece.length;
      return { value: piece, done: false };
    };
    // An iterator without `return`: a caller that stops reading early leaves the rest to be skipped below.
    const body: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => ({ next: nextPiece }) };
    yield { name, size, body };
    while (left > 0) await nextPiece();
  }
}
