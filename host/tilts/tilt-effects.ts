import type { LiveTable } from '../table/runtime.js';
import type { TiltManager } from './tilt-manager.js';

/**
 * Applies what the current faults stop to the table, as one `faults` input: a halted table
 * pauses, new bets stop, a disabled station's chips come off its spots (nothing had moved yet).
 */
export function applyTiltEffects(tilts: TiltManager, table: LiveTable): () => void {
  const apply = () => {
    const e = tilts.effects();
    const kinds = (what: string) =>
      tilts
        .list()
        .filter((t) => t.disables === what)
        .map((t) => t.kind)
        .join(', ');
    // A card hold is the table's own stop, lifted by its resolution: halting the table again for
    // it would turn the entered card into a card drawn while halted.
    const halting = tilts.list().filter((t) => t.disables === 'table' && t.kind !== 'card-hold');
    table.setFaults({
      halted: halting.length > 0 ? halting.map((t) => t.kind).join(', ') : null,
      newBetsStopped: !e.newBetsStopped ? null : e.halted ? kinds('table') : kinds('new-bets'),
      disabled: [...e.disabledStations],
      jackpotStopped: e.jackpotStopped ? kinds('jackpot') : null,
    });
  };
  apply();
  return tilts.onChange(apply);
}
