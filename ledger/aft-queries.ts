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

/** The station's transfers, newest first, skipping `skip`, at most `limit`. */
export function aftTransfersAt(ledger: Ledger, station: number, skip: number, limit: number): AftTransfer[] {
  const rows = connectionOf(ledger)
    .prepare(
      `SELECT seq, type, body, ts,
              (SELECT COUNT(*) FROM journal AS o WHERE o.type IN ('aft.in', 'aft.out') AND o.seq <= j.seq
                 AND json_extract(o.body, '$.payload.station') = ?) AS ordinal,
              (SELECT SUM(json_extract(o.body, '$.payload.amount')) FROM journal AS o WHERE o.type = j.type AND o.seq <= j.seq
                 AND json_extract(o.body, '$.payload.station') = ?) AS cumulative
         FROM journal AS j WHERE type IN ('aft.in', 'aft.out') AND json_extract(body, '$.payload.station') = ?
         ORDER BY seq DESC LIMIT ? OFFSET ?`,
    )
    .all(station, station, station, limit, skip) as Row[];
  return rows.flatMap((r) => {
    const type = r.type === 'aft.in' || r.type === 'aft.out' ? r.type : null;
    const body = Body.safeParse(JSON.parse(r.body));
    const p = type && body.success ? AFT_PAYLOADS[type].safeParse(body.data.payload) : null;
    return type && p?.success ? [{ seq: r.seq, type, payload: p.data, ordinal: r.ordinal, cumulative: r.cumulative, at: Date.parse(r.ts) }] : [];
  });
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
