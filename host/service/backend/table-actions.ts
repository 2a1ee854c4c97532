import { serviceSaid } from '../../config/refusal-words.js';
import { tiltDetailSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { LiveTable } from '../../table/runtime.js';
import type { HoldsPart, StatusPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { recordOrLog, type ServiceJournal } from './service-journal.js';
import { tableClosed } from './table-summary.js';

/**
 * The shoe is spent: finished, or its cut card out (the table display's "last round of the shoe",
 * a flag the seat count given does not change).
 */
const shoeSpent = (table: LiveTable): boolean => table.state.needsShuffle || table.reads.tableExtras(0).lastRound === true;

/**
 * The table's switches: a new shoe, the table closed or reopened, a fault cleared. Each switch is
 * journalled by its own part first (the shoe's entries, the fault's raise or clear, which name who
 * cleared it), so it stands whatever becomes of its `service.action` record: a record the journal
 * refuses is logged, and the person told the switch is done. Thrown, it told them it had failed,
 * and a retried new shoe declared a second shoe (table-actions-record-refused.test.ts).
 */
export function tableActions(
  d: Pick<LiveBackendDeps, 'table' | 'floor'> & { shoe: Pick<LiveBackendDeps['shoe'], 'simulator'>; log: Parameters<typeof recordOrLog>[1] },
  journal: ServiceJournal,
): Pick<HoldsPart, 'newShoe' | 'setTableOpen'> & Pick<StatusPart, 'clearTilt'> {
  const record = (who: string, action: string, detail: string): void => recordOrLog(journal, d.log, [who], action, detail);
  return {
    newShoe(who) {
      if (d.table.reads.view().phase === 'dealing') return refusedBy(serviceSaid('tableDealing'), 'busy');
      const article = d.table.game.rules.limitRules.shoeEndsEarlyOnlyWithoutStakes;
      if (article && !shoeSpent(d.table) && d.table.state.chips.some((c) => c.amount > 0))
        return refusedBy({ key: 'service.ruleRefusal.shoe-end-with-stakes', values: { article } });
      const sim = d.shoe.simulator();
      // A simulated shoe is reloaded (its shoeLoaded event starts the new shoe); a real shoe reports
      // its own loading, and this is the supervisor's declaration that a new shoe is in.
      if (sim) sim.loadShoe();
      else d.table.shoe.onNewShoe();
      record(who, 'new-shoe', sim ? 'simulated' : 'declared');
      return { ok: true, key: 'service.done.newShoe' };
    },

    setTableOpen(open, who) {
      // A closed table is a fault of its own (table-closed: new bets stop, a supervisor reopens), so
      // no other fault's clearing, such as the upstream coming back, reopens it.
      const tilts = d.floor.tilts;
      if (!open) tilts.raise('table-closed', { say: tiltDetailSaid('tableClosed', { who }) });
      else if (tableClosed(d.floor)) {
        const r = tilts.clear('table-closed', undefined, { user: who, role: 'supervisor' });
        if (!r.ok) return refusedBy(r.say);
      }
      record(who, open ? 'table-open' : 'table-close', '');
      return { ok: true, key: open ? 'service.done.tableOpen' : 'service.done.tableClose' };
    },

    clearTilt(kind, station, who, role) {
      const r = d.floor.tilts.clear(kind, station, { user: who, role });
      if (!r.ok) return refusedBy(r.say);
      // The journal's detail in codes (the fault's kind, its station), as the tilt.clear entry beside it: no sentence of the host's.
      record(who, 'clear-tilt', station !== undefined ? `${kind} station=${station}` : kind);
      // The screen says the fault by its words (`fault`, locales/said.ts), never its code.
      return { ok: true, key: 'service.done.clearTilt', values: { fault: kind } };
    },
  };
}
