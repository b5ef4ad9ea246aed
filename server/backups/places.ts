import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where backups are kept (decision 112): a folder (by default DATA_DIR/backups; a real site puts
 * it on another disk) or a bucket (`s3://bucket/prefix`, with the site's S3_* credentials). A
 * backup is written under a `.partial` name and takes its final name only once whole, so a
 * backup killed halfway is never listed, never pruned into, and never offered for restore.
 */
export type BackupPlace = {
  /** For people: where the backups are. */
  description: string;
  /** The finished backups, by name. */
  list(): Promise<{ name: string; bytes: number }[]>;
  /** A local file to write a new backup into, then `publish` it under its name. */
  staging(name: string): Promise<string>;
  publish(stagingFile: string, name: string): Promise<void>;
  /** A local file holding the named backup, and what to do when done with it. */
  open(name: string): Promise<{ file: string; done: () => Promise<void> }>;
  remove(name: string): Promise<void>;
};

/** Backup names: `gaadi-backup-20261128T183000Z.gbk`, the instant it began. */
export const BACKUP_SUFFIX = '.gbk';
const PARTIAL_SUFFIX = '.partial';

export function backupName(startedMs: number): string {
  return `gaadi-backup-${new Date(startedMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}${BACKUP_SUFFIX}`;
}

/** When a backup began, from its name; null for a name this app did not give. */
export function startedMsOf(name: string): number | null {
  const match = /^gaadi-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.gbk$/.exec(path.basename(name));
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  return Number.isNaN(ms) ? null : ms;
}

export function folderPlace(folder: string): BackupPlace {
  return {
    description: folder,
    async list() {
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const found = [];
      for (const name of names.filter((candidate) => startedMsOf(candidate) !== null)) {
        found.push({ name, bytes: (await stat(path.join(folder, name))).size });
      }
      return found;
    },
    async staging(name) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      return path.join(folder, `${name}${PARTIAL_SUFFIX}`);
    },
    async publish(stagingFile, name) {
      await rename(stagingFile, path.join(folder, name));
    },
    async open(name) {
      return { file: path.join(folder, path.basename(name)), done: async () => {} };
    },
    async remove(name) {
      await rm(path.join(folder, path.basename(name)), { force: true });
    },
  };
}

/** A bucket: each backup is staged in `stagingFolder` on this disk, then uploaded whole. */
export function bucketPlace(client: S3Client, bucket: string, prefix: string, stagingFolder: string): BackupPlace {
  const keyOf = (name: string) => `${prefix}${path.basename(name)}`;
  return {
    description: `s3://${bucket}/${prefix}`,
    async list() {
      const found: { name: string; bytes: number }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const name = (object.Key ?? '').slice(prefix.length);
          if (startedMsOf(name) !== null) found.push({ name, bytes: object.Size ?? 0 });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found;
    },
    async staging(name) {
      await mkdir(stagingFolder, { recursive: true, mode: 0o700 });
      return path.join(stagingFolder, `${name}${PARTIAL_SUFFIX}`);
    },
    async publish(stagingFile, name) {
      // An upload that fails leaves no object under the name: S3 makes an object visible only whole.
      const { size } = await stat(stagingFile);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(name),
          Body: createReadStream(stagingFile),
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      );
      await rm(stagingFile, { force: true });
    },
    async open(name) {
      await mkdir(stagingFolder, { recursive: true, mode: 0o700 });
      const file = path.join(stagingFolder, `${path.basename(name)}.download`);
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(name) }));
      await pipeline(object.Body as Readable, createWriteStream(file, { mode: 0o600 }));
      return { file, done: () => rm(file, { force: true }) };
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(name) }));
    },
  };
}
