import { sql, type RawBuilder } from 'kysely';
import type { DB } from './schema.ts';

/**
 * A column reference for SQL written with Kysely's `sql` template (conditions and orders built
 * before the query they go into): the table and the column are keys of the schema's types, so
 * a misspelled column fails `tsc` instead of failing at run time on one of the two databases.
 */
export function column<Table extends keyof DB & string, Column extends keyof DB[Table] & string>(table: Table, name: Column): RawBuilder<DB[Table][Column]> {
  return sql.ref(`${table}.${name}`) as RawBuilder<DB[Table][Column]>;
}
