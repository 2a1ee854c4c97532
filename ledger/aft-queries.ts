import { z } from 'zod';
import { AFT_PAYLOADS, type AftEntryType } from './aft-terms.js';
import { AFT_REGISTER_PAYLOADS } from './aft-register-terms.js';
import { connectionOf, type Ledger } from './ledger.js';

// The station's AFT transfers as the casino system's interrogation reads them (0x72 FE/FF,
// docs/sas.md "AFT"): from the journal, newest first.

/** A transfer as journalled, with its place among the station's transfers and the cumulative amount of its direction after it. */
export interface AftTransfer {
  seq: number;
  type: AftEntryType;
  payload: z.infer<(typeof AFT_PAYLOADS)['aft.in']>;
  /** 1 for the station's first transfer. */
  ordinal: number;
  /** Minor units of this direction up to and including it. */
  cumulative: number;
  /** The journal's time of the entry (ms). */
  at: number;
}

interface Row {
  seq: number;
  type: string;
  body: string;
  ts: string;
  ordinal: number;
  cumulative: number;
}

const Body = z.object({ payload: z.unknown() });

/**
 * A transfer's cumulative as the 0x72 answer gives it: the meter of its direction (A0 in, B8 out;
 * 0x2F), which a clear of the station's meters (`meter.clear`, scope `station:N`, two people and
 * the regulator's reference) sets to 0. The index keeps the journal's whole sum; what it held at
 * the station's last clear before the transfer is taken off here. Clears are a few in a cabinet's
 * life: the lookup walks the `meter.clear` entries by their type's index. (A review: after a clear,
 * the answer went on from the old sum while meter A0 started again at 0.)
 */
const CUMULATIVE = `a.cumulative - COALESCE((
    SELECT b.cumulative FROM aft_transfers AS b
     WHERE b.station = a.station AND b.direction = a.direction
       AND b.seq < (SELECT MAX(c.seq) FROM journal AS c
                     WHERE c.type = 'meter.clear' AND c.seq < a.seq
                       AND json_extract(c.body, '$.payload.scope') = 'station:' || a.station)
     ORDER BY b.seq DESC LIMIT 1), 0)`;

const COLUMNS = `j.seq AS seq, j.type AS type, j.body AS body, j.ts AS ts, a.ordinal AS ordinal, ${CUMULATIVE} AS cumulative`;

/**
 * The station's transfers, newest first, skipping `skip`, at most `limit`: the rows of migration
 * 10's table (ledger/aft-index.ts) walked from the station's newest, so the cost is the rows read
 * and never the journal's length.
 */
export function aftTransfersAt(ledger: Ledger, station: number, skip: number, limit: number): AftTransfer[] {
  const rows = connectionOf(ledger)
    .prepare(`SELECT ${COLUMNS} FROM aft_transfers AS a JOIN journal AS j ON j.seq = a.seq WHERE a.station = ? ORDER BY a.seq DESC LIMIT ? OFFSET ?`)
    .all(station, limit, skip) as Row[];
  return rows.flatMap(transferOf);
}

/**
 * The newest of the station's transfers at a position of a history buffer of `size` that wraps
 * (1 for the first transfer, `size` + 1 for the one after it is full: 0x72 interrogation 01–7F);
 * undefined when no transfer sits there yet. Two lookups in the index, whatever the journal holds.
 */
export function aftTransferAtPosition(ledger: Ledger, station: number, position: number, size: number): AftTransfer | undefined {
  const newest = newestOrdinal(ledger, station);
  if (newest === undefined || position < 1 || position > size || newest < position) return undefined;
  // The greatest ordinal up to the newest that sits at `position` (ordinal ≡ position, modulo `size`).
  return byOrdinal(ledger, station, newest - ((newest - position) % size));
}

/** The station's transfer `back` before its newest (0 the newest: 0x72 interrogation 81–FF); two lookups in the index. */
export function aftTransferBack(ledger: Ledger, station: number, back: number): AftTransfer | undefined {
  const newest = newestOrdinal(ledger, station);
  return newest === undefined || back < 0 || back >= newest ? undefined : byOrdinal(ledger, station, newest - back);
}

function newestOrdinal(ledger: Ledger, station: number): number | undefined {
  return connectionOf(ledger).prepare('SELECT ordinal FROM aft_transfers WHERE station = ? ORDER BY seq DESC LIMIT 1').pluck().get(station) as
    number | undefined;
}

function byOrdinal(ledger: Ledger, station: number, ordinal: number): AftTransfer | undefined {
  const row = connectionOf(ledger)
    .prepare(`SELECT ${COLUMNS} FROM aft_transfers AS a JOIN journal AS j ON j.seq = a.seq WHERE a.station = ? AND a.ordinal = ?`)
    .get(station, ordinal) as Row | undefined;
  return row ? transferOf(row)[0] : undefined;
}

function transferOf(r: Row): AftTransfer[] {
  const type = r.type === 'aft.in' || r.type === 'aft.out' ? r.type : null;
  const body = Body.safeParse(JSON.parse(r.body));
  const p = type && body.success ? AFT_PAYLOADS[type].safeParse(body.data.payload) : null;
  return type && p?.success ? [{ seq: r.seq, type, payload: p.data, ordinal: r.ordinal, cumulative: r.cumulative, at: Date.parse(r.ts) }] : [];
}

/** The station's newest AFT registration entry (0x73, ledger/aft-register-terms.ts): its registration as it stands; null if it never had one. */
export function newestAftRegistration(ledger: Ledger, station: number): AftRegistration | null {
  const row = connectionOf(ledger)
    .prepare(`SELECT seq, body FROM journal WHERE type = 'aft.register' AND json_extract(body, '$.payload.station') = ? ORDER BY seq DESC LIMIT 1`)
    .get(station) as { seq: number; body: string } | undefined;
  if (!row) return null;
  const body = Body.safeParse(JSON.parse(row.body));
  const p = body.success ? AFT_REGISTER_PAYLOADS['aft.register'].safeParse(body.data.payload) : null;
  return p?.success ? { seq: row.seq, payload: p.data } : null;
}

export interface AftRegistration {
  seq: number;
  payload: z.infer<(typeof AFT_REGISTER_PAYLOADS)['aft.register']>;
}
