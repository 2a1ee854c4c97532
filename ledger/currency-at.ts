import { CURRENCY_NAMING } from '../terms/currency-naming.js';
import { connectionOf, type Ledger } from './ledger.js';

/** The currency in force at an entry's seq, as `currencyAt` reads it; one reader per page of the log (it keeps what it found per run). */
export type CurrencyAt = (seq: number) => string | null;

/**
 * The table's currency at a seq of its journal: a currency changes only with a restart (a new
 * configuration file), so a run, from one `power.reset` to the next, is in one. Its start names
 * it (from 7 December 2026); an older start does not, and then the first entry of the run that
 * always named the table's currency (a note credited, a drop count, a ticket, a transfer) says
 * it (entries before any start are read as one run). Null: no entry of the run says (a run with
 * no note, ticket or transfer): no currency is claimed. Each lookup goes by the journal's index on type.
 */
export function currencyAt(ledger: Ledger): CurrencyAt {
  const db = connectionOf(ledger);
  const startAt = db.prepare(
    "SELECT seq, json_extract(body, '$.payload.currency') AS currency FROM journal WHERE type = 'power.reset' AND seq <= ? ORDER BY seq DESC LIMIT 1",
  );
  const nextStart = db.prepare("SELECT seq FROM journal WHERE type = 'power.reset' AND seq > ? ORDER BY seq LIMIT 1");
  // The entries that always named the table's currency (terms/currency-naming.ts), the upstream's too.
  const naming = CURRENCY_NAMING.map(({ type, path }) =>
    db.prepare(`SELECT json_extract(body, '$.${path.join('.')}') AS currency FROM journal WHERE type = '${type}' AND seq > ? AND seq < ? ORDER BY seq LIMIT 1`),
  );
  const runs = new Map<number, string | null>();
  return (seq) => {
    const start = startAt.get(seq) as { seq: number; currency: unknown } | undefined;
    if (typeof start?.currency === 'string') return start.currency;
    const from = start?.seq ?? 0;
    const known = runs.get(from);
    if (known !== undefined) return known;
    const next = nextStart.get(from) as { seq: number } | undefined;
    const to = next?.seq ?? Number.MAX_SAFE_INTEGER;
    let found: string | null = null;
    for (const q of naming) {
      const r = q.get(from, to) as { currency: unknown } | undefined;
      if (typeof r?.currency === 'string') {
        found = r.currency;
        break;
      }
    }
    runs.set(from, found);
    return found;
  };
}
