import type Database from 'better-sqlite3';
import { PAYLOADS } from './entries.js';
import { connectionOf, type EntryBody, type Ledger } from './ledger.js';
import { transferTxId, type TransferId } from '../terms/transfer-terms.js';

// Read-only queries of the journal's transfers between table hosts (docs/transfers.md) that the
// station credit limit's room needs on every credit in (docs/sas.md, "The station credit limit").

/** A `transfer.out` with no closing (`transfer.complete` or `transfer.reverse`) when last read. */
interface OpenOut {
  seq: number;
  id: TransferId;
  station: number;
  amount: number;
}

/**
 * Where the last read left the journal, per ledger: every `transfer.out` up to `upTo` was read, and
 * of those only `open` had no closing. A closing is never taken back (the journal is append-only),
 * so the next read looks up those by transaction id and reads the debits since: the room is asked
 * at every note, ticket and AFT question, and a walk of every transfer a table ever made would
 * grow with the journal.
 */
interface Walked {
  upTo: number;
  open: readonly OpenOut[];
}
const walkedOf = new WeakMap<Ledger, Walked>();

// Prepared once per connection: preparing it was most of a read's time (0.12 ms of about 0.24, measured).
const debitsSince = new WeakMap<Database.Database, Database.Statement>();
function debitsSinceOf(db: Database.Database): Database.Statement {
  let s = debitsSince.get(db);
  if (!s) debitsSince.set(db, (s = db.prepare(`SELECT seq, body FROM journal WHERE type = 'transfer.out' AND seq > ? ORDER BY seq`)));
  return s;
}

function openOut(row: { seq: number; body: string }): OpenOut | null {
  // The append checked the payload against its schema; read back through the same schema, not a cast.
  const p = PAYLOADS['transfer.out'].safeParse((JSON.parse(row.body) as EntryBody).payload);
  if (!p.success) return null;
  const t = p.data.transfer;
  return { seq: row.seq, id: t.id, station: t.station, amount: t.amount };
}

/**
 * The station's credit debited for a move to another table and not yet closed (offered, recalled,
 * or disputed and waiting for a person): it may come back to the station at any time (the
 * receiver's refusal reverses it, whatever the station's credit then), so what the station may be
 * credited counts it until it completes.
 */
export function transfersOutInFlight(ledger: Ledger, station: number): number {
  const db = connectionOf(ledger);
  const from = walkedOf.get(ledger) ?? { upTo: 0, open: [] };
  const since = debitsSinceOf(db).all(from.upTo) as { seq: number; body: string }[];
  const read = since.map(openOut).filter((o): o is OpenOut => o !== null);
  const open = [...from.open, ...read].filter((o) => ledger.byTxId(transferTxId('close', o.id)) === undefined);
  // Inside a transaction the rows read may yet be rolled back: what it read is used, never kept.
  if (!db.inTransaction) walkedOf.set(ledger, { upTo: since.at(-1)?.seq ?? from.upTo, open });
  return open.reduce((sum, o) => (o.station === station ? sum + o.amount : sum), 0);
}
