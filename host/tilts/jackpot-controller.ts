import { jackpotPools, type JournalEntry, type Ledger } from '../../ledger/index.js';
import type { LiveTable } from '../table/runtime.js';
import type { TiltManager } from './tilt-manager.js';

/**
 * The progressive jackpot's controller check (Portugal rules 38–50; GLI-12's "controller fault").
 * The pools live twice: in the table's state (what the display shows and the next settlement
 * starts from) and in the ledger (a liability per level). Each level as the table holds it must
 * be the ledger's pool plus what the house committed and no entry journalled yet (the start
 * value, a reset). When they disagree — a database restored from an older copy, a program changed
 * under pools already journalled, a level the ledger holds that the program lost — the jackpot
 * cannot settle honestly: its chip is refused (`jackpot-controller`, the rest of the table plays
 * on) until they agree again. Checked at start, after every entry that moves a pool, and when the
 * table's program changes.
 */
export function watchJackpotController(d: { ledger: Ledger; table: LiveTable; tilts: TiltManager }): () => void {
  const check = () => {
    const problem = jackpotProblem(d.ledger, d.table);
    if (problem) d.tilts.raise('jackpot-controller', { detail: problem });
    else d.tilts.conditionGone('jackpot-controller');
  };
  check();
  const moves = (entries: readonly JournalEntry[]) => entries.some((e) => e.type === 'jackpot.settle' || e.type === 'jackpot.reset');
  // The table journals before it takes its new state: an entry it wrote is checked again once it has.
  let again = false;
  const offLedger = d.ledger.onAppended((entries) => {
    if (!moves(entries)) return;
    if (entries.some((e) => e.type === 'table.input')) again = true;
    else check();
  });
  let had = d.table.reads.progressive()?.reference ?? null;
  const offTable = d.table.onChange(() => {
    const now = d.table.reads.progressive()?.reference ?? null;
    if (now !== had || again) {
      had = now;
      again = false;
      check();
    }
  });
  return () => {
    offLedger();
    offTable();
  };
}

/** Why the table's pools and the ledger's disagree, or null when they agree (or the table plays no progressive). */
export function jackpotProblem(ledger: Ledger, table: LiveTable): string | null {
  const view = table.reads.progressive();
  const journalled = new Map(jackpotPools(ledger).map((p) => [p.level, p.pool]));
  if (!view) {
    const held = [...journalled].filter(([, pool]) => pool !== 0);
    return held.length > 0 ? `the ledger holds pools the table does not play: ${held.map(([l, p]) => `${l} ${p}`).join(', ')}` : null;
  }
  const out: string[] = [];
  for (const l of view.levels) {
    const inLedger = journalled.get(l.level) ?? 0;
    if (inLedger + l.unfunded !== l.held) out.push(`level ${l.level}: the table holds ${l.held}, the ledger ${inLedger} (+${l.unfunded} not yet journalled)`);
    journalled.delete(l.level);
  }
  for (const [level, pool] of journalled) if (pool !== 0) out.push(`level ${level}: the ledger holds ${pool}, the program has no such level`);
  return out.length > 0 ? out.join('; ') : null;
}
