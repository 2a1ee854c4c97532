import { parseCard, type Card } from '../../engine/cards/card.js';
import { heldRead, pendingTableHold, type EntryBody, type HeldRead, type Ledger, type Payload } from '../../ledger/index.js';
import { behindOwner } from '../table/bets-behind.js';
import type { Decision, ResumedHold, ResumedRound } from '../table/round-controller.js';
import type { BehindBet, LiveGame, LiveRound } from '../table/live-game.js';

/** What the journal says about the shoe in play and the round that was interrupted. */
export interface Replayed {
  /** Cards out of the current shoe (its inventory) and the shoe's sequence numbers journalled for it. */
  shoe: { cards: Card[]; sequences: Set<number>; lastSequence?: number };
  /** The interrupted round, rebuilt to where it stopped; null if none or it cannot go on. */
  round: ResumedRound | null;
  /** Open rounds (bets journalled, never settled or voided) that cannot go on, with the reason: voided by the rules. */
  toVoid: { roundId: string; reason: string; cards: { card: string; to: string }[]; decisions: Decision[] }[];
  /**
   * A hold of the table between rounds that nothing resolved (the newest `misread` outside any
   * round is pending), when no round resumes: the table starts on that hold.
   */
  tableHold: ResumedHold | null;
  /** The newest round's results when it was settled but the next round never began (shown again). */
  lastResults: { roundId: string; lines: Payload<'round.settle'>['lines'] } | null;
  /** How many journal entries were replayed (the cost of a restart). */
  entries: number;
}

interface Building {
  roundId: string;
  seats: Map<number, Record<string, number>>;
  /** The bets behind each seat (Art. 20), in the order the close journalled them (by station). */
  behind: Map<number, BehindBet[]>;
  placed: Map<number, Record<string, number>>;
  live: LiveRound | null;
  cards: { card: string; to: string }[];
  decisions: Decision[];
  hold: string | null;
  holdSequence: number | null;
  holdReads: HeldRead[];
  failed: string | null;
}

const REPLAYED = ['bet.place', 'card.read', 'round.decision', 'round.settle', 'round.void', 'shoe.change', 'misread'];

/**
 * Rebuilds the game's shoe and the interrupted round by feeding the journalled cards and decisions,
 * in their order, through the same `LiveGame` adapter that took them live. It starts at the last
 * shoe load the journal recorded, so the shoe-level procedure (burns, cut card) comes back too.
 * Nothing is written: the caller journals the voids, the controller continues the round.
 */
