import type { Ledger } from '../../ledger/index.js';

/**
 * A closed round goes upstream at once rather than at the sync client's next idle poll (up to a
 * second later): the back office's floor shows a table's round as soon as the upstream has it
 * (issue 49; the upstream pushes the row when the batch is accepted, docs/backoffice.md). A
 * settled or voided round wakes the sync client; bets, notes and heartbeats wait for its poll.
 * Returns the unsubscribe.
 */
export function sendRoundsAtOnce(ledger: Pick<Ledger, 'onAppended'>, sync: { kick(): void }): () => void {
  return ledger.onAppended((entries) => {
    if (entries.some((e) => e.type === 'round.settle' || e.type === 'round.void')) sync.kick();
  });
}
