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
 * then journalled before service mode's next access entry (an enter, an exit, a refusal), or at
 * the host's stop (`journalHeldAtStop`, a shutdown step before the ledger closes). A journal that
 * still refuses it then has it logged with its reason: the next start journals the session as
 * ended by `power-loss` (`closeOpen`), and the log says how it really ended.
 */
export function accessJournal(d: Pick<LiveBackendDeps, 'ledger' | 'log'> & { floor: { tilts: Pick<TiltManager, 'raise'> } }): Omit<SessionJournal, 'ended'> {
  const held: Extract<NewEntry, { type: 'service.exit' }>[] = [];
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
      // Refused (a full disk), no session starts: logged, and the screen says so in its own words.
      try {
        return d.ledger.append({ type: 'service.enter', payload: { who, staff, role } }).entry.seq;
      } catch (err) {
        d.log.error({ err, who, staff, role }, 'a PIN accepted; the journal refused its service.enter record: no session started');
        return null;
      }
    },

    exit(who, staff, reason, enterSeq) {
      journalHeld();
      const entry = { type: 'service.exit' as const, payload: { who, staff, reason, enterSeq } };
      try {
        d.ledger.append(entry);
      } catch (err) {
        held.push(entry);
        d.log.error(
          { err, who, staff, reason, enterSeq },
          'a service session ended, and the journal refused its service.exit: held, journalled at the next access entry or at the host stop',
        );
      }
    },

    journalHeldAtStop() {
      journalHeld();
      // Still refused: the ledger closes next, and the next start can only say power-loss.
      for (const entry of held.splice(0)) {
        const { who, staff, reason, enterSeq } = entry.payload;
        d.log.error(
          { who, staff, reason, enterSeq },
          'the host stopping: a service exit the journal still refuses is not journalled (the next start records it as power-loss); its true end is this line',
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
      // The PIN is refused whether or not its record is taken (the accounts store counted it):
      // a refused record is logged, not thrown, so the screen still says the PIN was refused.
      try {
        d.ledger.append({ type: 'service.denied', payload: { staff, reason, ...(lockedUntil ? { lockedUntil } : {}) } });
        return true;
      } catch (err) {
        d.log.error({ err, staff, reason, lockedUntil }, 'a PIN refused; the journal refused its service.denied record');
        return false;
      }
    },

    raiseFault(kind, at) {
      d.floor.tilts.raise(kind, at);
    },
  };
}
