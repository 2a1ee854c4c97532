import { evidenceBundle, ruleRecordAt } from '../../../ledger/index.js';
import { MAX_STATIONS, type RecallRound } from '../../../protocol/index.js';
import { isCorrection, isUncorrectable, type Correction } from '../../../engine/table/vocabulary.js';
import type { RecallPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { roundSpan } from '../../../terms/round-evidence.js';

type RecallRecord = ReturnType<LiveBackendDeps['ledger']['rounds']['recall']>[number];

/** Game recall: a page of rounds (of one station, or of the table), and a round's evidence bundle. */
export function recall(d: Pick<LiveBackendDeps, 'ledger' | 'table' | 'config'>, now: () => number): RecallPart {
  const tableId = d.config.tableId;
  return {
    rounds(q) {
      // The ledger answers at most 500 rounds per query: older ones are in the export tools.
      const want = Math.min(500, q.offset + q.limit + 1);
      const records = q.station !== null ? d.ledger.rounds.recall({ station: q.station, limit: want }) : d.ledger.rounds.recall({ tableId, limit: want });
      const page = records.slice(q.offset, q.offset + q.limit);
      return { more: records.length > q.offset + q.limit, rounds: page.map((r) => ({ ...recallRound(r, q.station, d.table), ...rulesOf(d.ledger, r) })) };
    },

    evidenceJson(roundId) {
      const b = evidenceBundle(d.ledger, roundId, new Date(now()));
      return b ? JSON.stringify(b, null, 1) : null;
    },
  };
}

/** What a recalled round carries of each at most (the service page's schema): past it, the page says how many it leaves out. */
const PAGE_CAPS = { decisions: 512, bets: 224, lines: 512, corrections: 16 } as const;

/** A recalled round within the page's limits, its decisions in the game's own words. */
function recallRound(r: RecallRecord, station: number | null, table: LiveBackendDeps['table']): RecallRound {
  const bets = byStation(r.bets, station);
  const lines = byStation(r.lines, station);
  // Cut, never unsaid (before, an inspector read a cut round as whole): the export has all of it.
  const corrections = (r.corrections ?? []).filter((c) => isCorrection(c.correction)).slice(0, PAGE_CAPS.corrections);
  const omitted = {
    decisions: Math.max(0, r.decisions.length - PAGE_CAPS.decisions),
    bets: Math.max(0, bets.length - PAGE_CAPS.bets),
    lines: Math.max(0, lines.length - PAGE_CAPS.lines),
  };
  // The corrections past the page's, or of a kind it cannot say: counted, never left out unsaid.
  const correctionsOmitted = (r.corrections?.length ?? 0) - corrections.length;
  return {
    roundId: r.roundId,
    status: r.status,
    seq: r.seq,
    ts: r.ts,
    game: r.game,
    profile: r.profile,
    cards: r.cards,
    // A tie on war's stadium box has each of its stations decide (up to 2,000): cut as the bets are.
    decisions: seatedFirst(r.decisions)
      .slice(0, PAGE_CAPS.decisions)
      .map((x) => ({
        seat: x.seat,
        ...(x.hand !== undefined ? { hand: x.hand } : {}),
        action: x.action,
        ...(x.auto ? { auto: true } : {}),
      })),
    ...(r.game === table.game.kind && table.game.presentation.actionWords ? { actionWords: { ...table.game.presentation.actionWords } } : {}),
    // One station's recall shows its own; a stadium round's whole record (hundreds of stations)
    // is cut to the page's limits here, the seated stations first: the export has all of it.
    bets: bets.slice(0, PAGE_CAPS.bets).map((b) => ({ station: b.station, seat: b.seat, bet: b.bet, amount: b.amount })),
    lines: lines.slice(0, PAGE_CAPS.lines),
    ...(omitted.decisions + omitted.bets + omitted.lines + correctionsOmitted > 0
      ? { omitted: { ...omitted, ...(correctionsOmitted > 0 ? { corrections: correctionsOmitted } : {}) } }
      : {}),
    ...(r.reason !== undefined ? { reason: r.reason.slice(0, 400) } : {}),
    ...(r.authorisedBy ? { authorisedBy: r.authorisedBy } : {}),
    ...(r.uncorrectable !== undefined && isUncorrectable(r.uncorrectable) ? { uncorrectable: r.uncorrectable } : {}),
    ...(r.voidRule ? { voidRule: r.voidRule.slice(0, 128) } : {}),
    ...(r.corrections?.length
      ? {
          corrections: corrections.map((c) => ({
            correction: c.correction as Correction,
            article: c.article.slice(0, 128),
            ...(c.card ? { card: c.card } : {}),
            confirmedBy: c.confirmedBy.slice(0, 4),
          })),
        }
      : {}),
  };
}

/** The decisions with the seats' and the seated stations' (1–7) first, each group in the order made. */
function seatedFirst<T extends { station?: number }>(xs: readonly T[]): T[] {
  const remote = (x: T) => Number(x.station !== undefined && x.station > MAX_STATIONS);
  return [...xs].sort((a, b) => remote(a) - remote(b));
}

/** A station's own items, or every item with the seated stations' (1–7) first. */
function byStation<T extends { station: number }>(xs: readonly T[], station: number | null): T[] {
  if (station !== null) return xs.filter((x) => x.station === station);
  return [...xs].sort((a, b) => Number(a.station > MAX_STATIONS) - Number(b.station > MAX_STATIONS));
}

/** The rule set and its authorisation on record at the round's first entry (issue 51). */
function rulesOf(ledger: LiveBackendDeps['ledger'], r: RecallRecord): Pick<RecallRound, 'rules'> {
  // Its first entry by a loop (`roundSpan`): a spread of a round's 150,000 seqs overflowed the stack.
  const at = ruleRecordAt(ledger, roundSpan(r).first);
  if (!at) return {};
  const p = at.payload;
  return {
    rules: {
      ...(p.reference ? { reference: p.reference } : {}),
      ...(p.effective ? { effective: p.effective } : {}),
      digest: p.digest,
      article: p.article.slice(0, 128),
      demonstration: p.demonstration,
    },
  };
}
