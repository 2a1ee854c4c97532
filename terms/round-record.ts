import { z } from 'zod';
import { ROUND_ENTRY_TYPES, ROUND_PAYLOADS } from './round-terms.js';

// A round's record as recall shows it, built from the round's journal entries alone (issue 49): the
// kiosk's ledger writes it into its rounds projection at the round's close (ledger/recall.ts) and
// reads it into the evidence bundle; the upstream builds the same record from the synced journal.
// One builder for both, pure (no SQLite, no clock).

type RoundPayload<T extends keyof typeof ROUND_PAYLOADS> = z.infer<(typeof ROUND_PAYLOADS)[T]>;

/** A round as game recall shows it: cards in dealing order, decisions, bets, lines, credits. */
export interface RoundRecord {
  roundId: string;
  tableId: string;
  game: string;
  profile: string;
  shoeId?: string;
  startedAt?: string;
  status: 'settled' | 'void';
  /** The sequence and time of the settling (or voiding) entry. */
  seq: number;
  ts: string;
  tzOffsetMin: number;
  cards: { card: string; to: string }[];
  decisions: { seat: number; hand?: number; station?: number; action: string; auto?: boolean; notFollowing?: string[] }[];
  bets: { station: number; seat: number; bet: string; amount: number; seq: number }[];
  lines: {
    station: number;
    seat: number;
    bet: string;
    hand?: number;
    stake: number;
    net: number;
    rule: string;
    /** The non-default choices the line was settled under, and their authorisation reference. */
    choices?: string[];
    authorisation?: string;
    /** A winning-streak stake wagered in an earlier round and held until this one. */
    carried?: true;
  }[];
  /** Stakes of this round held open past it (winning streaks). */
  held?: { station: number; seat: number; bet: string; amount: number }[];
  /** How the round moved each seat's winning-streak marker. */
  streaks?: { station: number; seat: number; before: StreakRecord | null; after: StreakRecord | null }[];
  /** Each station's credit before its first bet of the round and after settlement. */
  credits: { station: number; before: number; after: number }[];
  reason?: string;
  authorisedBy?: string[];
  /** A void: why no correction was possible, and the article that cancels such a round. */
  uncorrectable?: string;
  voidRule?: string;
  /** Dealing errors corrected in the round (a `misread` resolved `corrected`), each with its article and the two people. */
  corrections?: { correction: string; article: string; card?: string; confirmedBy: string[]; seq: number }[];
  /** Every journal entry of this round (bets, misreads, the settlement), in order. */
  entrySeqs: number[];
}

/** A winning-streak marker as recorded: rounds won in a row, and the levels still open. */
export interface StreakRecord {
  wins: number;
  open: { bet: string; amount: number }[];
}

interface Body {
  payload: Record<string, unknown>;
  credits?: [number, number, number][];
}

/** An entry of a round as its record needs it: its seq, the bets when it placed some, the correction when it made one. */
export interface RoundEntry {
  seq: number;
  bet?: { station: number; bets: readonly { seat: number; bet: string; amount: number }[] };
  correction?: Omit<NonNullable<RoundRecord['corrections']>[number], 'seq'>;
}

/** The entry that closes a round, its payload read through its schema. */
export type ClosingEntry = { seq: number; ts: string; tzOffsetMin: number; credits: readonly (readonly [number, number, number])[] } & (
  { type: 'round.settle'; payload: RoundPayload<'round.settle'> } | { type: 'round.void'; payload: RoundPayload<'round.void'> }
);

/**
 * A round's record from the entry that closes it and every entry of the round up to it (that
 * one included), in order. The one builder of records: the live append and migration 3 write it
 * (`projectRound`), verification's replay compares it with the stored row.
 */
export function roundRecord(closing: ClosingEntry, entries: readonly RoundEntry[]): RoundRecord {
  const p =
    closing.type === 'round.settle'
      ? { ...closing.payload, reason: undefined, authorisedBy: undefined, uncorrectable: undefined, rule: undefined }
      : { ...closing.payload, lines: undefined, held: undefined, streaks: undefined };
  const bets: RoundRecord['bets'] = [];
  const corrections: NonNullable<RoundRecord['corrections']> = [];
  for (const e of entries) {
    if (e.correction) corrections.push({ ...e.correction, seq: e.seq });
    if (!e.bet) continue;
    for (const l of e.bet.bets) bets.push({ station: e.bet.station, seat: l.seat, bet: l.bet, amount: l.amount, seq: e.seq });
  }
  return {
    roundId: p.roundId,
    tableId: p.tableId,
    game: p.game,
    profile: p.profile,
    ...(p.shoeId !== undefined ? { shoeId: p.shoeId } : {}),
    ...(p.startedAt !== undefined ? { startedAt: p.startedAt } : {}),
    status: closing.type === 'round.settle' ? 'settled' : 'void',
    seq: closing.seq,
    ts: closing.ts,
    tzOffsetMin: closing.tzOffsetMin,
    cards: [...p.cards],
    decisions: p.decisions.map(({ notFollowing, ...d }) => (notFollowing ? { ...d, notFollowing: [...notFollowing] } : d)),
    bets,
    lines: (p.lines ?? []).map(({ choices, ...l }) => (choices ? { ...l, choices: [...choices] } : l)),
    credits: closing.credits.map(([station, before, after]) => ({ station, before, after })),
    ...(p.held !== undefined ? { held: p.held.map((h) => ({ ...h })) } : {}),
    ...(p.streaks !== undefined
      ? {
          streaks: p.streaks.map((m) => ({
            station: m.station,
            seat: m.seat,
            before: m.before && { wins: m.before.wins, open: m.before.open.map((o) => ({ ...o })) },
            after: m.after && { wins: m.after.wins, open: m.after.open.map((o) => ({ ...o })) },
          })),
        }
      : {}),
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(p.authorisedBy !== undefined ? { authorisedBy: [...p.authorisedBy] } : {}),
    ...(p.uncorrectable !== undefined ? { uncorrectable: p.uncorrectable } : {}),
    ...(p.rule !== undefined ? { voidRule: p.rule } : {}),
    ...(corrections.length > 0 ? { corrections } : {}),
    entrySeqs: entries.map((e) => e.seq),
  };
}

