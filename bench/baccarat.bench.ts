// Figures for the baccarat and «Desafio ao Casino» calculators: exact enumeration time and
// Monte Carlo throughput on one thread. Prints only; asserts nothing.
import { performance } from 'node:perf_hooks';
import { exactBaccarat } from '../engine/baccarat/exact.js';
import { baccaratProfile } from '../engine/baccarat/profiles.js';
import { simulateBaccarat } from '../engine/baccarat/simulate.js';
import { exactWar } from '../engine/war/exact.js';
import { warProfile } from '../engine/war/profiles.js';
import { simulateWar } from '../engine/war/simulate.js';

function time<T>(label: string, f: () => T, per?: number): T {
  const t0 = performance.now();
  const r = f();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms${per ? `  (${((per / ms) * 1000).toFixed(0)} coups/s)` : ''}`);
  return r;
}

const bac = baccaratProfile('macau-commission');
for (const decks of [1, 6, 8]) time(`baccarat exact, ${decks} decks`, () => exactBaccarat({ ...bac, decks }));
time('baccarat Monte Carlo, 1,000,000 coups', () => simulateBaccarat(bac, 1_000_000, 1), 1_000_000);
const war = warProfile('macau');
time('war exact, 6 decks', () => exactWar(war));
time('war Monte Carlo (3 seats), 1,000,000 coups', () => simulateWar(war, 1_000_000, 1), 1_000_000);
time('war Monte Carlo, automatic shuffler, 1,000,000', () => simulateWar({ ...war, shuffling: 'automatic-shuffler' }, 1_000_000, 1), 1_000_000);
