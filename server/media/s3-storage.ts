import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { ServiceUnavailableError } from '../errors.ts';
import { isSafeKey, type Storage } from './storage.ts';

export type S3Settings = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

/**
 * How long one storage call may take before the person is told to try again: a photo upload
 * answers a clear 503 within this, never hangs on a storage server that stopped answering.
 */
export const STORAGE_TIMEOUT_MS = 5_000;

export const STORAGE_UNAVAILABLE = 'Photo storage is not answering right now, so nothing was saved. Please try again in a few minutes.';
const PHOTO_UNAVAILABLE = 'Photo storage is not answering right now. Please try again in a few minutes.';

/**
 * One client per server, shared by the public and the private storage. Checksums only when the
 * operation requires them: S3-compatible servers other than AWS (s3rver, older MinIO, some CDNs'
 * storage) refuse or ignore the CRC32 trailers that client-s3 sends by default since 3.729.
 */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // One quick retry for a dropped connection; the whole call is bounded by STORAGE_TIMEOUT_MS.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: STORAGE_TIMEOUT_MS },
  });
}

/**
 * A `Storage` over one bucket: every key lives under `prefix` ('media/' for what the public may
 * fetch, 'private/' for licence photos). `cacheControl` is stored with each object, so a CDN or
 * the bucket serving it directly sends the same caching the app would.
 */
export function createS3Storage(
  client: S3Client,
  options: { bucket: string; prefix: string; cacheControl: string; logger: { warn: (context: object, message: string) => void } },
): Storage {
  const { bucket, prefix, cacheControl, logger } = options;
  const objectKey = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return `${prefix}${key}`;
  };
  /** Runs one call within the time limit; a refusal or silence of the storage server becomes a 503 the person can read. */
  async function call<T>(work: (abortSignal: AbortSignal) => Promise<T>, message = STORAGE_UNAVAILABLE): Promise<T> {
    try {
      return await work(AbortSignal.timeout(STORAGE_TIMEOUT_MS));
    } catch (error) {
      // Wrong keys or a missing bucket look the same to the person; the log tells the operator.
      if (!isMissing(error)) logger.warn({ err: error, bucket }, 'object storage: a call failed');
      throw new ServiceUnavailableError(message, { cause: error });
    }
  }
  return {
    async put(key, body, contentType) {
      const Key = objectKey(key);
      await call((abortSignal) =>
        client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: body, ContentType: contentType, CacheControl: cacheControl }), { abortSignal }),
      );
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      const Key = objectKey(key);
      try {
        // Read whole (a WebP variant is at most a few hundred kB) within the time limit: a
        // storage server that stops half way is a clear 503, not a picture cut off under a 200,
        // and a slow phone reading the answer never holds a connection to the bucket open.
        return await call(async (abortSignal) => {
          const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key }), { abortSignal });
          const bytes = await object.Body!.transformToByteArray();
          return { body: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), size: bytes.byteLength };
        }, PHOTO_UNAVAILABLE);
      } catch (error) {
        if (error instanceof ServiceUnavailableError && isMissing(error.cause)) return null;
        throw error;
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      await call((abortSignal) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }), { abortSignal }));
    },
    async *keys() {
      let token: string | undefined;
      do {
        const page = await call((abortSignal) =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }), { abortSignal }),
        );
        for (const object of page.Contents ?? []) {
          const key = (object.Key ?? '').slice(prefix.length);
          if (isSafeKey(key)) yield key;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async answers(timeoutMs) {
      return client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) }).then(
        () => true,
        () => false,
      );
    },
  };
}

/** The object is not there (a 404 for a photo); a missing bucket is a fault of the setup, told to the operator. */
function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && error.name !== 'NoSuchBucket' && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}