export function replayJournal(ledger: Ledger, game: LiveGame): Replayed {
  const open = new Set(ledger.openRounds().map((r) => r.roundId));
  const fromRow = ledger.db
    .prepare("SELECT MAX(seq) AS seq FROM journal WHERE type = 'shoe.change' AND json_extract(body, '$.payload.event') = 'loaded'")
    .get() as { seq: number | null };
  const shoe: Replayed['shoe'] = { cards: [], sequences: new Set() };
  const toVoid: Replayed['toVoid'] = [];
  let lastResults: Replayed['lastResults'] = null;
  let entries = 0;
  const rounds = new Map<string, Building>();
  let current: Building | null = null;

  const start = (b: Building): void => {
    if (b.live || b.failed) return;
    try {
      b.live = game.newRound(b.seats, b.behind);
    } catch (e) {
      b.failed = `the game could not start the round again: ${e instanceof Error ? e.message : String(e)}`;
    }
  };

  if (fromRow.seq !== null) {
    const select = ledger.db.prepare(
      `SELECT seq, type, tx_id, body FROM journal WHERE seq >= ? AND type IN (${REPLAYED.map(() => '?').join(', ')}) ORDER BY seq`,
    );
    for (const row of select.iterate(fromRow.seq, ...REPLAYED) as Iterable<{ seq: number; type: string; tx_id: string | null; body: string }>) {
      entries++;
      const p = (JSON.parse(row.body) as EntryBody).payload;
      switch (row.type) {
        case 'shoe.change': {
          const c = p as Payload<'shoe.change'>;
          if (c.event === 'loaded') {
            game.newShoe();
            shoe.cards = [];
            shoe.sequences = new Set();
          } else game.cutCard();
          if (c.sequence !== undefined) shoe.lastSequence = c.sequence;
          break;
        }
        case 'bet.place': {
          const b = p as Payload<'bet.place'>;
          let r = rounds.get(b.roundId);
          if (!r) {
            r = { roundId: b.roundId, seats: new Map(), behind: new Map(), placed: new Map(), live: null, cards: [], decisions: [], hold: null, holdSequence: null, holdReads: [], failed: null };
            rounds.set(b.roundId, r);
            current = r;
            lastResults = null;
          }
          // The bets journalled at the close make the round; later ones are raises of its decisions.
          // A station's bet behind another seat (`behind` on that seat) is that seat's bettor behind.
          if (row.tx_id === `${b.roundId}:bet:${b.station}` && !r.live) {
            for (const l of b.bets) {
              if (l.bet === 'behind') r.behind.set(l.seat, [...(r.behind.get(l.seat) ?? []), { owner: behindOwner(b.station), main: l.amount }]);
              else r.seats.set(l.seat, { ...(r.seats.get(l.seat) ?? {}), [l.bet]: l.amount });
            }
          }
          const placed = { ...(r.placed.get(b.station) ?? {}) };
          for (const l of b.bets) placed[l.bet] = (placed[l.bet] ?? 0) + l.amount;
          r.placed.set(b.station, placed);
          break;
        }
        case 'card.read': {
          const c = p as Payload<'card.read'>;
          const card = parseCard(c.card);
          shoe.cards.push(card);
          if (c.sequence !== undefined) {
            shoe.sequences.add(c.sequence);
            shoe.lastSequence = c.sequence;
          }
          if (!c.roundId) {
            const r = game.takeShoeCard(card);
            if (!r.ok && current) current.failed ??= `shoe card ${c.card} no longer fits: ${r.reason}`;
            break;
          }
          const b = rounds.get(c.roundId);
          if (!b) break;
          start(b);
          if (!b.live || b.failed) break;
          const r = b.live.takeCard(card);
          if (!r.ok || r.to !== c.to) b.failed = `card ${c.card} does not replay to ${c.to}: ${r.ok ? r.to : r.reason}`;
          else b.cards.push({ card: c.card, to: c.to });
          break;
        }
        case 'round.decision': {
          const d = p as Payload<'round.decision'>;
          const b = rounds.get(d.roundId);
          if (!b) break;
          start(b);
          if (!b.live || b.failed) break;
          // The raise was journalled with the decision, so credit is no question here; the bets
          // behind that could not follow were journalled with it too, and stay out again.
          const out = d.notFollowing ?? [];
          const r = b.live.decide(d.seat, d.action, (_, owner) => owner === undefined || !out.includes(owner), d.amount);
          if (!r.ok) b.failed = `decision ${d.action} of seat ${d.seat} does not replay: ${r.reason}`;
          else {
            b.decisions.push({
              seat: d.seat,
              ...(d.hand !== undefined ? { hand: d.hand } : {}),
              station: d.station ?? 0,
              action: d.action,
              ...(d.auto ? { auto: true } : {}),
              ...(out.length > 0 ? { notFollowing: out } : {}),
            });
          }
          break;
        }
        case 'misread': {
          const m = p as Payload<'misread'>;
          // The shoe event behind a misread was handled: a real shoe does not deliver it again.
          const seq = m.resolution === 'pending' ? m.shoeSequence?.[0] : undefined;
          if (seq !== undefined) {
            shoe.sequences.add(seq);
            shoe.lastSequence = seq;
          }
          const b = m.roundId ? rounds.get(m.roundId) : undefined;
          if (!b) break;
          if (m.duringHold) b.holdReads.push(heldRead(m));
          else {
            b.hold = m.resolution === 'pending' ? m.detail : null;
            b.holdSequence = m.resolution === 'pending' ? (m.shoeSequence?.[0] ?? null) : null;
            b.holdReads = [];
          }
          break;
        }
        case 'round.settle':
        case 'round.void': {
          const c = p as Payload<'round.settle'>;
          const b = rounds.get(c.roundId);
          if (b && row.type === 'round.settle') {
            start(b);
            // The adapter's settlement moves its shoe on (war counts coups to the last one).
            if (b.live && !b.failed && b.live.pending().kind === 'done') b.live.settle();
          }
          // A round voided after some of its cards: the game drops it, as the live table did, or
          // the next round would start from its cards (baccarat) or not start at all (blackjack).
          if (b?.live && row.type === 'round.void') game.voidRound?.();
          rounds.delete(c.roundId);
          if (current?.roundId === c.roundId) current = null;
          lastResults = row.type === 'round.settle' ? { roundId: c.roundId, lines: c.lines } : null;
          break;
        }
      }
    }
  }

  let round: ResumedRound | null = null;
  for (const roundId of open) {
    const b = rounds.get(roundId);
    if (b) start(b);
    if (!b || b.failed || !b.live || b !== current) {
      toVoid.push({
        roundId,
        reason: !b ? 'interrupted round: its shoe is not in the journal' : (b.failed ?? 'interrupted round superseded by a later one'),
        cards: b?.cards ?? [],
        decisions: b?.decisions ?? [],
      });
      continue;
    }
    round = { roundId, round: b.live, placed: b.placed, cards: b.cards, decisions: b.decisions, hold: b.hold, holdSequence: b.holdSequence, holdReads: b.holdReads };
    lastResults = null;
  }
  // Looked up in the whole journal, not from the last shoe load: a shoe may be loaded while held.
  const pending = round ? null : pendingTableHold(ledger);
  const tableHold = pending
    ? { reason: pending.reason, ...(pending.shoeSequence !== undefined ? { shoeSequence: pending.shoeSequence } : {}), reads: pending.readsDuringHold }
    : null;
  return { shoe, round, toVoid, tableHold, lastResults, entries };
}
