import type { Kysely } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../media/storage.ts';
import type { Profile } from '../accounts/profiles.ts';
import type { LeadIds } from '../leads/leads.ts';

/**
 * What a table holds about people, said by the domain that owns the table, next to its code
 * (decision 104). The privacy service (server/accounts/privacy.ts) builds a person's download and
 * erases their account from these declarations alone, and a test
 * (tests/integration/personal-data-declared.test.ts) fails on a migrated column that looks
 * personal and no declaration covers, so a new table cannot hold a phone number unnoticed.
 */
export type PersonalData = {
  table: keyof DB & string;
  /** Each column that holds personal data, and what it is. */
  personal: Record<string, string>;
  /** Columns whose names look personal but are not (a car's name), each with the reason. */
  notPersonal?: Record<string, string>;
  /** How a person's rows are found: by their account id, their email, their verified phone, or through another table. */
  foundBy: string;
  export: Export;
  erase: Erasure;
  /** How long rows are kept when nobody asks, where a period applies; `purge` enforces it. */
  retention?: string;
  /** Deletes the rows past their period, run hourly by server/privacy/retention.ts. */
  purge?: Purge;
};

/** What a purge may use. */
export type PurgeDeps = {
  database: Database;
  clock: { now(): number };
  storage: Storage;
  /** Where the rental handover and return photos are (deleted with their booking). */
  privateStorage: Storage;
  logger: Pick<Logger, 'warn' | 'info' | 'error'>;
};

/**
 * A table's retention, said by its domain: `run` deletes what is past its period and answers how
 * many rows went, under `report` in the purge's report. Idempotent and safe on several instances
 * at once: it deletes only rows already past their period.
 */
export type Purge = { report: string; run: (deps: PurgeDeps, now: Date) => Promise<number> };

/** `months` calendar months before `now`. */
export function monthsBefore(now: Date, months: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** The rows a delete removed. */
export const deletedRows = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/** What every export section may read: the person's id, profile and the leads matched to them. */
export type ExportContext = { database: Database; siteOrigin: string; userId: string; profile: Profile | null; leads: LeadIds; now: Date };

export type Export =
  /** A section of the download, under this key. */
  | { section: string; gather: (context: ExportContext) => Promise<unknown> }
  /** Shown inside another table's section. */
  | { within: string }
  /** Not in the download, and why. */
  | { omitted: string };

/** The person whose account is being deleted, as erasure finds their rows. */
export type Person = {
  userId: string;
  /** The email as the account has it, and lower-cased (admins and outbox copies may hold either). */
  email: string;
  normalisedEmail: string;
  profile: Profile | null;
  /** Their leads, matched by the phone they verified (server/accounts/privacy.ts leadIdsOf). */
  leads: LeadIds;
};

export type ErasureDeps = {
  database: Database;
  storage: Storage;
  /** Where the driving-licence photos are. */
  privateStorage?: Storage | undefined;
  logger: Pick<Logger, 'warn' | 'info'>;
};

/** Run after the rows are gone: deletes the stored files they pointed to. */
export type FileCleanup = (deps: ErasureDeps) => Promise<void>;

export type Erasure =
  /** Rows removed inside the one transaction that deletes the account. */
  (
    | { action: 'delete'; rows: (trx: Kysely<DB>, person: Person) => Promise<unknown> }
    /** Rows kept with their personal columns blanked, in that transaction, and why they are kept. */
    | { action: 'anonymise'; rows: (trx: Kysely<DB>, person: Person) => Promise<unknown>; reason: string }
    /**
     * Rows removed on their own before that transaction, with their files; the count is what the
     * person is told was erased (their leads).
     */
    | { action: 'delete'; alone: (deps: ErasureDeps, person: Person) => Promise<number> }
    /** Kept as they are, and why (the dealer's accounts, a row that goes with its parent, nothing tying it to the account). */
    | { action: 'keep'; reason: string }
  ) & {
    /** Read before the rows go: the stored files to delete once they have (photos). */
    files?: (database: Database, person: Person) => Promise<FileCleanup>;
  };

/** A declaration for a table that holds nothing personal, only columns whose names look as if they might. */
export function notPersonal(table: PersonalData['table'], columns: Record<string, string>): PersonalData {
  return {
    table,
    personal: {},
    notPersonal: columns,
    foundBy: 'not at all: nothing in it is about a person',
    export: { omitted: 'nothing personal' },
    erase: { action: 'keep', reason: 'nothing personal' },
  };
}

/** The personal columns every visit booking has (test drives and inspections, server/appointments/home-visit.ts). */
export const VISIT_BOOKING_PERSONAL = {
  user_id: 'who booked it',
  name: 'their name',
  phone: 'their number',
  email: 'their email',
  pin_code: "a home visit's PIN code",
  street: "a home visit's address",
  landmark: "a home visit's landmark",
} as const;
