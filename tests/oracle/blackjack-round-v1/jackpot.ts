import type { Card } from '../../../engine/cards/card.js';
import type { JackpotCombination } from '../../../engine/blackjack/jackpot/combinations.js';
import type { JackpotProgram } from '../../../engine/blackjack/jackpot/program.js';
import type { JackpotEntry, JackpotLevelMove, JackpotResult, JackpotState } from '../../../engine/blackjack/jackpot/settle.js';

// The Portugal progressive (rules 38–50) settled a second time, from the text rather than from the
// engine's code, so the differential compares two readings of the rule, not one function with
// itself. Only the shapes are shared (the engine's types, which the journal fixes).
//
// Changed on purpose since the round was frozen (the review of rule 50 b), «o valor do jackpot, ou
// o respectivo remanescente … é dividido entre os ganhadores»): a pool that does not divide among
// its holders is shared in equal shares rounded up, the house adding the units (fewer than the
// holders) — "no payout is ever rounded against the player". Before, the shares were rounded down
// and the house kept the units through a smaller reset seed.

/** Rule 40's increment of one unit, in the parts the table carries between rounds. */
const PARTS_PER_UNIT = 100_000_000n;

/** The cards of rule 42 hold the combination the program names (rule 43). */
function cardsHold(combination: JackpotCombination, cards: readonly Card[]): boolean {
  const look = (n: number) => (cards.length < n ? null : cards.slice(0, n));
  const oneSuit = (cs: readonly Card[]) => new Set(cs.map((c) => c.suit)).size === 1;
  const ranksAre = (cs: readonly Card[] | null, want: string) => cs !== null && [...cs.map((c) => c.rank)].sort().join('') === want;
  const four = look(4);
  const three = look(3);
  const two = look(2);
  const natural = two !== null && ranksAre([two[0]!], 'A') !== ranksAre([two[1]!], 'A') && two.some((c) => 'TJQK'.includes(c.rank));
  switch (combination) {
    case 'four-aces-suited':
      return ranksAre(four, 'AAAA') && oneSuit(four!);
    case 'four-aces':
      return ranksAre(four, 'AAAA');
    case 'three-sevens-suited':
      return ranksAre(three, '777') && oneSuit(three!);
    case 'suited-678':
      return ranksAre(three, '678') && oneSuit(three!);
    case 'three-sevens':
      return ranksAre(three, '777');
    case 'suited-blackjack':
      return natural && oneSuit(two!);
    case 'blackjack':
      return natural;
    case 'suited-pair':
      return two !== null && two[0]!.rank === two[1]!.rank && oneSuit(two);
  }
}

/** Rule 40 over the rounds: each level's part of the chips, whole units now, the fraction carried on. */
function increments(program: JackpotProgram, stakes: number, carried: Readonly<Record<string, number>> = {}) {
  const now: Record<string, number> = {};
  const left: Record<string, number> = {};
  for (const { level, share } of program.levels) {
    // stake × (bp / 10,000) × (share / 10,000) of a unit = stake × bp × share parts of 10⁸.
    const parts = BigInt(stakes) * BigInt(program.incrementBasisPoints) * BigInt(share) + BigInt(carried[level] ?? 0);
    now[level] = Number(parts / PARTS_PER_UNIT);
    left[level] = Number(parts - (parts / PARTS_PER_UNIT) * PARTS_PER_UNIT);
  }
  return { now, left };
}

/** The pools a round plays for once its chips are in (rule 41). */
export function poolsShown(state: JackpotState, stakes: number): Record<string, number> {
  const { now } = increments(state.program, stakes, state.carry);
  return Object.fromEntries(state.program.levels.map(({ level }) => [level, (state.pools[level] ?? 0) + now[level]!]));
}

/** Rule 50 on one level: the fixed awards smallest first, then the rest shared by the top holders. */
function payLevel(pool: number, fixed: readonly { key: number; amount: number }[], top: readonly number[]) {
  const paid = new Map<number, number>();
  let left = pool;
  for (const f of [...fixed].sort((a, b) => a.amount - b.amount)) {
    const pay = f.amount <= left ? f.amount : left;
    paid.set(f.key, pay);
    left -= pay;
  }
  let rounding = 0;
  if (top.length > 0) {
    // An equal share each, never less than the pool divided: what does not divide comes from the house.
    const share = Math.trunc((left + top.length - 1) / top.length);
    rounding = share * top.length - left;
    for (const k of top) paid.set(k, share);
    left = 0;
  }
  return { paid, left, rounding };
}

/** Every jackpot chip of a round: the moves of each level and each chip's award (rules 40–50). */
export function settleChips(
  entries: readonly JackpotEntry[],
  state: JackpotState,
): { results: JackpotResult[]; moves: JackpotLevelMove[]; state: JackpotState } {
  const { program } = state;
  const stakes = entries.reduce((t, e) => t + e.stake, 0);
  const { now, left: carry } = increments(program, stakes, state.carry);
  // The program lists its awards best first: a chip takes the first its cards hold.
  const best = entries.map((e) => program.awards.find((a) => cardsHold(a.combination, e.cards)));
  const awards = new Map<number, { amount: number; shared: boolean }>();
  const moves: JackpotLevelMove[] = [];
  const pools: Record<string, number> = {};
  for (const lv of program.levels) {
    const on = best.flatMap((a, i) => (a?.level === lv.level ? [{ i, a }] : []));
    const fixed = on.flatMap(({ i, a }) => (a.pays === 'pool' ? [] : [{ key: i, amount: a.pays.fixed }]));
    const top = on.flatMap(({ i, a }) => (a.pays === 'pool' ? [i] : []));
    const before = state.pools[lv.level] ?? 0;
    const contribution = now[lv.level]!;
    const { paid, left, rounding } = payLevel(before + contribution, fixed, top);
    for (const [i, amount] of paid) awards.set(i, { amount, shared: top.length > 1 && top.includes(i) });
    // Rule 44: after an award the house brings the level back up to its reset value.
    const seed = on.length === 0 || left >= lv.reset ? 0 : lv.reset - left;
    const carryIn = state.carry?.[lv.level] ?? 0;
    const award = [...paid.values()].reduce((t, x) => t + x, 0);
    moves.push({
      level: lv.level,
      before,
      funded: state.unfunded[lv.level] ?? 0,
      contribution,
      ...(carryIn ? { carryIn } : {}),
      award,
      hits: on.length,
      ...(rounding ? { rounding } : {}),
      seed,
      after: left + seed,
    });
    pools[lv.level] = left + seed;
  }
  const results = entries.map((e, i): JackpotResult => {
    const a = best[i];
    const got = awards.get(i);
    return {
      seat: e.seat,
      hand: e.hand,
      stake: e.stake,
      award: got?.amount ?? 0,
      ...(a ? { combination: a.combination, level: a.level } : {}),
      ...(got?.shared ? { shared: true as const } : {}),
    };
  });
  const unfunded = Object.fromEntries(program.levels.map(({ level }) => [level, 0]));
  const carried = Object.values(carry).some((x) => x !== 0);
  return { results, moves, state: { program, pools, unfunded, ...(carried ? { carry } : {}) } };
}
