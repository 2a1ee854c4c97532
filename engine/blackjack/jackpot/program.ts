import { z } from 'zod';
import { JACKPOT_COMBINATIONS } from './combinations.js';
import type { JackpotProgramProblem } from '../../table/vocabulary.js';

/**
 * A table's progressive jackpot as the Inspecção-Geral de Jogos approved it (Portugal rules
 * 38–50). The text fixes the procedure; the figures are the authority's, on the
 * concessionaire's proposal (rule 40: the stake, the increment percentage and its conditions;
 * rule 43: the combinations and their awards), so they are data, and `reference` names the
 * approval they come from.
 *
 * Levels: each level is a pool of its own (a single level is the text's one «acumulado»). The
 * increment of each jackpot chip is shared among the levels (`share`, basis points summing to
 * 10,000). Each award takes from one level: a fixed amount, or that level's whole pool.
 */
const minor = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const levelId = z.string().regex(/^[a-z][a-z0-9-]{0,23}$/);

/**
 * Rule 44 sets only the «valor de arranque» (at least 10,000 times the stake); that the pool brought
 * back after an award, or a level set again, is held to it too is our reading (a review of 4 December).
 */
export const RESET_READING = 'portugal-2001 rule 44, our reading: the «valor de arranque» again after an award';

export const JackpotLevel = z.strictObject({
  level: levelId,
  /** «valor de arranque» (rule 44): the pool when the table opens with this program. */
  start: minor,
  /** The value the house brings the pool back to after an award (rule 44's minimum again). */
  reset: minor,
  /** Basis points of each chip's increment that go to this level. */
  share: z.number().int().min(0).max(10_000),
});
export type JackpotLevel = z.infer<typeof JackpotLevel>;

export const JackpotAwardLine = z.strictObject({
  combination: z.enum(JACKPOT_COMBINATIONS),
  level: levelId,
  pays: z.union([z.strictObject({ fixed: z.number().int().positive() }), z.literal('pool')]),
});
export type JackpotAwardLine = z.infer<typeof JackpotAwardLine>;

export const JackpotProgram = z.strictObject({
  /** The authority's approval of these figures (rules 40, 43). */
  reference: z.string().min(1).max(128),
  /** The one chip of rule 47, «no montante previamente definido» (rule 40: fixed by the authority). */
  stake: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** «percentagem de incremento» (rule 40), in basis points of the stake (1,000 = 10%). */
  incrementBasisPoints: z.number().int().min(1).max(10_000),
  levels: z.array(JackpotLevel).min(1).max(4).readonly(),
  /** Best first: the order ranks the combinations (rule 50 a: smaller awards are paid first). */
  awards: z.array(JackpotAwardLine).min(1).max(16).readonly(),
});
export type JackpotProgram = z.infer<typeof JackpotProgram>;

/** Why a program cannot be played, each naming the rule it breaks: by code and figures (`found`, the screens word them) and in English (`problems`). */
export class JackpotProgramError extends Error {
  readonly problems: readonly string[];
  constructor(readonly found: readonly JackpotProgramProblem[]) {
    const problems = found.map(jackpotProblemEnglish);
    super(`jackpot program refused: ${problems.join('; ')}`);
    this.name = 'JackpotProgramError';
    this.problems = problems;
  }
}

/** Rule 44: «O valor de arranque do jackpot será, no mínimo, de 10 mil vezes o valor da aposta no acumulado». */
export const START_TIMES_STAKE = 10_000;

const problem = (why: JackpotProgramProblem['why'], values: JackpotProgramProblem['values'], article: string | null = null): JackpotProgramProblem => ({
  why,
  values,
  article,
});

/** The problems of a program that its schema accepted, in English (empty when it can be played). */
export function jackpotProgramProblems(p: JackpotProgram): string[] {
  return jackpotProgramFindings(p).map(jackpotProblemEnglish);
}

