// For the AFT interrogation's benchmark (bench/sas-aft.bench.ts): the query as it ran before
// migration 10, the baseline. Each row counted the station's AFT entries up to it and summed its
// direction's amounts, reading every AFT entry's body (json_extract) for each row asked.
// Test-only: the kiosk reads `aft_transfers` (ledger/aft-queries.ts).
import { connectionOf, type Ledger } from '../ledger.js';

const SCAN_SQL = `SELECT seq,
    (SELECT COUNT(*) FROM journal AS o WHERE o.type IN ('aft.in', 'aft.out') AND o.seq <= j.seq
       AND json_extract(o.body, '$.payload.station') = ?) AS ordinal,
    (SELECT SUM(json_extract(o.body, '$.payload.amount')) FROM journal AS o WHERE o.type = j.type AND o.seq <= j.seq
       AND json_extract(o.body, '$.payload.station') = ?) AS cumulative
  FROM journal AS j WHERE type IN ('aft.in', 'aft.out') AND json_extract(body, '$.payload.station') = ?
  ORDER BY seq DESC LIMIT ? OFFSET ?`;

/** The station's transfers newest first as the scan before migration 10 gave them: seq, place and cumulative. */
export function aftTransfersByScan(ledger: Ledger, station: number, skip: number, limit: number): { seq: number; ordinal: number; cumulative: number }[] {
  return connectionOf(ledger).prepare(SCAN_SQL).all(station, station, station, limit, skip) as { seq: number; ordinal: number; cumulative: number }[];
}
