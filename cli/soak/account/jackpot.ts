// The progressive jackpot of a soak (Portugal rules 38–50), from the journal: the chips, the
// awards on the settlements' lines against those the pools paid, each level's pool against the
// ledger's balance. All zero on a table without one.
import { account, type EntryType, type Ledger, type Payload } from '../../../ledger/index.js';

export interface JackpotAccount {
  /** Jackpot chips settled (the settlements' `jackpot` lines with a stake). */
  chips: number;
  /** Awards on the settlements' lines (stake + net of a winning jackpot line), and those of `jackpot.settle`. */
  awardsOnLines: number;
  awardsFromPools: number;
  /** Of the awards, paid by an attendant (a handpay request each). */
  handpaid: number;
  handpayRequests: number;
  hits: number;
  /**
   * Each level: the chips' increment, the awards, the house's funding and seeds, and what the house
   * added to round shared awards up (rule 50 b)), summed; the pool they leave; the ledger's balance.
   */
  levels: Record<string, { contributions: number; awards: number; seeded: number; rounded: number; pool: number; ledgerPool: number }>;
  /** Every settled round with jackpot chips has one `jackpot.settle`, none another; each pool is what its movements leave; awards agree. */
  conserved: boolean;
  problems: string[];
}

export interface JackpotFold {
  readonly jp: JackpotAccount;
  /** Rounds settled with jackpot lines. */
  readonly rounds: Set<string>;
  /** `jackpot.settle` entries by round. */
  readonly settled: Map<string, number>;
}

export function newJackpotFold(): JackpotFold {
  return {
    jp: { chips: 0, awardsOnLines: 0, awardsFromPools: 0, handpaid: 0, handpayRequests: 0, hits: 0, levels: {}, conserved: true, problems: [] },
    rounds: new Set(),
    settled: new Map(),
  };
}

/** One journal entry's part in the jackpot. */
export function foldJackpot(f: JackpotFold, type: EntryType, p: Record<string, unknown>): void {
  const { jp } = f;
  if (type === 'round.settle') {
    const s = p as Payload<'round.settle'>;
    for (const l of s.lines) {
      if (l.bet !== 'jackpot') continue;
      if (l.stake > 0) jp.chips++;
      f.rounds.add(s.roundId);
      if (l.net > 0) jp.awardsOnLines += l.stake + l.net;
      jp.handpaid += l.handpay ?? 0;
    }
  } else if (type === 'jackpot.settle') {
    const j = p as Payload<'jackpot.settle'>;
    f.settled.set(j.roundId, (f.settled.get(j.roundId) ?? 0) + 1);
    for (const l of j.levels) {
      const lv = (jp.levels[l.level] ??= { contributions: 0, awards: 0, seeded: 0, rounded: 0, pool: 0, ledgerPool: 0 });
      lv.contributions += l.contribution;
      lv.awards += l.award;
      lv.seeded += l.funded + l.seed;
      lv.rounded += l.rounding ?? 0;
      lv.pool += l.funded + l.contribution + (l.rounding ?? 0) - l.award + l.seed;
      jp.awardsFromPools += l.award;
      jp.hits += l.hits;
    }
  } else if (type === 'handpay.request') {
    if ((p as Payload<'handpay.request'>).reason === 'jackpot') jp.handpayRequests += (p as Payload<'handpay.request'>).amount;
  }
}

/** The jackpot's account, its pools read from the ledger and held against the journal's movements. */
export function closeJackpot(f: JackpotFold, ledger: Ledger): JackpotAccount {
  const { jp } = f;
  for (const [level, lv] of Object.entries(jp.levels)) {
    lv.ledgerPool = -ledger.balance(account.jackpotPool(level));
    if (lv.ledgerPool !== lv.pool) jp.problems.push(`level ${level}: the journal's movements leave ${lv.pool}, the ledger holds ${lv.ledgerPool}`);
  }
  for (const id of f.rounds) if (f.settled.get(id) !== 1) jp.problems.push(`round ${id}: ${f.settled.get(id) ?? 0} jackpot settlements, not one`);
  for (const [id, n] of f.settled) if (!f.rounds.has(id) || n !== 1) jp.problems.push(`round ${id}: a jackpot settlement without its chips, or twice`);
  if (jp.awardsOnLines !== jp.awardsFromPools) jp.problems.push(`awards: ${jp.awardsOnLines} on the lines, ${jp.awardsFromPools} from the pools`);
  if (jp.handpaid !== jp.handpayRequests) jp.problems.push(`handpaid awards ${jp.handpaid}, handpay requests ${jp.handpayRequests}`);
  jp.conserved = jp.problems.length === 0;
  return jp;
}
