// `etg sim war [--rules macau] [--set k=v …] [--decks D] [--shuffler] (--exact | --hands N [--seed S] [--threads T]) [--json]`
// Exact figures or Monte Carlo of «Desafio ao Casino»: `main` always goes to war on a tie,
// `mainSurrender` always surrenders, `tie` is the tie bet alone. Options, threads and output are
// shared with baccarat (`cli/baccarat-war-sim.ts`).
import { exactWar } from '../../engine/war/exact.js';
import type { WarProfile } from '../../engine/war/profiles.js';
import { emptyWarTally, mergeWarTallies, simulateWar, summariseWar, type WarTally } from '../../engine/war/simulate.js';
import { warRulesFromArgs } from '../baccarat-war-args.js';
import { runSim, serveSimWorker, simCommand, type SimGame } from '../baccarat-war-sim.js';

const WAR: SimGame<WarProfile, WarTally> = {
  name: 'war',
  usage: `usage: etg sim war [--rules macau] [--set key=value …] [--decks D] [--shuffler]
         (--exact [--removed "AS KH …"] | --hands N [--seed S] [--threads T]) [--json] | --print-rules`,
  defaultRules: 'macau',
  summary: 'Exact figures or Monte Carlo of «Desafio ao Casino»: main (always to war on a tie), mainSurrender, tie.',
  shorthands: { shuffler: { flag: 'shuffling=automatic-shuffler', help: 'cards from an automatic shuffler' } },
  rules: warRulesFromArgs,
  heading: (p) => `${p.title}, ${p.decks} decks, ${p.shuffling}`,
  exact: exactWar,
  simulate: simulateWar,
  emptyTally: emptyWarTally,
  mergeTallies: mergeWarTallies,
  summarise: summariseWar,
};

serveSimWorker(WAR);

export const command = simCommand(WAR);

export function run(argv: string[]): Promise<number> {
  return runSim(WAR, import.meta.url, argv);
}
