/** A unique index of a table: its name (PostgreSQL says it) and a column only it holds (SQLite says that). */
export type UniqueRule = { constraint: string; column: string };

/**
 * Which of a table's unique rules an insert or update broke, if any: the database refusing a
 * second row is what keeps a guarantee under requests made at once, and the caller answers for
 * the rule that held. PostgreSQL names the constraint (code 23505); SQLite names the columns
 * ('UNIQUE constraint failed: test_drives.slot_start_ms, test_drives.seat'), so each rule gives
 * both, its column being one only that rule holds.
 */
export function brokenUniqueRule<Rule extends string>(error: unknown, table: string, rules: Record<Rule, UniqueRule>): Rule | null {
  const failure = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  const entries = Object.entries(rules) as Array<[Rule, UniqueRule]>;
  if (failure?.code === '23505') return entries.find(([, rule]) => rule.constraint === String(failure.constraint ?? ''))?.[0] ?? null;
  const columns = /UNIQUE constraint failed: (.*)$/m.exec(String(failure?.message ?? ''))?.[1] ?? '';
  return entries.find(([, rule]) => columns.includes(`${table}.${rule.column}`))?.[0] ?? null;
}
