import { defineCommand } from '../command.js';

/** `sim-faults`'s options, apart from its body so that the help test can read them without running it. */
export const SIM_FAULTS_COMMAND = defineCommand({
  name: 'sim-faults',
  summary:
    'The deterministic simulation of the whole table host under faults: one seed drives the table, the\n' +
    'shoe, the bill acceptors, the players, the upstream link, the clock and the fault injector (kills at\n' +
    'journal writes, SQLITE_FULL/IOERR, lost ACKs, garbled frames, clock steps, a truncated database,\n' +
    '500/reset/slow/duplicate/reordered/gap on the upstream). After each run it checks the invariants;\n' +
    'exit 1 when one fails. One seed prints its fault trace; it replays exactly.',
  usage:
    'usage: etg sim-faults --seed S [--trace]\n       etg sim-faults --seeds N [--from S]\n       etg sim-faults --tickets (--seed S | --seeds N [--from S])',
  options: {
    seed: { type: 'string', value: 'S', help: 'run this seed alone and print its fault trace' },
    seeds: { type: 'string', value: 'N', help: 'run N seeds (default 200), from --from' },
    from: { type: 'string', value: 'S', help: 'the first seed of --seeds (default 1)' },
    steps: { type: 'string', value: 'N', help: 'steps of each run (default 300)' },
    table: {
      type: 'string',
      value: 'I',
      help: 'one table for every seed: 0 blackjack macau-2009, 1 blackjack portugal-2001,\n2 baccarat, 3 war (default: drawn by the seed)',
    },
    'side-bets-alone': { type: 'boolean', help: 'players may place an additional bet with no main bet (a known engine failure)' },
    tickets: {
      type: 'boolean',
      help: "the tickets' floor instead (cli/sim-faults/tickets/): two tables printing and taking\ntickets under kills, lying printers and a late, silent or repeating authority; with --seeds,\nthe kill at every journal step of a ticket's issue and redemption first",
    },
    trace: { type: 'boolean', help: 'with --seeds: print the trace of every failing seed' },
    json: { type: 'boolean', help: 'one JSON line per seed: seed, game, profile, starts, roundsClosed, faults, notes, violations' },
  },
});
