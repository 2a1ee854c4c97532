import { defineCommand } from '../command.js';

/** `soak`'s options, apart from its body so that the help test can read them without running a soak. */
export const SOAK_COMMAND = defineCommand({
  name: 'soak',
  summary:
    'The autoplay host as a child process, killed with SIGKILL every M rounds and restarted on the same\n' +
    'data; then the money is accounted from the ledger. Exit 1 when the money is not conserved or the\n' +
    'ledger does not verify.',
  usage:
    'usage: etg soak --game blackjack|baccarat|war [--rules P [--authorisation REF]] --rounds N [options]\n       etg soak --campaign [--sigkill-trials N] [--start-cost N] [--trials N] [--ticket-seeds N] [--seed S]\n                   [--sigkill-rounds N [--kill-every M]]',
  options: {
    game: { type: 'string', value: 'GAME', help: 'blackjack, baccarat or war' },
    rules: { type: 'string', value: 'PROFILE', help: "rule profile (default: the game's Macau profile)" },
    authorisation: {
      type: 'string',
      value: 'REF',
      help: "the regulator's authorisation reference of the profile's choice (baccarat\nmacau-no-commission, Art. 19), as etg start takes it",
    },
    jackpot: {
      type: 'boolean',
      help: "a Portugal blackjack table with the progressive jackpot (the engine's example program): the\naccount also checks the pools and the hits against the journal",
    },
    rounds: { type: 'string', value: 'N', help: 'rounds to play' },
    stations: { type: 'string', value: 'K', help: 'stations with a simulated player (default 3)' },
    seed: { type: 'string', value: 'S', help: 'seed of the shoe and the players (default 1)' },
    tickets: {
      type: 'boolean',
      help: "a simulated ticket printer at every station (the host's --sim-controls): players cash out to\ntickets and insert them at other stations; the money check counts them",
    },
    'kill-every': {
      type: 'string',
      value: 'M',
      help: 'SIGKILL the host every M rounds and restart it on the same data\n(with --tickets, each kill lands while a ticket prints, if one does within 5 s)',
    },
    'cut-card-at': {
      type: 'string',
      value: 'N',
      help: "the simulated shoe's cut card comes out after N cards of each shoe: a shoe change every\nround or two (tests; default: 16 cards from the end)",
    },
    'log-max-mb': { type: 'string', value: 'MB', help: "the host's log cap (host.log rotates past it; default 20): the soak fails if host.log passes it" },
    campaign: {
      type: 'boolean',
      help: "kill trials over the three games and both blackjack jurisdictions with the simulation's other\nfaults (cli/sim-faults/): one table of trials, faults by kind, lost and duplicated credits,\nledger failures, time to recover p50/p99. Exit 1 on any failure",
    },
    trials: { type: 'string', value: 'N', help: 'with --campaign: simulated kill trials at journal writes to run (default 1000)' },
    'ticket-seeds': {
      type: 'string',
      value: 'N',
      help: "with --campaign: seeded ticket floors after the kill at every journal step of a ticket's\nissue and redemption (cli/sim-faults/tickets/; default 200; 0: the kill points only)",
    },
    'sigkill-trials': {
      type: 'string',
      value: 'N',
      help: 'with --campaign: OS-level SIGKILL trials of a kill-target process on the real ledger file,\neach followed by a restart that recovers and the invariants (default 1000; 0: none)',
    },
    'start-cost': {
      type: 'string',
      value: 'N',
      help: "with --campaign: measure the kill target's start, bundled and through tsx, N starts each\n(default 10; 0: none)",
    },
    'sigkill-rounds': {
      type: 'string',
      value: 'N',
      help: 'with --campaign: also an OS-level SIGKILL soak of N rounds per table, killed every --kill-every\nrounds (default 2)',
    },
    'data-dir': { type: 'string', value: 'DIR', help: 'keep the data here (default: a temporary folder, removed after)' },
    json: {
      type: 'boolean',
      help: 'one JSON line: rounds, restarts, voided, creditsIn, creditsOut, creditsOnMeters,\nwagered, won, conserved, ledgerVerified, roundsPerHour,\nlogCapBytes, logPeakBytes (largest host.log seen), logFiles (host.log and its rotations),\nshoeChanges (shoes replaced in play, a round on each), holds (times the table went on hold),\ntickets (printed, voided, inPrint, redeemed: count and amount; pendingRedemptions),\nupstreamAlarms (with --tickets: the alarms its upstream raised, by kind and what)',
    },
  },
});
