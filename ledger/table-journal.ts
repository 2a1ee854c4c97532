import type { JournalItem } from '../engine/table/fold.js';
import { connectionOf, rowToEntry, type EntryBody, type JournalEntry, type JournalRow, type Ledger } from './ledger.js';

// The journal as the table's state machine reads it back (engine/table/fold.ts): its own inputs,
// and every other entry with the station credits it moved. The table's code never reads the
// ledger's bodies itself.

function bodyOf(e: JournalEntry): EntryBody {
  return JSON.parse(e.body) as EntryBody;
}

/** [station, credit after] for every station whose credit an entry moved. */
export function entryCredits(e: JournalEntry): [number, number][] {
  // Most entries move no credit: their body is not parsed for nothing.
  if (!e.body.includes('"credits"')) return [];
  return (bodyOf(e).credits ?? []).map(([station, , after]) => [station, after]);
}

function item(e: JournalEntry): JournalItem {
  const body = bodyOf(e);
  if (e.type === 'table.input') {
    const p = body.payload as { input?: unknown; effects?: unknown };
    return { kind: 'input', seq: e.seq, input: p.input, effects: typeof p.effects === 'number' ? p.effects : -1 };
  }
  return {
    kind: 'entry',
    seq: e.seq,
    record: { type: e.type, txId: e.txId, payload: body.payload },
    credits: (body.credits ?? []).map(([station, , after]) => [station, after] as const),
  };
}

/** Every entry from `fromSeq` on, in order, read lazily, as the table's fold takes them. */
export function* tableJournal(ledger: Ledger, fromSeq = 1): IterableIterator<JournalItem> {
  for (const e of ledger.entries(fromSeq)) yield item(e);
}

/**
 * The cards and decisions journalled for a round (recovery voids a round it cannot go on with,
 * and the void's record names what was dealt).
 */
export function roundProgress(
  ledger: Ledger,
  roundId: string,
): { cards: { card: string; to: string }[]; decisions: { seat: number; hand?: number; station?: number; action: string; auto?: boolean }[] } {
  const cards: { card: string; to: string }[] = [];
  const decisions: { seat: number; hand?: number; station?: number; action: string; auto?: boolean }[] = [];
  // The round's own entries, through the round index: the cost follows the round, not the journal.
  const rows = connectionOf(ledger).prepare('SELECT * FROM journal WHERE round_id = ? ORDER BY seq').all(roundId) as JournalRow[];
  for (const e of rows.map(rowToEntry)) {
    const p = bodyOf(e).payload as { card?: string; to?: string; seat?: number; hand?: number; station?: number; action?: string; auto?: boolean };
    if (e.type === 'card.read' && p.card && p.to) cards.push({ card: p.card, to: p.to });
    if (e.type === 'round.decision' && p.seat !== undefined && p.action) {
      decisions.push({
        seat: p.seat,
        ...(p.hand !== undefined ? { hand: p.hand } : {}),
        ...(p.station !== undefined ? { station: p.station } : {}),
        action: p.action,
        ...(p.auto ? { auto: true } : {}),
      });
    }
  }
  return { cards, decisions };
}
