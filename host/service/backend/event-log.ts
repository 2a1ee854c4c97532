import { canonicalJson, eventLog, newestEntriesOfType } from '../../../ledger/index.js';
import type { EventRow } from '../../../protocol/index.js';
import { severityOf, tiltKindsOfSeverity, typesOfSeverity } from '../event-severity.js';
import type { ServiceBackend } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';

/** The event log, filtered by type, severity and time, and the credits cancelled (the Cash-out page). */
export function eventLogReader(d: Pick<LiveBackendDeps, 'ledger'>): Pick<ServiceBackend, 'events' | 'cancelledCredits'> {
  return {
    events(q) {
      const { types, severity, from, to } = q.filter;
      // A fault's entries rank by its kind, which only the host knows: the ledger is given the types
      // and the kinds of the severity, and for warnings every known kind as well, since a kind none
      // of them names (a later version's) counts as a warning.
      const known = tiltKindsOfSeverity('info').concat(tiltKindsOfSeverity('warning'), tiltKindsOfSeverity('critical'));
      const ranked = severity && {
        types: typesOfSeverity(severity),
        tiltKinds: tiltKindsOfSeverity(severity),
        ...(severity === 'warning' ? { knownTiltKinds: known } : {}),
      };
      const page = eventLog(d.ledger, { types, severity: ranked, from, to }, { offset: q.offset, limit: q.limit });
      return { more: page.more, entries: page.entries.map(toEventRow) };
    },

    cancelledCredits(limit) {
      return newestEntriesOfType(d.ledger, 'credit.cancel', limit).map(toEventRow);
    },
  };
}

function toEventRow(r: { seq: number; ts: string; type: string; body: string }): EventRow {
  const payload = (JSON.parse(r.body) as { payload: Record<string, unknown> }).payload;
  const kind = typeof payload.kind === 'string' ? payload.kind : undefined;
  return { seq: r.seq, ts: r.ts, type: r.type, severity: severityOf(r.type, kind), summary: canonicalJson(payload as never).slice(0, 400) };
}
