// A database's schema against what its own migrations make: a dropped append-only trigger, a
// trigger rewritten to allow an UPDATE, an added column, table or trigger are each named. The
// reference is built in memory by running the same migrations up to the database's `user_version`,
// so the check needs no second copy of the schema to keep in step (issue 29 item 1). The ledger's
// and the small stores' beside it (ledger/sqlite-store.ts: the service accounts) are checked by this
// one function, each with its own migrations.
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';

/** What a database's schema is checked against. */
export interface SchemaReference {
  /** Makes, in an empty database in memory, what the migrations make up to `version`. */
  build(reference: Database.Database, version: number): void;
  /** Said of a trigger the migrations create and the database lacks. */
  droppedTrigger?: string;
}

/** The ledger's own migrations (ledger/migrations.ts). */
export const LEDGER_SCHEMA: SchemaReference = {
  build: (reference, version) => void migrate(reference, version),
  droppedTrigger: 'an append-only or balance trigger was dropped',
};

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

// Every row, SQLite's own names included: its `sqlite_autoindex_*` come from the migrations' own
// constraints, and a row written by hand into `sqlite_schema` (writable_schema) under a name
// beginning `sqlite_` is loaded and run at the next open like any other. The check once skipped
// names LIKE 'sqlite_%', which also skipped `sqliteAudit`, a name anyone may CREATE (LIKE reads `_`
// as any one character, and ignores case).
const rowsOf = (db: Database.Database): Map<string, SchemaRow> =>
  new Map((db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY type, name').all() as SchemaRow[]).map((r) => [`${r.type} ${r.name}`, r]));

/** Whitespace is not meaning: SQLite keeps the text as written, so compare it folded. */
const fold = (sql: string | null) => (sql ?? '').replace(/\s+/g, ' ').trim();

/** Each difference between the database's schema and its migrations', in words; empty when equal. */
export function schemaProblems(db: Database.Database, schema: SchemaReference = LEDGER_SCHEMA): string[] {
  const reference = new Database(':memory:');
  try {
    schema.build(reference, Number(db.pragma('user_version', { simple: true })));
    const want = rowsOf(reference);
    // ANALYZE's statistics tables, exactly as SQLite makes them, may be there or not: they hold
    // figures for the query planner and change no answer. Matched by type, name and whole text: a
    // trigger given a statistics table's name is still named.
    reference.exec('ANALYZE');
    const statistics = [...rowsOf(reference)].filter(([key]) => !want.has(key));
    const have = rowsOf(db);
    for (const [key, row] of statistics) if (fold(have.get(key)?.sql ?? null) === fold(row.sql)) have.delete(key);
    const problems: string[] = [];
    for (const [key, w] of want) {
      const h = have.get(key);
      if (!h)
        problems.push(
          `schema: ${w.type} ${w.name} is missing (the migrations create it)${w.type === 'trigger' && schema.droppedTrigger ? `: ${schema.droppedTrigger}` : ''}`,
        );
      else if (fold(h.sql) !== fold(w.sql)) problems.push(`schema: ${w.type} ${w.name} differs from the one its migrations create`);
    }
    for (const [key, h] of have) if (!want.has(key)) problems.push(`schema: ${h.type} ${h.name} is not one the migrations create`);
    return problems;
  } finally {
    reference.close();
  }
}
