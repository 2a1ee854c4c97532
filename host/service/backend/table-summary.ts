import { cardCode } from '../../../engine/cards/card.js';
import { bettingOpen } from '../../../engine/table/queries.js';
import { seatsWaiting } from '../../../engine/table/seat-change.js';
import type { FloorServices } from '../../floor/floor-services.js';
import type { LiveTable } from '../../table/runtime.js';
import type { TableSummary, HoldsPart, StatusPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';

/** Whether service mode closed the table (its own fault, so it survives a restart). */
export function tableClosed(floor: FloorServices): boolean {
  return floor.tilts.list().some((t) => t.kind === 'table-closed');
}

/** The table as the Status and Holds pages show it, and its faults. */
export function tableSummary(d: Pick<LiveBackendDeps, 'config' | 'table' | 'floor'>): Pick<HoldsPart, 'table'> & Pick<StatusPart, 'tilts'> {
  return {
    table() {
      const v = d.table.reads.view();
      const waiting = seatsWaiting(d.table.state);
      return {
        game: d.config.game,
        profile: d.config.profile,
        phase: v.phase,
        roundId: v.roundId,
        hold: v.hold,
        ...holdReads(d.table.reads.holdState()),
        ...holdCorrections(
          d.table.reads.holdState(),
          (d.table.state.held ?? []).map((h) => ({ card: cardCode(h.card) })),
        ),
        newBets: v.phase === 'betting' ? bettingOpen(d.table.state) : !d.floor.tilts.effects().newBetsStopped,
        closed: tableClosed(d.floor),
        ...(waiting !== null ? { seatsNext: waiting.slice(0, 64) } : {}),
      };
    },
    tilts() {
      return d.floor.tilts.list().map((t) => ({
        kind: t.kind,
        severity: t.severity,
        clearedBy: t.clears,
        ...(t.station !== undefined ? { station: t.station } : {}),
        clearable: t.clearable,
        // Its detail by key, where the host worded it; a device's own text stays in the journal and the log.
        ...(t.say !== undefined ? { detail: t.say } : {}),
      }));
    },
  };
}

/** The hold's sequence and the reads during it, for the Holds page (the newest 64 reads). */
function holdReads(h: ReturnType<LiveTable['reads']['holdState']>): Pick<TableSummary, 'holdReads'> {
  return h ? { holdReads: { shoeSequence: h.shoeSequence, reads: h.readsDuringHold.slice(-64) } } : {};
}

/** The hold's card and the corrections its game's text has for it, for the Holds page. */
function holdCorrections(
  h: ReturnType<LiveTable['reads']['holdState']>,
  held: readonly { card: string }[],
): Pick<TableSummary, 'holdCard' | 'corrections' | 'held'> {
  return {
    ...(h?.card ? { holdCard: h.card } : {}),
    ...(h && h.corrections.length > 0
      ? {
          corrections: h.corrections
            .slice(0, 8)
            .map((c) =>
              'rule' in c
                ? { correction: c.correction, article: c.rule.slice(0, 128) }
                : { correction: c.correction, article: c.forbiddenBy.slice(0, 128), forbidden: true },
            ),
        }
      : {}),
    ...(held.length > 0 ? { held: held.slice(0, 8).map((x) => x.card) } : {}),
  };
}
