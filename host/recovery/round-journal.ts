import type { Ledger, NewEntry } from '../../ledger/index.js';

/**
 * The round's progress as it happens, written to the ledger before any screen is told: each card
 * the engine placed (with the shoe's sequence number), each decision, each shoe change and each
 * hold. None moves money; they are what `replayJournal` rebuilds an interrupted round from.
 */
export class RoundJournal {
  constructor(
    private readonly ledger: Ledger,
    private readonly tableId: string,
  ) {}

  card(roundId: string | null, card: string, to: string, sequence?: number): void {
    this.ledger.append({
      type: 'card.read',
      payload: { tableId: this.tableId, ...(roundId ? { roundId } : {}), ...(sequence !== undefined ? { sequence } : {}), card, to },
    });
  }

  /** A decision, together with the bets it put into play: one transaction, so a replay never finds one without the other. */
  decision(
    d: { roundId: string; seat: number; hand?: number; station: number; action: string; auto?: boolean; amount?: number; notFollowing?: string[] },
    extraBets: NewEntry[],
  ): void {
    const entry: NewEntry = {
      type: 'round.decision',
      payload: {
        tableId: this.tableId,
        roundId: d.roundId,
        seat: d.seat,
        ...(d.hand !== undefined ? { hand: d.hand } : {}),
        station: d.station,
        action: d.action,
        ...(d.auto ? { auto: true } : {}),
        ...(d.amount !== undefined && d.amount > 0 ? { amount: d.amount } : {}),
        ...(d.notFollowing?.length ? { notFollowing: d.notFollowing } : {}),
      },
    };
    this.ledger.appendMany([...extraBets, entry]);
  }

  shoe(event: 'loaded' | 'cut-card', sequence?: number): void {
    this.ledger.append({ type: 'shoe.change', payload: { tableId: this.tableId, event, ...(sequence !== undefined ? { sequence } : {}) } });
  }

  /** A card anomaly put the table on hold: pending until a supervisor resolves it (issue 9). */
  hold(roundId: string | null, reason: string, card: string | null): void {
    this.ledger.append({
      type: 'misread',
      payload: {
        tableId: this.tableId,
        ...(roundId ? { roundId } : {}),
        detail: reason,
        resolution: 'pending',
        ...(card ? { card } : {}),
      },
    });
  }
}
