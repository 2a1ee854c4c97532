// `etg sim baccarat [--rules P] [--set k=v …] [--decks D] (--exact | --hands N [--seed S] [--threads T]) [--json]`
// Exact enumeration or Monte Carlo of the baccarat bets; the work is engine code, the options,
// threads and output are shared with war (`cli/baccarat-war-sim.ts`).
import { exactBaccarat } from '../../engine/baccarat/exact.js';
import type { BaccaratProfile } from '../../engine/baccarat/profiles.js';
import { emptyTally, mergeTallies, simulateBaccarat, summariseBaccarat, type BaccaratTally } from '../../engine/baccarat/simulate.js';
import { baccaratRulesFromArgs } from '../baccarat-war-args.js';
import { runSim, serveSimWorker, simCommand, type SimGame } from '../baccarat-war-sim.js';

const BACCARAT: SimGame<BaccaratProfile, BaccaratTally> = {
  name: 'baccarat',
  usage: `usage: etg sim baccarat [--rules macau-commission|macau-no-commission] [--set key=value …] [--decks D]
         (--exact [--removed "AS KH …"] | --hands N [--seed S] [--threads T]) [--json] | --print-rules`,
  summary: 'Exact enumeration or Monte Carlo of the baccarat bets.',
  defaultRules: 'macau-commission',
  rules: baccaratRulesFromArgs,
  heading: (p) => `${p.title}, ${p.decks} decks`,
  exact: exactBaccarat,
  simulate: simulateBaccarat,
  emptyTally,
  mergeTallies,
  summarise: summariseBaccarat,
};

serveSimWorker(BACCARAT);

export const command = simCommand(BACCARAT);

export function run(argv: string[]): Promise<number> {
  return runSim(BACCARAT, import.meta.url, argv);
}