/** The problems of a program that its schema accepted, each by its code and figures (empty when it can be played). */
export function jackpotProgramFindings(p: JackpotProgram): JackpotProgramProblem[] {
  const out: JackpotProgramProblem[] = [];
  const min = p.stake * START_TIMES_STAKE;
  const ids = new Set<string>();
  for (const l of p.levels) {
    if (ids.has(l.level)) out.push(problem('level-twice', { level: l.level }));
    ids.add(l.level);
    // Every level is a jackpot of its own: each starts (and starts again) at 10,000 stakes at least.
    if (l.start < min) out.push(problem('start-below', { level: l.level, start: l.start, stake: p.stake, min }, 'portugal-2001 rule 44'));
    if (l.reset < min) out.push(problem('reset-below', { level: l.level, reset: l.reset, stake: p.stake, min }, 'portugal-2001 rule 44'));
  }
  const shares = p.levels.reduce((t, l) => t + l.share, 0);
  if (shares !== 10_000) out.push(problem('shares', { shares }, 'portugal-2001 rule 40'));
  const combos = new Set<string>();
  for (const a of p.awards) {
    if (!ids.has(a.level)) out.push(problem('award-no-level', { combination: a.combination, level: a.level }));
    out.push(
      ...shortFixedAward(
        a,
        p.levels.find((l) => l.level === a.level),
      ),
    );
    if (combos.has(a.combination)) out.push(problem('award-twice', { combination: a.combination }, 'portugal-2001 rule 43'));
    combos.add(a.combination);
  }
  return out;
}

/** A problem in English, as the command lines, the configuration file and the logs say it. */
export function jackpotProblemEnglish(f: JackpotProgramProblem): string {
  const v = f.values;
  switch (f.why) {
    case 'needs-option':
      return 'a jackpot program needs the jackpot option (portugal-2001 rules 38-39)';
    case 'needs-program':
      return 'the jackpot needs the program the Inspecção-Geral de Jogos approved (portugal-2001 rule 40)';
    case 'program-field':
      return `${v.path}: ${v.detail}`;
    case 'level-twice':
      return `level "${v.level}" appears twice`;
    case 'start-below':
      return `level "${v.level}" starts at ${v.start}, below 10,000 × the stake of ${v.stake} = ${v.min} (portugal-2001 rule 44)`;
    case 'reset-below':
      return `level "${v.level}" resets to ${v.reset}, below 10,000 × the stake of ${v.stake} = ${v.min} (${RESET_READING})`;
    case 'shares':
      return `the levels' shares of the increment sum to ${v.shares} basis points, not 10,000 (portugal-2001 rule 40)`;
    case 'award-no-level':
      return `the award for ${v.combination} takes from level "${v.level}", which the program does not have`;
    case 'award-short': {
      const below = [...(v.start !== undefined ? [`starts at ${v.start}`] : []), ...(v.reset !== undefined ? [`resets to ${v.reset}`] : [])];
      return `${v.combination} pays a fixed ${v.fixed} from level "${v.level}", which ${below.join(' and ')}: one hit there would be paid short`;
    }
    case 'award-twice':
      return `${v.combination} has two awards (portugal-2001 rule 43: one award per combination)`;
  }
}

/**
 * A level pays a fixed award out of what it holds (rule 50 a) orders the awards; no rule says what
 * a fixed award gets when its level cannot pay it whole, and the engine pays what the level holds:
 * docs/rules/blackjack.md). A level holds at least what it starts and resets at, so an award no
 * larger than both is paid whole to one winner; a larger one would be paid short at the first hit
 * after the table opens or an award resets the level. Such a program is refused.
 */
function shortFixedAward(a: JackpotAwardLine, level: JackpotLevel | undefined): JackpotProgramProblem[] {
  if (!level || a.pays === 'pool') return [];
  const { fixed } = a.pays;
  if (fixed <= level.start && fixed <= level.reset) return [];
  const below = { ...(fixed > level.start ? { start: level.start } : {}), ...(fixed > level.reset ? { reset: level.reset } : {}) };
  return [problem('award-short', { combination: a.combination, fixed, level: a.level, ...below })];
}

