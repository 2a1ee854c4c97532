import { serviceSaid } from '../../config/refusal-words.js';
import { tiltDetailSaid } from '../../../locales/said.js';
import { refusedBy, tableRefused } from '../refusal-words.js';
import type { LiveTable } from '../../table/runtime.js';
import type { Outcome } from '../../../engine/table/game.js';
import type { BackendResult, HoldsPart, StatusPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, recordOrLog, serviceActionEntry, type ActDetail, type ServiceJournal } from './service-journal.js';
import { tableClosed } from './table-summary.js';

/**
 * The shoe is spent: finished, or its cut card out (the table display's "last round of the shoe",
 * a flag the seat count given does not change).
 */
const shoeSpent = (table: LiveTable): boolean => table.state.needsShuffle || table.reads.tableExtras(0).lastRound === true;

/** The table's refusal of a declared new shoe as the person is told it: by key (the journal's, a stopped table's). */
const shoeRefused = (r: Extract<Outcome, { ok: false }>, currency: string): BackendResult => tableRefused(r, currency);

/**
 * The table's switches: a new shoe, the table closed or reopened, a fault cleared. A declared new
 * shoe, a reopening and a fault cleared carry their `service.action` record in their own write (the
 * table's `shoe-loaded` step, the fault's `tilt.clear`): both are written or neither, so a refusal
 * is told as such, the table as it was, and asking again makes the switch once
 * (table-actions-record-refused.test.ts). Two stand whatever becomes of their record, which a
 * journal refusing it only logs: the table closed (its fault is held even when the journal refuses
 * its raise: the safe side) and a simulated shoe reloaded (its load comes back from the device, as
 * a real shoe's does, in a write of its own).
 */
export function tableActions(
  d: Pick<LiveBackendDeps, 'table' | 'floor' | 'config'> & { shoe: Pick<LiveBackendDeps['shoe'], 'simulator'>; log: Parameters<typeof recordOrLog>[1] },
  journal: ServiceJournal,
): Pick<HoldsPart, 'newShoe' | 'setTableOpen'> & Pick<StatusPart, 'clearTilt'> {
  const record = (who: string, action: string, detail: ActDetail): void => recordOrLog(journal, d.log, [who], action, detail);
  return {
    newShoe(who) {
      if (d.table.reads.view().phase === 'dealing') return refusedBy(serviceSaid('tableDealing'), 'busy');
      const article = d.table.game.rules.limitRules.shoeEndsEarlyOnlyWithoutStakes;
      if (article && !shoeSpent(d.table) && d.table.state.chips.some((c) => c.amount > 0))
        return refusedBy({ key: 'service.ruleRefusal.shoe-end-with-stakes', values: { article } });
      const sim = d.shoe.simulator();
      // A simulated shoe is reloaded (its shoeLoaded event starts the new shoe); a real shoe reports
      // its own loading, and this is the supervisor's declaration that a new shoe is in.
      if (sim) {
        sim.loadShoe();
        record(who, 'new-shoe', actDetailSaid('actShoeSimulated'));
      } else {
        const r = d.table.shoe.onNewShoe(undefined, [serviceActionEntry([who], 'new-shoe', actDetailSaid('actShoeDeclared'))]);
        if (!r.ok) return shoeRefused(r, d.config.currency);
      }
      return { ok: true, key: 'service.done.newShoe' };
    },

    setTableOpen(open, who) {
      // A closed table is a fault of its own (table-closed: new bets stop, a supervisor reopens), so
      // no other fault's clearing, such as the upstream coming back, reopens it.
      const tilts = d.floor.tilts;
      if (!open) {
        tilts.raise('table-closed', { say: tiltDetailSaid('tableClosed', { who }) });
        record(who, 'table-close', '');
        return { ok: true, key: 'service.done.tableClose' };
      }
      if (tableClosed(d.floor)) {
        const r = tilts.clear('table-closed', undefined, { user: who, role: 'supervisor' }, [serviceActionEntry([who], 'table-open', '')]);
        if (!r.ok) return refusedBy(r.say);
      } else record(who, 'table-open', '');
      return { ok: true, key: 'service.done.tableOpen' };
    },

    clearTilt(kind, station, who, role) {
      // The detail by key: the fault by its words (`fault`, its kind's code), its station.
      const detail = station !== undefined ? actDetailSaid('actClearTiltAt', { fault: kind, station }) : actDetailSaid('actClearTilt', { fault: kind });
      const entry = serviceActionEntry([who], 'clear-tilt', detail);
      const r = d.floor.tilts.clear(kind, station, { user: who, role }, [entry]);
      if (!r.ok) return refusedBy(r.say);
      // The screen says the fault by its words (`fault`, locales/said.ts), never its code.
      return { ok: true, key: 'service.done.clearTilt', values: { fault: kind } };
    },
  };
}
