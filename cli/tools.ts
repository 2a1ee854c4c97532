// The kiosk's tools (the upstream's are in cli/upstream-tools.ts), and the subcommands of each: the
// help lists these, the dispatcher refuses any other name, and cli/help.test.ts checks that each
// answers --help and that every module in a tool's folder is listed. A tool's modules are loaded only when one of them runs.
import type { Tool } from './subcommand.js';
import { DEVELOPMENT_INSTALL, loadNeeding } from './workspace-load.js';

/** `round --game war …` → `war …` (the game picks the subcommand); `round war …` works too. */
function byGame(argv: string[]): string[] {
  const at = argv.findIndex((a) => a === '--game' || a.startsWith('--game='));
  if (at < 0) return argv;
  const flag = argv[at] ?? '';
  const inline = flag.startsWith('--game=');
  const game = inline ? flag.slice('--game='.length) : argv[at + 1];
  const rest = [...argv.slice(0, at), ...argv.slice(at + (inline ? 1 : 2))];
  return game === undefined ? rest : [game, ...rest];
}

/** The kiosk's tools: every tool but the upstream's (cli/upstream-tools.ts); a cabinet's `etg` has these. */
export const KIOSK_TOOLS = {
  start: {
    kind: 'single',
    name: 'start',
    summary: 'The kiosk: the table host with simulated devices, and its screens (npm start).',
    load: () => import('./start.js'),
  },
  sim: {
    kind: 'group',
    name: 'sim',
    summary: 'Simulators and exact calculators of the games.',
    pick: '<game>',
    subcommands: {
      blackjack: 'Monte Carlo, exact expected value, rules with their articles or strategy chart of a blackjack profile.',
      'blackjack-sidebets': 'Exact house edges of the additional bets decided by the first two cards.',
      'blackjack-jackpot': "Exact return of Portugal's progressive jackpot chip (rules 38-50) at given pools.",
      baccarat: 'Exact enumeration or Monte Carlo of the baccarat bets.',
      war: 'Exact figures or Monte Carlo of «Desafio ao Casino».',
    },
    load: (name) => import(`./sim/${name}.ts`),
  },
  round: {
    kind: 'group',
    name: 'round',
    summary: 'Plays one scripted round from its cards and decisions (disputes, inspectors; exit 2 on any inconsistency).',
    pick: '--game <game>',
    subcommands: {
      blackjack: 'One scripted blackjack round: hands, dealer, settlement lines.',
      baccarat: 'One scripted baccarat coup: hands, totals, settlement lines.',
      war: 'One scripted coup of «Desafio ao Casino»: hands, settlement lines.',
    },
    load: (name) => import(`./round/${name}.ts`),
    route: byGame,
  },
  devices: {
    kind: 'group',
    name: 'devices',
    summary: 'Tools for technicians and test rigs: the devices seen, a device driven as the host would, simulators.',
    pick: '<command>',
    subcommands: {
      list: 'USB devices seen, the driver that would claim each and the protocols it may speak.',
      monitor: 'Drives a bill acceptor or a shoe as the host would and prints its events.',
      simulate: 'A byte-level device simulator behind a TCP listener.',
    },
    load: (name) => import(`./devices/${name}.ts`),
  },
  ledger: {
    kind: 'group',
    name: 'ledger',
    summary: "The kiosk ledger's tools.",
    pick: '<command>',
    subcommands: {
      verify: 'Checks the chain, postings, balances, meters and recall from the newest checkpoint (or --full).',
      export: 'The journal from SEQ on, as one JSON array.',
      evidence: "One round's evidence bundle: recall record, journal entries, chain proof.",
      recall: 'The last N rounds, newest first.',
      meters: 'The meters of the table or of one station.',
      status: 'Journal head, upstream acknowledgement, outbox lag, last sync error.',
      sync: "Runs the upstream sync client on a kiosk's ledger.",
      backup: 'A consistent online copy of the ledger, safe while the kiosk runs.',
      demo: 'Writes a demonstration journal for the other tools to show.',
    },
    load: (name) => import(`./ledger/${name}.ts`),
  },
  service: {
    kind: 'group',
    name: 'service',
    summary: "Service mode's accounts, and the reference hash of a build.",
    pick: '<command>',
    subcommands: {
      'add-user': 'Adds a service account (its PIN read from the terminal).',
      'list-users': 'Staff numbers, names, roles and lock state.',
      'disable-user': 'Disables an account (a supervisor and their PIN).',
      'enable-user': 'Enables a disabled account again.',
      'unlock-user': 'Lifts the lock that wrong PINs put on an account.',
      'reset-pin': 'Sets a new PIN, lifting any lock.',
      'set-role': 'Gives an account another role (a supervisor and their PIN).',
      'program-hash': 'The reference program hash of a build, and the files behind a mismatch.',
      'peer-file': "This table's enrolment file for a peer table (a new credential it dials in with; two people).",
      'peer-withdraw': 'Revokes the credential a peer table dials this table with (two people).',
    },
    load: (name) => import(`./service/${name}.ts`),
  },
  witness: {
    kind: 'group',
    name: 'witness',
    summary: "The ledger witness: a service under its own user that signs the journal's heads and checkpoints.",
    pick: '<command>',
    subcommands: {
      serve: 'The witness on its Unix socket.',
      keygen: "Makes the witness's key file (where no TPM keeps it).",
      forget: "Accepts the loss of a terminal's witnessed entries (root, witness stopped).",
    },
    load: (name) => import(`./witness/${name}.ts`),
  },
  package: {
    kind: 'single',
    name: 'package',
    summary: 'Packages the kiosk: bundles, the app folder, then electron-builder (.deb, AppImage); --dry-run.',
    load: () => import('./package.js'),
  },
  soak: {
    kind: 'single',
    name: 'soak',
    summary: 'The autoplay host killed and restarted on the same data, then the money accounted from the ledger.',
    // Its kill campaign bundles its target with esbuild, a development tool (cli/workspace-load.ts).
    load: () => loadNeeding(DEVELOPMENT_INSTALL, () => import('./soak.js')),
  },
  'station-agent': {
    kind: 'single',
    name: 'station-agent',
    summary: "A remote station's agent: its bill acceptor relayed to the table, its screen served on its loopback.",
    load: () => import('./station-agent.js'),
  },
  edge: {
    kind: 'single',
    name: 'edge',
    summary: "An edge of a table with edges: holds its remote stations' connections and relays them to the host over NATS.",
    load: () => import('./edge.js'),
  },
  'sim-faults': {
    kind: 'single',
    name: 'sim-faults',
    summary: 'The deterministic simulation of the whole table host under faults; a seed replays exactly.',
    load: () => import('./sim-faults.js'),
  },
} as const satisfies Record<string, Tool>;