/** The program, parsed and checked; throws `JackpotProgramError` naming every problem. */
export function parseJackpotProgram(input: unknown): JackpotProgram {
  const parsed = JackpotProgram.safeParse(input);
  if (!parsed.success) {
    // A field's path as the program's JSON names it; zod's own words are the English's only.
    throw new JackpotProgramError(
      parsed.error.issues.map((i) => problem('program-field', { path: i.path.join('.') || 'program', detail: i.message }, 'portugal-2001 rules 40, 43')),
    );
  }
  const problems = jackpotProgramFindings(parsed.data);
  if (problems.length > 0) throw new JackpotProgramError(problems);
  return parsed.data;
}

/** Where a level's increment stands in parts of 100,000,000 of a minor unit: what the floor left over, carried to the next round. */
export type JackpotCarry = Readonly<Record<string, number>>;

const PARTS = 100_000_000n;

/**
 * What a round's jackpot chips add to each level (rule 40): the increment percentage of the
 * stakes, shared by the levels' basis points. A level receives whole minor units; the fraction a
 * round leaves (`carry`, in parts of 100,000,000 of a unit) is added to the next round's, so over
 * the rounds each level receives every unit the authority's percentage gives it, none kept by the
 * house (issue 33 item 11).
 */
export function carriedContributions(
  p: JackpotProgram,
  totalStake: number,
  carry: JackpotCarry = {},
): { added: Record<string, number>; carry: Record<string, number> } {
  const added: Record<string, number> = {};
  const left: Record<string, number> = {};
  if (!Number.isSafeInteger(totalStake) || totalStake < 0) throw new RangeError(`the jackpot chips of a round must be whole minor units: ${totalStake}`);
  for (const l of p.levels) {
    // In BigInt: stake × basis points × share is 10^8 parts a unit staked, past 2^53 from about
    // 9 × 10^7 units of chips in a round, where a double counts in steps and its remainder is
    // wrong. What a level receives is at most the stake, so it is a safe number again.
    const parts = BigInt(totalStake) * BigInt(p.incrementBasisPoints) * BigInt(l.share) + BigInt(carry[l.level] ?? 0);
    added[l.level] = Number(parts / PARTS);
    left[l.level] = Number(parts % PARTS);
  }
  return { added, carry: left };
}

/** What one round's chips add to each level, with nothing carried in (`carriedContributions`). */
export function contributions(p: JackpotProgram, totalStake: number): Record<string, number> {
  return carriedContributions(p, totalStake).added;
}

/**
 * A program for tests, the simulator and the demo table only: its figures are not an approval.
 * A chip of 100 minor units, 20% of it to the pools (80% of that to `main`, 20% to `minor`).
 */
export const EXAMPLE_JACKPOT_PROGRAM: JackpotProgram = {
  reference: 'EXAMPLE (no IGJ approval)',
  stake: 100,
  incrementBasisPoints: 2_000,
  levels: [
    { level: 'main', start: 1_000_000, reset: 1_000_000, share: 8_000 },
    { level: 'minor', start: 1_000_000, reset: 1_000_000, share: 2_000 },
  ],
  awards: [
    { combination: 'four-aces-suited', level: 'main', pays: 'pool' },
    { combination: 'four-aces', level: 'minor', pays: 'pool' },
    { combination: 'three-sevens-suited', level: 'minor', pays: { fixed: 100_000 } },
    { combination: 'suited-678', level: 'minor', pays: { fixed: 50_000 } },
    { combination: 'three-sevens', level: 'minor', pays: { fixed: 20_000 } },
    { combination: 'suited-blackjack', level: 'minor', pays: { fixed: 2_500 } },
  ],
};