/** A dealing error corrected at a hold (a `misread` resolved `corrected`), for its round's record. */
export function correctionOfMisread(payload: unknown): RoundEntry['correction'] {
  const m = ROUND_PAYLOADS.misread.parse(payload);
  if (m.resolution !== 'corrected' || !m.correction || !m.article) return undefined;
  return { correction: m.correction, article: m.article, ...(m.card ? { card: m.card } : {}), confirmedBy: [...(m.confirmedBy ?? [])] };
}

/** A journal row of a round as its record needs it. */
export function roundEntryOfRow(r: { seq: number; type: string; body: string }): RoundEntry {
  if (r.type === 'bet.place') return { seq: r.seq, bet: betOfBody(r.body) };
  if (r.type === 'misread') {
    const correction = correctionOfMisread((JSON.parse(r.body) as Body).payload);
    if (correction) return { seq: r.seq, correction };
  }
  return { seq: r.seq };
}

/** The bets of a `bet.place` body, for its round's record. */
export function betOfBody(body: string): RoundEntry['bet'] {
  const b = (JSON.parse(body) as Body).payload as { station: number; bets: { seat: number; bet: string; amount: number }[] };
  return { station: b.station, bets: b.bets };
}

/** The stations a recorded round shows in recall: those that bet or were paid in it. */
export function stationsOfRecord(record: Pick<RoundRecord, 'bets' | 'lines'>): Set<number> {
  return new Set<number>([...record.bets.map((b) => b.station), ...record.lines.map((l) => l.station)]);
}

/**
 * A round's record with the entries journalled under its id after the entry that closed it: a
 * hold in its results and its correction (a card the dealer drew after standing: Macau 2009 Art. 6
 * 1), Portugal rule 19). The stored row is the record at its close (verification recomputes it so);
 * recall and the evidence bundle read it with these added, so the late correction shows in both.
 */
export function withLateEntries(record: RoundRecord, late: readonly RoundEntry[]): RoundRecord {
  if (late.length === 0) return record;
  const corrections = [...(record.corrections ?? []), ...late.flatMap((e) => (e.correction ? [{ ...e.correction, seq: e.seq }] : []))];
  return { ...record, ...(corrections.length > 0 ? { corrections } : {}), entrySeqs: [...record.entrySeqs, ...late.map((e) => e.seq)] };
}

export function parseRecord(text: string): RoundRecord {
  return JSON.parse(text) as RoundRecord;
}

/** What a round's record reads of an entry's body: its head, its payload (read through its type's schema), its credits. */
const EntryHead = z.object({
  seq: z.number().int().positive(),
  ts: z.string(),
  tzOffsetMin: z.number().int(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  credits: z.array(z.tuple([z.number(), z.number(), z.number()])).optional(),
});

/**
 * A round's record from its journal entries alone (each entry's canonical body, as the journal
 * holds it and the upstream receives it): the entry that closes it (`round.settle` or
 * `round.void`), every entry of the round up to it, and the dealing errors journalled under its id
 * after it (`withLateEntries`). Entries of other rounds, or of no round, are ignored; undefined while
 * the round has not closed. The kiosk's projection (`projectRound`) and the upstream's bundle are
 * this record.
 */
export function roundOfEntries(roundId: string, entries: readonly { seq: number; body: string }[]): RoundRecord | undefined {
  const mine = entries
    .map((e) => ({ seq: e.seq, head: EntryHead.parse(JSON.parse(e.body)) }))
    .filter((e) => e.head.seq === e.seq && ROUND_ENTRY_TYPES.has(e.head.type) && e.head.payload.roundId === roundId)
    .sort((a, b) => a.seq - b.seq);
  const at = mine.findIndex((e) => e.head.type === 'round.settle' || e.head.type === 'round.void');
  const closing = mine[at];
  if (!closing) return undefined;
  const h = closing.head;
  const head = { seq: closing.seq, ts: h.ts, tzOffsetMin: h.tzOffsetMin, credits: h.credits ?? [] };
  const close: ClosingEntry =
    h.type === 'round.settle'
      ? { ...head, type: 'round.settle', payload: ROUND_PAYLOADS['round.settle'].parse(h.payload) }
      : { ...head, type: 'round.void', payload: ROUND_PAYLOADS['round.void'].parse(h.payload) };
  const record = roundRecord(
    close,
    mine.slice(0, at + 1).map((e) => parsedEntry(e.seq, e.head)),
  );
  const late = mine.slice(at + 1).filter((e) => e.head.type === 'misread');
  return withLateEntries(
    record,
    late.map((e) => parsedEntry(e.seq, e.head)),
  );
}

/** An entry of a round read through its type's schema (the upstream's entries are not the kiosk's own rows). */
function parsedEntry(seq: number, head: z.infer<typeof EntryHead>): RoundEntry {
  if (head.type === 'bet.place') {
    const b = ROUND_PAYLOADS['bet.place'].parse(head.payload);
    return { seq, bet: { station: b.station, bets: b.bets } };
  }
  const correction = head.type === 'misread' ? correctionOfMisread(head.payload) : undefined;
  return correction ? { seq, correction } : { seq };
}
