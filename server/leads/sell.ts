import { randomBytes } from 'node:crypto';
import type { Selectable, Transaction } from 'kysely';
import { leadMessages, MAX_SELL_IMAGES, type SellInput } from '../../app/lib/lead-forms.ts';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import type { Database } from '../db/connection.ts';
import type { DB, SellSubmissionTable } from '../db/schema.ts';
import { leadFromRow, type LeadFromRow } from './rows.ts';
import type { Logger } from '../logger.ts';
import { ImageRefusedError, InvalidInputError } from '../errors.ts';
import { checkPixelBudget, deleteImage, ImageRejectedError, inspectImage, safeFileStem, storeImage, type Upload } from '../media/images.ts';
import type { Storage } from '../media/storage.ts';
import { toImageRef } from '../catalog/rows.ts';
import { largestImageUrl } from '../../app/features/sell/sell-chat.ts';
import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import type { SellEstimate } from './sell-estimate.ts';

/**
 * Sell Your Vehicle (SPEC 3, Sell submission): a car a visitor offers the dealer, with photos.
 * The fields and the photos arrive in one request and are stored together.
 */

/** The seller's car and the estimate they were shown (decision 081), kept with the submission. */
export type SellValuation = { car: SellCar; estimate: SellEstimate };

export type SellSubmission = Omit<LeadFromRow<Selectable<SellSubmissionTable>>, 'car' | 'estimate' | 'inspection_id'> & {
  images: ImageRef[];
  valuation: SellValuation | null;
  /** The inspection whose booking made this lead (migration 030), or null for the sell form's. */
  inspectionId: number | null;
};

/** The photos' folder (SPEC 7, File storage: sell_vehicles/{timestamp}_{filename}). */
export const SELL_IMAGE_PREFIX = 'sell_vehicles';

/**
 * Storage key of a photo without the variant suffix: `sell_vehicles/{timestamp}_{safe name}`,
 * with a few random characters after the name. Media is served to anyone who has the
 * address, and these are private people's cars (number plates, homes): the addresses must not
 * be guessable from a time and a common file name such as IMG_0001.jpg.
 */
export function sellImageKey(fileName: string, timestamp: number): string {
  return `${SELL_IMAGE_PREFIX}/${timestamp}_${safeFileStem(fileName)}-${randomBytes(5).toString('hex')}`;
}

function rejection(fileName: string, reason: string): ImageRefusedError {
  return new ImageRefusedError(fileName, `“${fileName}”: ${reason}`);
}

type Deps = { database: Database; storage: Storage; logger: Pick<Logger, 'error' | 'warn'> };

/**
 * Stores the photos (each checked by its content, its metadata such as GPS dropped, WebP
 * variants written) and then the submission with them in one transaction.
 *
 * - A photo refused by content or size refuses the whole submission with a message naming it,
 *   and nothing stays stored: the visitor chose the wrong file and can fix it.
 * - If storing photos fails on our side, the submission is saved without them and
 *   `imagesFailed` says so (SPEC 4: the chat text then goes without images).
 * - If saving the row fails, the photos are deleted again and the error is thrown.
 */
