/**
 * A stored lead as the app names its fields: every column as it is, the two times in camel
 * case. The column lists live once, in server/db/schema.ts.
 */
export type LeadFromRow<Row extends { created_at: string; updated_at: string }> = Omit<Row, 'created_at' | 'updated_at'> & {
  createdAt: string;
  updatedAt: string;
};

export function leadFromRow<Row extends { created_at: string; updated_at: string }>(row: Row): LeadFromRow<Row> {
  const { created_at: createdAt, updated_at: updatedAt, ...columns } = row;
  return { ...columns, createdAt, updatedAt };
}
