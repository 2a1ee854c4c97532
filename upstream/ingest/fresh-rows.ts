// The batch's new entries (beyond the head), each checked to chain from the one before over
// SHA-256 of its body and its body checked, gathered as the columns of one INSERT, with the meter
// deltas they carry and the ticket entries among them.
import { isTicketEntryType, parseTicketEntry, type TicketEntry } from '../../terms/ticket-terms.js';
import { chainHash, sha256Hex } from '../chain.js';
import { Refused, type IngestEntry } from './batch.js';
import { checkEntryBody } from './entry-body.js';
import { isLedgerMeterName, MAX_ENTRY_METERS } from './report-fields.js';

/** The journal's columns, one array each, in the entries' order (unnest's arguments). */
export interface JournalColumns {
  readonly seq: number[];
  readonly type: string[];
  readonly tx: (string | null)[];
  readonly ts: string[];
  readonly content: string[];
  readonly prev: string[];
  readonly hash: string[];
  readonly body: string[];
}

/** One meter's deltas in the batch, summed exactly, and the first entry that moves it (named in a refusal). */
export interface MeterSum {
  delta: bigint;
  readonly seq: number;
}

export interface FreshRows {
  readonly cols: JournalColumns;
  /** The meter deltas, summed by `scope NUL name`. */
  readonly meters: Map<string, MeterSum>;
  /** Each entry's meter deltas, one row a triple (unnest's arguments): the projection adds each in the currency of its seq. */
  readonly meterRows: { seq: number[]; scope: string[]; name: string[]; delta: string[] };
  /** The ticket entries by their seq; `null` for one that does not fit its schema. */
  readonly tickets: { seq: number; entry: TicketEntry | null }[];
  /** The entries with meters no ledger writes (a name, or more than MAX_ENTRY_METERS): stored, those meters not counted, alarmed. */
  readonly unreadableMeters: number[];
}

/** The new entries as rows, chained from `prev` (the hash before the first of them); a break in the chain or a bad body refuses the batch. */
export function freshRows(terminal: string, fresh: readonly IngestEntry[], prevHash: string): FreshRows {
  let prev = prevHash;
  const cols: JournalColumns = { seq: [], type: [], tx: [], ts: [], content: [], prev: [], hash: [], body: [] };
  const meters = new Map<string, MeterSum>();
  const tickets: FreshRows['tickets'] = [];
  const meterRows: FreshRows['meterRows'] = { seq: [], scope: [], name: [], delta: [] };
  const unreadableMeters: number[] = [];
  for (const e of fresh) {
    const content = sha256Hex(e.body);
    if (chainHash(prev, content) !== e.hash) {
      throw new Refused({
        status: 422,
        error: 'bad-chain',
        seq: e.seq,
        message: `seq ${e.seq}: hash does not chain from the previous entry over SHA-256(body)`,
      });
    }
    const body = checkEntryBody(terminal, e);
    if (Array.isArray(body.meters) && !addMeters(meters, meterRows, body.meters as unknown[], e.seq)) unreadableMeters.push(e.seq);
    cols.seq.push(e.seq);
    cols.type.push(body.type);
    cols.tx.push(typeof body.txId === 'string' ? body.txId : null);
    cols.ts.push(body.ts);
    cols.content.push(content);
    cols.prev.push(prev);
    cols.hash.push(e.hash);
    cols.body.push(e.body);
    if (isTicketEntryType(body.type)) tickets.push({ seq: e.seq, entry: parseTicketEntry(body.type, body.payload) });
    prev = e.hash;
  }
  return { cols, meters, meterRows, tickets, unreadableMeters };
}

/**
 * An entry's meter deltas (`[scope, name, delta]`), added exactly (what is not of that form is
 * skipped). A sum past a safe integer refuses the batch: summed as JS numbers, two deltas of
 * 2^53 − 1 and one of 3 were projected as 18,014,398,509,481,984, and a stream of them overflowed
 * the database's bigint into a 500 (a review of 4 December). No ledger's meter leaves the safe
 * integers (ledger/derive.ts), so no honest table is refused. A meter no ledger writes is not
 * added (report-fields.ts, isLedgerMeterName), nor any of an entry of more than MAX_ENTRY_METERS:
 * false then, and the entry is alarmed.
 */
function addMeters(meters: Map<string, MeterSum>, rows: FreshRows['meterRows'], deltas: unknown[], seq: number): boolean {
  if (deltas.length > MAX_ENTRY_METERS) return false;
  let all = true;
  for (const m of deltas) {
    if (!Array.isArray(m) || typeof m[0] !== 'string' || typeof m[1] !== 'string' || !Number.isSafeInteger(m[2])) continue;
    if (!isLedgerMeterName(m[1])) {
      all = false;
      continue;
    }
    const k = `${m[0]}\u0000${m[1]}`;
    const sum = meters.get(k) ?? { delta: 0n, seq };
    sum.delta += BigInt(m[2] as number);
    if (!isSafeMeter(sum.delta)) throw meterPastSafe(seq, m[0], m[1], sum.delta);
    meters.set(k, sum);
    rows.seq.push(seq);
    rows.scope.push(m[0]);
    rows.name.push(m[1]);
    rows.delta.push(String(m[2]));
  }
  return all;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a meter's value (a projection, or a batch's deltas summed) is a safe integer, as every ledger's is. */
export const isSafeMeter = (v: bigint): boolean => v <= SAFE && v >= -SAFE;

/** The refusal of a batch that takes a meter past a safe integer. */
export function meterPastSafe(seq: number, scope: string, name: string, value: bigint): Refused {
  return new Refused({
    status: 422,
    error: 'bad-entry',
    seq,
    message: `seq ${seq}: meter ${scope} ${name} would reach ${value}, past a safe integer (2^53 - 1), as no ledger's meter does`,
  });
}
