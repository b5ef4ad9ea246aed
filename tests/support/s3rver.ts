import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
// s3rver ships no types; the part used here is declared in s3rver-types.d.ts beside this file.
import S3rver from 's3rver';
import { freePort } from './server.ts';

/**
 * A real server speaking the S3 protocol on 127.0.0.1 (s3rver 3.7, files in a temporary
 * directory), for the app's object storage (decision 068). It can be stopped and started again
 * on the same port with the same objects, to test an outage; several app servers may share one.
 */
export type LocalS3 = {
  /** The endpoint the app is given (S3_ENDPOINT). */
  endpoint: string;
  bucket: string;
  /** The bucket's own URL (path style): public objects are fetched from here directly. */
  bucketUrl: string;
  /**
   * The environment that points an app server at this bucket; `publicBase` also sets
   * MEDIA_PUBLIC_BASE_URL to the bucket's URL (as a CDN in front of it would be).
   */
  env: (options?: { publicBase?: boolean }) => Record<string, string>;
  /** Every object key in the bucket under `prefix`. */
  keys: (prefix?: string) => Promise<string[]>;
  /** Stops answering (the port is closed); the objects stay. */
  stop: () => Promise<void>;
  /** Answers again on the same port, with the objects it had. */
  start: () => Promise<void>;
  /** Stops for good and removes its files. */
  close: () => Promise<void>;
};

// s3rver checks request signatures against its one built-in key pair.
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export async function startLocalS3(bucket = 'gaadi-media'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'gaadi-s3-'));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let server: S3rver | null = null;
  const start = async () => {
    if (server) return;
    const starting = new S3rver({ address: '127.0.0.1', port, directory, silent: true, configureBuckets: [{ name: bucket }] });
    await starting.run();
    server = starting;
  };
  const stop = async () => {
    const running = server;
    server = null;
    await running?.close();
  };
  await start();
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const keys = async (prefix = '') => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      found.push(...(page.Contents ?? []).map((object) => object.Key!));
      token = page.NextContinuationToken;
    } while (token);
    return found;
  };
  return {
    endpoint,
    bucket,
    bucketUrl: `${endpoint}/${bucket}`,
    env: (options = {}) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      ...(options.publicBase ? { MEDIA_PUBLIC_BASE_URL: `${endpoint}/${bucket}` } : {}),
    }),
    keys,
    stop,
    start,
    close: async () => {
      client.destroy();
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
