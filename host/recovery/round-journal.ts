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

  /**
   * A card anomaly (or a refused write) put the table on hold: pending until a supervisor resolves
   * it. With the round in play, or none (`roundId` null) when it came between rounds; a restart
   * puts either back on hold.
   */
  hold(roundId: string | null, reason: string, card: string | null, sequence: number | null): void {
    this.ledger.append({
      type: 'misread',
      payload: {
        tableId: this.tableId,
        ...(roundId ? { roundId } : {}),
        detail: reason,
        resolution: 'pending',
        ...(card ? { card } : {}),
        ...(sequence !== null ? { shoeSequence: [sequence] } : {}),
      },
    });
  }

  /**
   * A card (`card`), or a read the shoe could not make (`unreadable`, no card) or of another deck
   * (`wrong-deck`), that left the shoe while the table was already on hold. Nothing is placed; the
   * entry accounts for the physical card, with the shoe's sequence number, in the hold's round.
   */
  readDuringHold(roundId: string | null, hold: string, kind: 'card' | 'unreadable' | 'wrong-deck', card: string | null, sequence: number | null): void {
    this.ledger.append({
      type: 'misread',
      payload: {
        tableId: this.tableId,
        ...(roundId ? { roundId } : {}),
        detail: `${kind === 'card' ? 'card' : `${kind} card`} read during the ${hold} hold`,
        resolution: 'pending',
        duringHold: true,
        ...(card ? { card } : {}),
        ...(sequence !== null ? { shoeSequence: [sequence] } : {}),
      },
    });
  }

  /**
   * A hold lifted by a void (two people), naming the shoe's sequence numbers of every read the hold
   * covered (its own and those during it; the first 16, each also has its own entry). In a round,
   * written in one transaction with the round's `round.void` (every bet returned), so a restart
   * never finds the one without the other; between rounds no bet was in play, and this entry alone
   * lifts the hold for a restart.
   */
  holdVoided(roundId: string | null, hold: string, reason: string, authorisedBy: string[], sequences: number[], roundVoid?: NewEntry): void {
    const resolution: NewEntry = {
      type: 'misread',
      payload: {
        tableId: this.tableId,
        ...(roundId ? { roundId } : {}),
        detail: `${hold} hold lifted by a void: ${reason}`.slice(0, 2000),
        resolution: 'round-void',
        confirmedBy: authorisedBy.slice(0, 4),
        ...(sequences.length > 0 ? { shoeSequence: sequences.slice(0, 16) } : {}),
      },
    };
    this.ledger.appendMany(roundVoid ? [resolution, roundVoid] : [resolution]);
  }
}
