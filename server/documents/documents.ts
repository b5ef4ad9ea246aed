import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import { indiaIso } from '../../app/lib/india-time.ts';
import type { Database } from '../db/connection.ts';
import type { DocumentKind, DocumentOwnerKind, DocumentTable } from '../db/schema.ts';
import type { Storage } from '../media/storage.ts';

/**
 * The documents the dealer issues (decision 114): PDFs kept in the private storage, which no
 * public URL names, each with a row saying what it is, whom it is about, who may download it
 * besides the desk, and its SHA-256. One document per kind and number: issuing it again returns
 * the one issued.
 */

export type IssuedDocument = {
  id: number;
  kind: DocumentKind;
  number: string;
  ownerKind: DocumentOwnerKind;
  ownerId: number;
  language: 'en' | 'hi';
  sha256: string;
  bytes: number;
  createdAt: string;
};

type Row = Selectable<DocumentTable>;

function toDocument(row: Row): IssuedDocument {
  return {
    id: Number(row.id),
    kind: row.kind,
    number: row.number,
    ownerKind: row.owner_kind,
    ownerId: Number(row.owner_id),
    language: row.language,
    sha256: row.sha256,
    bytes: Number(row.bytes),
    createdAt: indiaIso(Date.parse(row.created_at)),
  };
}

/**
 * Where a document's file is kept: its kind, number and the start of its SHA-256 in the key,
 * nothing about the person. Two makings of one document at once (the job and a download) write
 * two files; the row names the first, and the other is deleted.
 */
function storageKey(ownerKind: string, ownerId: number, kind: DocumentKind, number: string, sha256: string): string {
  return `documents/${ownerKind}-${ownerId}/${kind}-${number.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${sha256.slice(0, 12)}.pdf`;
}

export type DocumentServices = { database: Database; privateStorage: Storage; clock: { now(): number } };

/** The document of this kind and number, or null. */
export async function findIssued(database: Database, kind: DocumentKind, number: string): Promise<IssuedDocument | null> {
  const row = await database.db.selectFrom('documents').selectAll().where('kind', '=', kind).where('number', '=', number).executeTakeFirst();
  return row ? toDocument(row) : null;
}

/**
 * Keeps a document issued: the file first, then its row (a crash between them leaves a file no
 * row names, never a row without its file). Made again at once (two downloads of a document not
 * yet kept), the first row stands.
 */
export async function keepDocument(
  services: DocumentServices,
  input: { kind: DocumentKind; number: string; ownerKind: DocumentOwnerKind; ownerId: number; userId: string | null; language: 'en' | 'hi'; pdf: Buffer },
): Promise<IssuedDocument> {
  const sha256 = createHash('sha256').update(input.pdf).digest('hex');
  const key = storageKey(input.ownerKind, input.ownerId, input.kind, input.number, sha256);
  await services.privateStorage.put(key, new Uint8Array(input.pdf), 'application/pdf');
  const inserted = await services.database.db
    .insertInto('documents')
    .values({
      kind: input.kind,
      number: input.number,
      owner_kind: input.ownerKind,
      owner_id: input.ownerId,
      user_id: input.userId,
      storage_key: key,
      language: input.language,
      sha256,
      bytes: input.pdf.length,
      created_at: new Date(services.clock.now()).toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['kind', 'number']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) await services.privateStorage.delete(key);
  return (await findIssued(services.database, input.kind, input.number))!;
}

/** The documents of one sale or rental booking, oldest first (the invoice, then a credit note; the agreement, then the invoice). */
export async function documentsOf(database: Database, ownerKind: DocumentOwnerKind, ownerId: number): Promise<IssuedDocument[]> {
  const rows = await database.db
    .selectFrom('documents')
    .selectAll()
    .where('owner_kind', '=', ownerKind)
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  return rows.map(toDocument);
}

/** A person's own documents, newest first. */
export async function documentsOfUser(database: Database, userId: string): Promise<IssuedDocument[]> {
  const rows = await database.db.selectFrom('documents').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
  return rows.map(toDocument);
}

/**
 * A document's file, when `who` may have it: the desk any, a person only their own. Anyone else
 * gets null, as if it did not exist (the caller answers 404).
 */
export async function openDocument(
  services: Pick<DocumentServices, 'database' | 'privateStorage'>,
  id: number,
  who: { desk: true } | { userId: string },
  owner?: { kind: DocumentOwnerKind; id: number },
): Promise<{ document: IssuedDocument; body: ReadableStream; size: number; fileName: string } | null> {
  let query = services.database.db.selectFrom('documents').selectAll().where('id', '=', id);
  if ('userId' in who) query = query.where('user_id', '=', who.userId);
  if (owner !== undefined) query = query.where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const file = await services.privateStorage.get(row.storage_key);
  if (!file) return null;
  return { document: toDocument(row), body: file.body, size: file.size, fileName: `${row.kind}-${row.number.replace(/\//g, '-')}.pdf` };
}