export async function createSellSubmission(
  deps: Deps,
  input: SellInput,
  uploads: Upload[],
  now: Date,
  /** Runs in the transaction that saves the row, with its id and photos: the admin's mail is queued there. */
  alsoInTransaction?: (trx: Transaction<DB>, saved: { id: number; images: ImageRef[] }) => Promise<void>,
  valuation: SellValuation | null = null,
): Promise<{ submission: SellSubmission; imagesFailed: boolean }> {
  if (uploads.length > MAX_SELL_IMAGES) throw new InvalidInputError(leadMessages.tooManyImages, { images: leadMessages.tooManyImages });
  // Every photo's header first (size, format, pixels; nothing decoded), then what they cost
  // together: a refused photo costs no decoding of the others.
  const sizes: Array<{ width: number; height: number }> = [];
  for (const upload of uploads) {
    try {
      sizes.push(await inspectImage(upload.source));
    } catch (error) {
      if (error instanceof ImageRejectedError) throw rejection(upload.name, error.message);
      throw error;
    }
  }
  checkPixelBudget(sizes, 'images');

  const stamp = now.getTime();
  let stored: ImageRef[] = [];
  let imagesFailed = false;
  try {
    // A seller's photos are never shared as a page: no share variant (decision 086).
    for (const upload of uploads) stored.push(await storeImage(deps.storage, upload.source, sellImageKey(upload.name, stamp)));
  } catch (error) {
    await discard(deps, stored);
    if (error instanceof ImageRejectedError) {
      const upload = uploads[stored.length];
      throw rejection(upload?.name ?? 'image', error.message);
    }
    deps.logger.error({ err: error }, 'sell form: photos could not be stored; saving the submission without them');
    stored = [];
    imagesFailed = true;
  }

  const at = now.toISOString();
  try {
    const id = await deps.database.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('sell_submissions')
        .values({
          name: input.name,
          phone: input.phone,
          vehicle: input.vehicle,
          year: input.year,
          price: input.price,
          description: input.description,
          car: valuation ? JSON.stringify(valuation.car) : null,
          estimate: valuation ? JSON.stringify(valuation.estimate) : null,
          status: 'new',
          notes: '',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (stored.length > 0) {
        await trx
          .insertInto('sell_submission_images')
          .values(
            stored.map((image, position) => ({
              submission_id: row.id,
              position,
              key: image.key,
              width: image.width,
              height: image.height,
              variant_widths: image.widths.join(','),
              created_at: at,
            })),
          )
          .execute();
      }
      await alsoInTransaction?.(trx, { id: row.id, images: stored });
      return row.id;
    });
    return {
      submission: { id, ...input, status: 'new', notes: '', images: stored, valuation, inspectionId: null, createdAt: at, updatedAt: at },
      imagesFailed,
    };
  } catch (error) {
    await discard(deps, stored);
    throw error;
  }
}

async function discard(deps: Deps, images: ImageRef[]) {
  const results = await Promise.allSettled(images.map((image) => deleteImage(deps.storage, image)));
  if (results.some((result) => result.status === 'rejected'))
    deps.logger.warn({ keys: images.map((image) => image.key) }, 'sell form: photo files left behind');
}

/** The absolute addresses of a submission's photos (largest variant), for the chat and the CSV. */
export function sellImageUrls(siteOrigin: string, images: ImageRef[]): string[] {
  return images.map((image) => largestImageUrl(siteOrigin, image));
}

/** The kept car and estimate, or null when there are none or they no longer read. */
function valuationOf(row: Pick<Selectable<SellSubmissionTable>, 'car' | 'estimate'>): SellValuation | null {
  if (!row.car || !row.estimate) return null;
  try {
    return { car: JSON.parse(row.car) as SellCar, estimate: JSON.parse(row.estimate) as SellEstimate };
  } catch {
    return null;
  }
}

function toSellSubmission(row: Selectable<SellSubmissionTable>, images: ImageRef[]): SellSubmission {
  const { car: _car, estimate: _estimate, inspection_id: inspectionId, ...lead } = leadFromRow(row);
  return { ...lead, images, valuation: valuationOf(row), inspectionId };
}

/** Submissions with their photos, in position order. */
export async function withImages(database: Database, rows: Selectable<SellSubmissionTable>[]): Promise<SellSubmission[]> {
  const ids = rows.map((row) => row.id);
  const images = new Map<number, ImageRef[]>();
  if (ids.length > 0) {
    const imageRows = await database.db
      .selectFrom('sell_submission_images')
      .select(['submission_id', 'key', 'width', 'height', 'variant_widths'])
      .where('submission_id', 'in', ids)
      .orderBy('submission_id')
      .orderBy('position')
      .execute();
    for (const image of imageRows) {
      const list = images.get(image.submission_id) ?? [];
      list.push(toImageRef(image));
      images.set(image.submission_id, list);
    }
  }
  return rows.map((row) => toSellSubmission(row, images.get(row.id) ?? []));
}

export const sellCsvHeaders = ['ID', 'Created', 'Name', 'Phone', 'Vehicle', 'Year', 'Expected Price', 'Description', 'Status', 'Notes', 'Images'] as const;

export function sellCsvRow(submission: SellSubmission, siteOrigin: string): string[] {
  return [
    String(submission.id),
    submission.createdAt,
    submission.name,
    submission.phone,
    submission.vehicle,
    submission.year,
    submission.price,
    submission.description,
    submission.status,
    submission.notes,
    sellImageUrls(siteOrigin, submission.images).join('\n'),
  ];
}
