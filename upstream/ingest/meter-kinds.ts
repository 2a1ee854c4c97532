// The note denominations and jackpot levels a table's meters projection holds, bounded. A ledger's
// `billsIn.N` takes any denomination and its `progressive….<level>` any level id: each a name of
// the projection for good (and a row per scope), so a table that sent a new one entry after entry
// grew the projection, and GET /v1/terminals/:id/meters, without end. An acceptor takes a
// currency's few notes and a progressive has at most 4 levels a round: past MAX_METER_NOTES notes
// or MAX_METER_LEVELS levels, a new one is not projected and its entry is alarmed (store.ts); the
// ones the projection holds are counted as before.
import type { Sql } from '../sql.js';
import type { FreshRows } from './fresh-rows.js';
import { LEVEL_METER_NAMES, MAX_METER_LEVELS, MAX_METER_NOTES, noteDenomination } from './report-fields.js';

const LEVEL = new RegExp(`^(?:${LEVEL_METER_NAMES.join('|')})\\.(.+)$`);

/** Of a meter's name: its note (`note:N`) or its level (`level:id`); null for a name of neither. */
function kindOf(name: string): string | null {
  const note = noteDenomination(name);
  if (note !== null) return `note:${note}`;
  const level = LEVEL.exec(name)?.[1];
  return level === undefined ? null : `level:${level}`;
}

/**
 * The batch's meter rows less those of a note or level past the bounds (the projection's own, then
 * the batch's in order, first come first kept), and the seqs of the entries that held one.
 */
export async function boundedMeterRows(tx: Sql, terminal: string, rows: FreshRows['meterRows']): Promise<{ rows: FreshRows['meterRows']; seqs: number[] }> {
  const held = await tx.query<{ name: string }>(
    `SELECT DISTINCT name FROM meters WHERE terminal_id = $1 AND (name LIKE 'billsIn.%' OR name LIKE 'progressive%.%')`,
    [terminal],
  );
  const kinds = new Set(held.rows.flatMap((r) => kindOf(r.name) ?? []));
  const count = { note: [...kinds].filter((k) => k.startsWith('note:')).length, level: [...kinds].filter((k) => k.startsWith('level:')).length };
  const out: FreshRows['meterRows'] = { seq: [], scope: [], name: [], delta: [] };
  const seqs = new Set<number>();
  rows.name.forEach((name, i) => {
    const kind = kindOf(name);
    const seq = rows.seq[i] as number;
    if (kind !== null && !kinds.has(kind)) {
      const of = kind.startsWith('note:') ? 'note' : 'level';
      if (count[of] >= (of === 'note' ? MAX_METER_NOTES : MAX_METER_LEVELS)) {
        seqs.add(seq);
        return;
      }
      kinds.add(kind);
      count[of] += 1;
    }
    out.seq.push(seq);
    out.scope.push(rows.scope[i] as string);
    out.name.push(name);
    out.delta.push(rows.delta[i] as string);
  });
  return { rows: out, seqs: [...seqs] };
}
