import { defineCommand, type OptionSpec } from '../command.js';
import { defaultDataDir } from '../../host/data-dir.js';
import { HOST_ARGS } from '../../host/launch-options.js';

/** The host's own options (forwarded to Electron's main as they are), each with its help line. */
const HOST_OPTIONS = {
  game: { ...HOST_ARGS.game, value: 'NAME', help: 'blackjack | baccarat | war (default: blackjack) on the simulated table' },
  config: {
    ...HOST_ARGS.config,
    value: 'FILE',
    help: "the table's configuration as JSON (limits per bet type, notes, stations and\ntheir devices and bill-acceptor protocol, offline limit, upstream; see\ndocs/table-host.md); the timer flags still override its timers",
  },
  seed: { ...HOST_ARGS.seed, value: 'N', help: "seed of the simulated shoe's shuffles" },
  'terminal-id': { ...HOST_ARGS['terminal-id'], value: 'ID', help: "this kiosk's terminal id for the ledger and upstream (default: the table id)" },
  upstream: {
    ...HOST_ARGS.upstream,
    value: 'URL',
    help: 'sync the ledger to the upstream service (credentials from\netg upstream enroll, saved as <data-dir>/upstream-credentials.json)',
  },
  witness: {
    ...HOST_ARGS.witness,
    value: 'SOCKET',
    help: "the ledger witness's socket (etg witness serve): the start checks the journal against\nthe newest head it signed and does not start without it; every new head goes to it",
  },
  'sim-controls': {
    ...HOST_ARGS['sim-controls'],
    help: 'open POST /sim/insert-note, /sim/insert-ticket, /sim/take-ticket,\n/sim/printer-fault, /sim/bill-fault… for tests and demos (token in the\n--json line); without --config, a simulated ticket printer at every station',
  },
  'betting-seconds': { ...HOST_ARGS['betting-seconds'], value: 'N', help: "the betting window's timer (default 15)" },
  'decision-seconds': { ...HOST_ARGS['decision-seconds'], value: 'N', help: "a decision's timer (default 15)" },
  'results-seconds': { ...HOST_ARGS['results-seconds'], value: 'N', help: 'how long the results show (default 5)' },
  autoplay: {
    ...HOST_ARGS.autoplay,
    help: 'simulated players at every station (seeded by --seed): bets, basic\nstrategy, notes through the simulated bill acceptors',
  },
  rules: { ...HOST_ARGS.rules, value: 'PROFILE', help: "the simulated table's rule profile (default: the game's Macau one)" },
  authorisation: {
    ...HOST_ARGS.authorisation,
    value: 'REF',
    help: "the regulator's authorisation reference of the profile's choice (baccarat macau-no-commission, Art. 19)",
  },
  jackpot: {
    ...HOST_ARGS.jackpot,
    help: "a simulated Portugal blackjack table with the progressive jackpot (rules 38-50) under the\nengine's example program (figures of no approval)",
  },
  stations: { ...HOST_ARGS.stations, value: 'N', help: 'how many stations the simulated table has (default 7)' },
  'log-max-mb': { ...HOST_ARGS['log-max-mb'], value: 'MB', help: 'the size cap of logs/host.log in MiB (default 20; five rotated files kept)' },
  'log-client-lines': {
    ...HOST_ARGS['log-client-lines'],
    value: 'N',
    help: 'log lines one client (an address, a screen) may cause a minute after a burst of 20\n(default 10; the rest are counted in a summary line; docs/operations.md)',
  },
  'metrics-token-file': {
    ...HOST_ARGS['metrics-token-file'],
    value: 'FILE',
    help: 'serve Prometheus metrics at /metrics to `Authorization: Bearer <token in FILE>`\n(off without it; docs/operations.md)',
  },
  'test-timing': { ...HOST_ARGS['test-timing'], help: 'tests only: instant simulated dealing and very short timers' },
  'test-kill-after-round-entry': {
    ...HOST_ARGS['test-kill-after-round-entry'],
    value: 'K',
    help: 'tests only: SIGKILL after the K-th journal entry of the first round',
  },
  'test-script': { ...HOST_ARGS['test-script'], value: 'FILE', help: 'tests only: a JSON round script for the first round' },
  'test-cut-card-at': {
    ...HOST_ARGS['test-cut-card-at'],
    value: 'N',
    help: "tests only: the simulated shoe's cut card comes out after N cards of each shoe",
  },
} as const satisfies Record<keyof typeof HOST_ARGS, OptionSpec>;

/** `etg start`'s (`npm start`'s) options, apart from its body so that `--help` and the help test need nothing else. */
export const START_COMMAND = defineCommand({
  name: 'start',
  summary:
    'Starts the table host with simulated devices, then opens the screens: Electron where its binary\n' +
    'is present, otherwise the system Chromium in app mode; with --headless, no window.',
  usage: 'usage: etg start [options]   (npm start -- [options] builds the screens first)',
  options: {
    'data-dir': { type: 'string', value: 'DIR', help: `where the ledger and logs live (default: ${defaultDataDir()})` },
    headless: { type: 'boolean', default: false, help: 'open no window; print the screen URLs and serve them' },
    port: { type: 'string', default: '0', value: 'N', help: "the host's loopback port (0: a free one)" },
    screens: { type: 'string', default: 'table,station/1', value: 'LIST', help: 'screens to open, e.g. table,station/1' },
    kiosk: { type: 'boolean', default: false, help: 'full-screen, locked-down windows (Electron and Chromium)' },
    'screen-map': { type: 'string', value: 'MAP', help: 'Electron: pin views to displays, e.g. 2:table,3:station/1' },
    browser: { type: 'boolean', default: false, help: 'use the system Chromium even where Electron is installed' },
    json: { type: 'boolean', default: false, help: 'print the URLs as one JSON line (for scripts and tests)' },
    build: { type: 'boolean', default: false, help: 'build the screens first (npm start passes it; after --help is answered)' },
    ...HOST_OPTIONS,
  },
});
