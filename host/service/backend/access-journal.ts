import { openServiceSessions } from '../../../ledger/index.js';
import type { SessionJournal } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';

/** Who entered and left service mode, who was refused, and the security faults of sign-in. */
export function accessJournal(d: Pick<LiveBackendDeps, 'ledger' | 'log' | 'floor'>): Omit<SessionJournal, 'ended'> {
  return {
    enter(who, staff, role) {
      return d.ledger.append({ type: 'service.enter', payload: { who, staff, role } }).entry.seq;
    },

    exit(who, staff, reason, enterSeq) {
      d.ledger.append({ type: 'service.exit', payload: { who, staff, reason, enterSeq } });
    },

    closeOpen() {
      const open = openServiceSessions(d.ledger);
      for (const s of open) d.ledger.append({ type: 'service.exit', payload: { who: s.who, staff: s.staff, reason: 'power-loss', enterSeq: s.seq } });
      if (open.length > 0)
        d.log.warn({ sessions: open.map((s) => s.staff) }, 'service sessions left open by the previous run journalled as exited (power-loss)');
      return open.length;
    },

    denied(staff, reason, lockedUntil) {
      d.ledger.append({ type: 'service.denied', payload: { staff, reason, ...(lockedUntil ? { lockedUntil } : {}) } });
    },

    raiseFault(kind, at) {
      d.floor.tilts.raise(kind, at);
    },
  };
}
