// The table's faults that the floor must hear of (issue 49 item 3), raised as alarms from the
// table's own journal as it syncs: its records failing their check (`ledger-integrity`), its
// accounts store or its peers' files differing from the journal (`accounts-integrity`,
// `peer-integrity`) — `kiosk-integrity` — and a receipt of this upstream that did not verify at the
// table (`upstream-receipt`) — `bad-receipt`. Raised in the batch's transaction, once per entry up to
// FAULT_ALARMS_EACH of a fault, the rest of it as one (an entry is stored once, under its head's lock).
import { raiseAlarm } from '../alarm.js';
import type { Sql } from '../sql.js';
import type { JournalColumns } from './fresh-rows.js';

/** The fault kinds (of `tilt.raise`) alarmed, and the alarm each raises. */
export const KIOSK_FAULT_ALARMS: Readonly<Record<string, 'kiosk-integrity' | 'bad-receipt' | 'config-order'>> = {
  'ledger-integrity': 'kiosk-integrity',
  'accounts-integrity': 'kiosk-integrity',
  'peer-integrity': 'kiosk-integrity',
  'upstream-receipt': 'bad-receipt',
  // A configuration order of the back office's the table refused (or did not believe): issue 49 item 6.
  'config-order': 'config-order',
};

/** The alarm kinds this raises. */
export const KIOSK_ALARM_KINDS = ['kiosk-integrity', 'bad-receipt', 'config-order'] as const;

/** How many of a batch's faults of one kind raise an alarm each (an honest table journals one at a time: each refused order, each fault). */
export const FAULT_ALARMS_EACH = 10;

/** One fault entry's detail, as its alarm holds it. */
type FaultDetail = Record<string, unknown> & { seq: number };

/**
 * Raises an alarm for each of the batch's `tilt.raise` entries of an alarmed kind,
 * `{seq, fault, detail?, station?}`, up to FAULT_ALARMS_EACH of one fault; past them, one alarm
 * more for the rest of that fault: the first's detail with their `count` and every one's `seqs`
 * (the journal keeps each entry). One alarm per entry let one batch of 4,000 push every other
 * table's alarms off the back office's list (a review).
 */
export async function raiseKioskFaultAlarms(tx: Sql, terminal: string, cols: JournalColumns): Promise<void> {
  const byFault = new Map<string, { alarm: string; details: FaultDetail[] }>();
  for (let i = 0; i < cols.type.length; i++) {
    if (cols.type[i] !== 'tilt.raise') continue;
    const payload = payloadOf(cols.body[i] ?? '');
    const fault = typeof payload.kind === 'string' ? payload.kind : null;
    const alarm = fault !== null && Object.hasOwn(KIOSK_FAULT_ALARMS, fault) ? KIOSK_FAULT_ALARMS[fault] : undefined;
    if (!alarm || fault === null) continue;
    const details = byFault.get(fault)?.details ?? [];
    details.push({
      seq: cols.seq[i] as number,
      fault,
      ...(typeof payload.detail === 'string' ? { detail: payload.detail.slice(0, 2000) } : {}),
      ...(Number.isSafeInteger(payload.station) ? { station: payload.station } : {}),
    });
    byFault.set(fault, { alarm, details });
  }
  for (const { alarm, details } of byFault.values()) {
    for (const d of details.slice(0, FAULT_ALARMS_EACH)) await raiseAlarm(tx, terminal, alarm, d);
    const rest = details.slice(FAULT_ALARMS_EACH);
    const first = rest[0];
    if (first) await raiseAlarm(tx, terminal, alarm, { ...first, count: rest.length, seqs: rest.map((d) => d.seq) });
  }
}

/** The entry's payload as an object ({} when the body has none): the body was checked to be JSON by the ingest. */
export function payloadOf(body: string): Record<string, unknown> {
  const doc = JSON.parse(body) as unknown;
  const payload = typeof doc === 'object' && doc !== null && 'payload' in doc ? doc.payload : null;
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
}
