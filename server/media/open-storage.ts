import path from 'node:path';
import type { Config } from '../config.ts';
import { createS3Client, createS3Storage } from './s3-storage.ts';
import { createLocalStorage, IMMUTABLE_CACHING, type Storage } from './storage.ts';

/**
 * Where photos live: under DATA_DIR by default, or in one bucket (decision 068), public ones
 * under `media/` (the path MEDIA_PUBLIC_BASE_URL serves) and licence photos under `private/`,
 * which no public URL ever names.
 */
export function openStorage(
  config: Pick<Config, 's3' | 'dataDir'>,
  logger: { warn: (context: object, message: string) => void },
): { storage: Storage; privateStorage: Storage } {
  if (!config.s3) {
    return { storage: createLocalStorage(path.join(config.dataDir, 'media')), privateStorage: createLocalStorage(path.join(config.dataDir, 'private')) };
  }
  const client = createS3Client(config.s3);
  const bucket = config.s3.bucket;
  return {
    storage: createS3Storage(client, { bucket, prefix: 'media/', cacheControl: IMMUTABLE_CACHING, logger }),
    privateStorage: createS3Storage(client, { bucket, prefix: 'private/', cacheControl: 'private, no-store', logger }),
  };
}
