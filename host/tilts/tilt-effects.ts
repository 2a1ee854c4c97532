import type { RoundController } from '../table/round-controller.js';
import type { TiltManager } from './tilt-manager.js';

/**
 * Applies what the current faults disable to the rounds: a halted table pauses, new bets stop,
 * and the chips of a station that is disabled come off its spots (nothing had moved yet).
 */
export function applyTiltEffects(tilts: TiltManager, rounds: RoundController): () => void {
  let disabled = new Set<number>();
  const apply = () => {
    const e = tilts.effects();
    const kinds = (what: string) => tilts.list().filter((t) => t.disables === what).map((t) => t.kind).join(', ');
    // A card hold is the rounds' own stop, lifted by its resolution: halting them again for it
    // would turn the entered card into a card drawn while halted.
    const halting = tilts.list().filter((t) => t.disables === 'table' && t.kind !== 'card-hold');
    rounds.setHalted(halting.length > 0 ? halting.map((t) => t.kind).join(', ') : null);
    rounds.setNewBets(!e.newBetsStopped, e.halted ? kinds('table') : kinds('new-bets'));
    for (const s of e.disabledStations) if (!disabled.has(s)) rounds.clearBets(s);
    disabled = new Set(e.disabledStations);
  };
  apply();
  return tilts.onChange(apply);
}
