import { openServiceSessions, type NewEntry } from '../../../ledger/index.js';
import type { SessionJournal } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import type { TiltManager } from '../../tilts/tilt-manager.js';

/**
 * Who entered and left service mode, who was refused, and the security faults of sign-in.
 *
 * An exit the journal refuses (a full disk) is not thrown: a session ends from its idle timer or
 * its screen's socket closing, where a throw ends the host process, and the session is over in
 * memory already (a person gone must not stay signed in). It is logged at error level and held,
 * then journalled before service mode's next access entry (an enter, an exit, a refusal); should
 * the host stop first, the next start journals it as `power-loss` (`closeOpen`).
 */
export function accessJournal(d: Pick<LiveBackendDeps, 'ledger' | 'log'> & { floor: { tilts: Pick<TiltManager, 'raise'> } }): Omit<SessionJournal, 'ended'> {
  const held: NewEntry[] = [];
  const journalHeld = (): void => {
    try {
      for (let next = held[0]; next !== undefined; next = held[0]) {
        d.ledger.append(next);
        held.shift();
      }
    } catch (err) {
      d.log.warn({ err, held: held.length }, 'service exits refused by the journal are refused again: still held');
    }
  };
  return {
    enter(who, staff, role) {
      journalHeld();
      return d.ledger.append({ type: 'service.enter', payload: { who, staff, role } }).entry.seq;
    },

    exit(who, staff, reason, enterSeq) {
      journalHeld();
      const entry: NewEntry = { type: 'service.exit', payload: { who, staff, reason, enterSeq } };
      try {
        d.ledger.append(entry);
      } catch (err) {
        held.push(entry);
        d.log.error(
          { err, who, staff, reason, enterSeq },
          'a service session ended, and the journal refused its service.exit: held, journalled at the next access entry (as power-loss at the next start if the host stops first)',
        );
      }
    },

    closeOpen() {
      const open = openServiceSessions(d.ledger);
      for (const s of open) d.ledger.append({ type: 'service.exit', payload: { who: s.who, staff: s.staff, reason: 'power-loss', enterSeq: s.seq } });
      if (open.length > 0)
        d.log.warn({ sessions: open.map((s) => s.staff) }, 'service sessions left open by the previous run journalled as exited (power-loss)');
      return open.length;
    },

    denied(staff, reason, lockedUntil) {
      journalHeld();
      d.ledger.append({ type: 'service.denied', payload: { staff, reason, ...(lockedUntil ? { lockedUntil } : {}) } });
    },

    raiseFault(kind, at) {
      d.floor.tilts.raise(kind, at);
    },
  };
}
