// Whether a copy of a ledger file holds every row of the whole file: a restored backup or a
// damaged copy (cli/sim-faults' truncated copies) checked against the file it came from. Both
// are opened read-only.
import BetterSqlite from 'better-sqlite3';

/** What the copy lacks of the whole file, table by table (rows in storage order), or null when it holds every row. */
export function rowsLost(wholeFile: string, copyFile: string): string | null {
  const whole = new BetterSqlite(wholeFile, { readonly: true, fileMustExist: true });
  const copy = new BetterSqlite(copyFile, { readonly: true, fileMustExist: true });
  try {
    const tables = whole.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
    for (const name of tables) {
      if (typeof name !== 'string') continue;
      const q = `SELECT * FROM "${name.replaceAll('"', '""')}"`;
      const a = JSON.stringify(whole.prepare(q).raw().all());
      let b: string;
      try {
        b = JSON.stringify(copy.prepare(q).raw().all());
      } catch (e) {
        return `table ${name} cannot be read (${e instanceof Error ? e.message : String(e)})`;
      }
      if (a !== b) return `table ${name} differs from the whole file's`;
    }
    return null;
  } finally {
    whole.close();
    copy.close();
  }
}
