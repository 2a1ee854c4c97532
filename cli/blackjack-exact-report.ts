// The report of `sim blackjack --exact`: the exact expectation of each strategy, what is exact or
// approximate, the time taken, and the Monte Carlo of the same profile set against the exact
// figure of the strategy the simulator plays.
import type { ExactBlackjack } from '../engine/blackjack/exact/expectation.js';
import { exactNotes, STRATEGY_TEXT, type ExactNote } from '../engine/blackjack/exact/notes.js';
import type { BlackjackRules } from '../engine/blackjack/rules.js';

/** The strategy the figure of a profile is quoted for; the others are printed beside it. */
export const PRIMARY_STRATEGY = 'total-dependent';

export interface MonteCarloCheck {
  hands: number;
  seed: number;
  shuffle: string;
  workers: number;
  houseEdge: number;
  stdErr: number;
  seconds: number;
}

export interface ExactReport {
  game: 'blackjack';
  profile: string;
  decks: number;
  rules: Record<string, unknown>;
  exact: {
    primary: string;
    strategies: { strategy: string; about: string; ev: number; houseEdge: number; splitChance: number }[];
    notes: ExactNote[];
    seconds: number;
    cpuSeconds: number;
    dealerPasses: number;
  };
  monteCarlo?: MonteCarloCheck & {
    strategy: 'simulator-basic';
    exactHouseEdge: number;
    /** (simulated - exact) house edge, in the simulation's standard errors. */
    differenceInStdErr: number;
  };
}

export function exactReport(rules: BlackjackRules, r: ExactBlackjack, time: { seconds: number; cpuSeconds: number }, mc?: MonteCarloCheck): ExactReport {
  const basic = r.strategies.find((s) => s.strategy === 'simulator-basic');
  return {
    game: 'blackjack',
    profile: rules.profile,
    decks: rules.decks,
    rules: Object.fromEntries(Object.entries(rules).filter(([k]) => k !== 'profile')),
    exact: {
      primary: PRIMARY_STRATEGY,
      strategies: r.strategies.map((s) => ({
        strategy: s.strategy,
        about: STRATEGY_TEXT[s.strategy],
        ev: s.ev,
        houseEdge: s.houseEdge,
        splitChance: s.splitChance,
      })),
      notes: exactNotes(rules, r),
      seconds: time.seconds,
      cpuSeconds: time.cpuSeconds,
      dealerPasses: r.dealerPasses,
    },
    ...(mc && basic
      ? {
          monteCarlo: {
            ...mc,
            strategy: 'simulator-basic' as const,
            exactHouseEdge: basic.houseEdge,
            differenceInStdErr: mc.stdErr > 0 ? (mc.houseEdge - basic.houseEdge) / mc.stdErr : 0,
          },
        }
      : {}),
  };
}

const pct = (x: number, digits = 4): string => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}%`;

export function exactText(rep: ExactReport): string {
  const lines: string[] = [];
  const e = rep.exact;
  lines.push(`${rep.profile}, ${rep.decks} decks: exact expected value of the main bet (full shoe, one seat, flat bet)`);
  for (const s of e.strategies) {
    const mark = s.strategy === e.primary ? '*' : ' ';
    lines.push(`${mark} ${s.strategy.padEnd(22)} EV ${pct(100 * s.ev)} per unit, house edge ${pct(s.houseEdge)}`);
  }
  lines.push(`  * the profile's figure. Strategies:`);
  for (const s of e.strategies) lines.push(`    ${s.strategy}: ${s.about}`);
  lines.push('  Treatment of the rules:');
  for (const n of e.notes)
    lines.push(`    ${n.topic} [${n.treatment}${n.bound !== undefined ? `, error at most ${n.bound.toFixed(4)} points` : ''}]: ${n.text}`);
  lines.push(`  Time: ${e.seconds.toFixed(2)} s (${e.cpuSeconds.toFixed(2)} s CPU, one thread), ${e.dealerPasses} dealer recursions`);
  const mc = rep.monteCarlo;
  if (mc) {
    lines.push(
      `Monte Carlo of the same profile (${mc.strategy}, ${mc.hands} hands, ${mc.shuffle} shuffle, seed ${mc.seed}, ${mc.workers} worker(s), ${mc.seconds.toFixed(1)} s): house edge ${pct(mc.houseEdge, 3)} ± ${mc.stdErr.toFixed(3)}%`,
    );
    lines.push(
      `  exact ${pct(mc.exactHouseEdge)} for that strategy: difference ${mc.differenceInStdErr >= 0 ? '+' : ''}${mc.differenceInStdErr.toFixed(2)} standard errors${mc.shuffle === 'cut-card' ? ' (includes the cut-card effect, which the exact figure leaves out)' : ''}`,
    );
  }
  return lines.join('\n');
}
