// Figures for the baccarat and «Desafio ao Casino» calculators: exact enumeration time and
// Monte Carlo throughput on one thread, each Monte Carlo figure beside a bare shuffle-and-deal
// loop of the same shoe, generator and cards (bench/bare-deal.ts) measured just after it. The
// exact calculators have no bare counterpart (see docs/benchmarks.md). Prints; asserts nothing.
import { performance } from 'node:perf_hooks';
import { freshCards, shuffled } from '../engine/cards/shoe.js';
import { exactBaccarat } from '../engine/baccarat/exact.js';
import { baccaratProfile } from '../engine/baccarat/profiles.js';
import { coupsOfShoe, simulateBaccarat } from '../engine/baccarat/simulate.js';
import { Rng } from '../engine/random/seeded-rng.js';
import { exactWar } from '../engine/war/exact.js';
import { warProfile, type WarProfile } from '../engine/war/profiles.js';
import { dealSimCoup, simulateWar } from '../engine/war/simulate.js';
import { bareBaccaratDeal, bareWarDeal, LazyDealer, rate } from './bare-deal.js';
import { figure, QUICK, times } from './report.js';

const COUPS = QUICK ? 50_000 : 1_000_000;
/** How long each bare loop runs: about as long as the simulator it is read against. */
const BARE_SECONDS = QUICK ? 0.2 : 1;

function time<T>(label: string, f: () => T, per?: number): { result: T; ms: number } {
  const t0 = performance.now();
  const result = f();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms${per ? `  (${((per / ms) * 1000).toFixed(0)} coups/s)` : ''}`);
  return { result, ms };
}

function exact(label: string, f: () => unknown): void {
  const { ms } = time(label, f);
  figure({
    name: label,
    unit: 'ms',
    value: ms,
    better: 'lower',
    baseline: null,
    note: 'an exact enumeration is a fixed amount of arithmetic with no bare version of itself; its absolute time is all there is, and on a shared machine it moves with the load',
  });
}

function monteCarlo(label: string, run: () => unknown, bareName: string, bare: () => number): void {
  const { ms } = time(label, run, COUPS);
  const baseline = rate(BARE_SECONDS, bare);
  const r = figure({ name: label, unit: 'k coups/s', value: COUPS / ms, better: 'higher', baseline: { name: bareName, value: baseline / 1000 } });
  console.log(`  ${bareName}: ${(baseline / 1000).toFixed(0)} k coups/s; ratio ${times(r)}`);
}

const bac = baccaratProfile('macau-commission');
for (const decks of QUICK ? [1] : [1, 6, 8]) exact(`baccarat exact, ${decks} decks`, () => exactBaccarat({ ...bac, decks }));
{
  // Coups per shoe, counted over untimed shoes of the simulator's own dealing.
  const rng = Rng.fromSeed(2);
  const pack = freshCards(bac.decks);
  let coups = 0;
  const shoes = QUICK ? 5 : 50;
  for (let i = 0; i < shoes; i++) coups += coupsOfShoe(shuffled(pack, rng), bac).length;
  const coupsPerShoe = coups / shoes;
  monteCarlo(
    `baccarat Monte Carlo, ${COUPS.toLocaleString('en')} coups`,
    () => simulateBaccarat(bac, COUPS, 1),
    `bare shuffle and read to the cut card, same shoe and Rng, ${coupsPerShoe.toFixed(1)} coups a shoe`,
    bareBaccaratDeal({ decks: bac.decks, cutAt: bac.decks * 52 - bac.cutCardFromEnd, coupsPerShoe, seed: 1 }),
  );
}

/** Cards a war coup of the simulator's three seats uses, counted over untimed coups. */
function warCardsPerCoup(profile: WarProfile): number {
  const dealer = new LazyDealer(freshCards(profile.decks), Rng.fromSeed(2));
  const cutAt = profile.decks * 52 - profile.cutCardFromEnd;
  const coups = QUICK ? 20_000 : 200_000;
  let cards = 0;
  for (let i = 0; i < coups; i++) {
    const before = dealer.dealt;
    dealSimCoup(profile, dealer);
    cards += dealer.dealt - before;
    if (profile.shuffling === 'automatic-shuffler' || dealer.dealt > cutAt) dealer.reset();
  }
  return cards / coups;
}

const war = warProfile('macau');
exact('war exact, 6 decks', () => exactWar(war));
for (const [label, profile] of [
  [`war Monte Carlo (3 seats), ${COUPS.toLocaleString('en')} coups`, war],
  [`war Monte Carlo, automatic shuffler, ${COUPS.toLocaleString('en')}`, { ...war, shuffling: 'automatic-shuffler' as const }],
] as const) {
  const cardsPerCoup = warCardsPerCoup(profile);
  const everyCoup = profile.shuffling === 'automatic-shuffler';
  monteCarlo(
    label,
    () => simulateWar(profile, COUPS, 1),
    `bare lazy shuffle-and-deal, same shoe and Rng, ${cardsPerCoup.toFixed(2)} cards a coup`,
    bareWarDeal({ decks: profile.decks, cutAt: profile.decks * 52 - profile.cutCardFromEnd, cardsPerCoup, everyCoup, seed: 1, coupsPerBatch: 10_000 }),
  );
}
