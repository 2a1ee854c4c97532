// ESLint flat config. The layer table below is docs/architecture.md's written as data: change the design
// first, then this table; never relax it to make a file pass.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import local from './scripts/eslint/layering.js';

const root = path.dirname(fileURLToPath(import.meta.url));

const NODE_SERVER = ['fastify', '@fastify/*', 'ws', 'pino', 'zod'];

/** @type {Record<string, import('./scripts/eslint/layering.js').Layer>} */
export const layers = {
  // A playing card, defined once (issue 53 item 3): ranks, suits, the 52 codes and their one strict
  // parse. It imports nothing, so the engine, the shoe's drivers, the protocol and the screens all
  // import it instead of keeping a copy each.
  cards: { folders: {}, packages: [], node: false, why: 'the card is the lowest layer: it imports nothing' },
  engine: {
    folders: { cards: 'any' },
    packages: ['zod'],
    node: false,
    why: 'the engine is pure and imports nothing of ours',
    // Inside engine/table, bottom to top (docs/architecture.md, "The table's tiers"): a file imports
    // its own tier and the ones below, never above. The step and the views sit on the phases, the
    // phases on the rules, the rules on the shapes, the shapes on the words; the fold on the step.
    tiers: {
      'engine/table': [
        ['words', ['vocabulary', 'pay-line', 'rule-options', 'act-refusal']],
        ['shapes', ['state', 'inputs', 'state-schema', 'game', 'bet-catalogue', 'field-options', 'effects', 'advisor', 'part-schemas']],
        ['rules', ['turn', 'queries', 'limits', 'held-cards', 'on-hold', 'shoe-change']],
        ['phases', ['dealing', 'shoe', 'betting', 'holds', 'seat-streaks', 'seat-change']],
        ['step', ['step', 'views', 'public-lines']],
        ['fold', ['fold']],
      ],
    },
  },
  // The terms the table hosts and the upstream share (issue 53 item 6): transfers' and tickets'
  // terms, their reconciliation, validation numbers. Pure and zod only, out of the ledger so that
  // the upstream, which imports them, installs no SQLite.
  terms: { folders: {}, packages: ['zod'], node: false, why: 'the shared terms are pure: they import nothing of ours' },
  // serialport: a device on an on-board RS-232 port (`serial:/dev/ttyS0`), beside USB bridges and TCP.
  // The one backoff (issue 32) is the pure engine's, as every other link that tries again uses it.
  hardware: {
    folders: { cards: 'any', 'engine/backoff.ts': 'any' },
    packages: ['usb', 'serialport', 'zod'],
    node: true,
    why: 'hardware imports nothing of ours but the one backoff',
  },
  protocol: {
    // The table's words (bet ids, decision actions, hold and refusal reasons) are the engine's;
    // the protocol validates against them. A station screen lays out baccarat's roads from the
    // shoe's coups with the engine's own pure road functions, the table display's (protocol 6):
    // the protocol imports nothing else of ours.
    // Grown coup by coup as the coups come (issue 55), the same roads.
    folders: {
      cards: 'any',
      'engine/table/vocabulary.ts': 'any',
      'engine/baccarat/roads-view.ts': 'any',
      'engine/baccarat/roads-grow.ts': 'any',
      'engine/baccarat/roads.ts': 'types',
    },
    packages: ['zod'],
    node: false,
    why: 'the protocol is shared by host and screens: it may use the engine vocabulary and its road maps only',
  },
  ledger: {
    // The one canonical JSON and the one backoff (issue 32) live in the pure engine, which the
    // table fold and every other link that tries again use too.
    // The ledger witness's socket protocol and the text of what it signs are the witness's,
    // defined once there: the ledger's client and checks read them (docs/ledger.md, "The witness").
    // The one folder lock (one process per folder) is the witness's too, the lowest Node layer:
    // the ledger holds its data folder with it.
    folders: {
      cards: 'any',
      engine: 'types',
      'engine/canonical-json.ts': 'any',
      'engine/backoff.ts': 'any',
      protocol: 'types',
      terms: 'any',
      'witness/wire.ts': 'any',
      'witness/statement.ts': 'any',
      'witness/sqlite-folder-lock.ts': 'any',
    },
    packages: ['better-sqlite3', 'zod'],
    node: true,
    why: 'the ledger imports only plain types',
  },
  host: {
    // package.json: the software version reported to service mode and /healthz.
    folders: { cards: 'any', engine: 'any', hardware: 'any', ledger: 'any', terms: 'any', protocol: 'any', locales: 'any', 'package.json': 'any' },
    // prom-client: the host's /metrics (host/metrics/); @peculiar/x509: the table's own TLS
    // certificate for its remote stations (host/stadium); i18next: the host's own words (the
    // printable meters report), through the locales' shared setup; nats: the stadium's edges'
    // broker (host/edges/, issue 55).
    packages: [...NODE_SERVER, 'prom-client', '@peculiar/x509', 'i18next', 'nats'],
    node: true,
    why: 'the host wires engine, hardware, ledger and protocol, never screens or electron',
    // Inside the host, bottom to top (docs/architecture.md): each subfolder and what it may import.
    // The files directly in host/ (start-host.ts…) are the composition root and may import any.
    inside: {
      config: [],
      recovery: [],
      logging: [],
      metrics: [],
      // The one rate limiter (a token bucket over a clock handed in): screens, links and SAS rations;
      // a link's two bounds (its send buffer cap, its pings), the same for every WebSocket link; the
      // one redial of a link or port that tries again; and the one connection guard of a listener
      // (the host's two, an edge's).
      limits: [],
      // Remote stations: enrolment, credentials, the table's TLS certificate.
      stadium: [],
      // Credit moved between table hosts (issue 34): a pure protocol over the ledger's transfer entries.
      transfers: [],
      // The links between table hosts of a floor carrying transfers (issue 34): peers' credentials, the pinned links.
      peers: ['limits', 'screens', 'stadium', 'transfers'],
      // Cash-out tickets (issue 47): the validation authority's interface, its guard and its upstream client.
      tickets: [],
      table: ['config'],
      tilts: ['table'],
      devices: ['config', 'limits', 'recovery', 'stadium', 'table', 'tickets'],
      floor: ['config', 'devices', 'table', 'tickets', 'tilts'],
      service: ['config', 'devices', 'floor', 'stadium', 'table', 'tickets', 'tilts'],
      screens: ['config', 'floor', 'limits', 'logging', 'service', 'stadium', 'table'],
      server: ['limits', 'peers', 'screens', 'stadium'],
      // The stadium's fan-out on NATS (issue 55): the host's publisher, the edge process and its listener.
      edges: ['limits', 'screens', 'stadium'],
      // The station agent runs on a remote station's machine: its acceptor, its screen, its link to the host.
      'station-agent': ['limits', 'server', 'stadium'],
      autoplay: ['config', 'floor', 'screens', 'table'],
      testing: ['config', 'devices', 'floor', 'screens', 'table', 'tilts'],
      // The start's steps (host/start-host.ts calls them in order): the composition root's own
      // wiring, so it may import every folder the host runs (not the station agent, not the test kit).
      start: [
        'autoplay',
        'config',
        'devices',
        'edges',
        'floor',
        'limits',
        'logging',
        'metrics',
        'peers',
        'recovery',
        'screens',
        'server',
        'service',
        'stadium',
        'table',
        'tickets',
        'tilts',
        'transfers',
      ],
    },
  },
  renderer: {
    // engine/backoff.ts: the one backoff (issue 32), for the screen's reconnects.
    folders: { cards: 'any', protocol: 'any', locales: 'any', assets: 'any', 'engine/backoff.ts': 'any' },
    packages: ['pixi.js', 'i18next', 'zod', 'vite'],
    node: false,
    why: 'screens are thin clients: protocol, locales and assets only (and the one backoff)',
  },
  // The back office's page (issue 49): plain DOM in a browser, served by the upstream; it talks to
  // the upstream only over HTTP, so it imports none of the upstream's code. uplot: its plots.
  backoffice: {
    folders: { protocol: 'any', locales: 'any' },
    packages: ['i18next', 'uplot', 'zod', 'vite'],
    node: false,
    why: 'the back office page is a thin client: protocol and locales only',
  },
  electron: {
    // locales: the out-of-service page's words; the USB bridges' ids: the only devices a page may be granted;
    // pino: the main process logs into the host's log, in its format.
    folders: { protocol: 'any', host: 'any', locales: 'any', 'hardware/transport/usb-serial.ts': 'any' },
    packages: ['electron', 'zod', 'pino'],
    node: true,
    why: 'electron imports the protocol and starts the host',
  },
  // The ledger witness: a service of its own under its own system user (deploy/systemd/etg-witness.*);
  // it takes nothing of the kiosk's code, so nothing the kiosk's user can change runs inside it.
  witness: { folders: {}, packages: ['zod'], node: true, why: 'the witness stands alone: it imports nothing of ours' },
  upstream: {
    // The transfers' terms and their reconciliation (issue 34), the tickets' terms and validation
    // numbers (issue 47): pure, zod only, defined once in terms/ for the hosts and the upstream.
    // Nothing of the ledger: a workspace edge to it would install SQLite on the upstream (issue 53).
    // The one folder lock (one process per folder, witness/sqlite-folder-lock.ts: zod and Node's
    // built-ins only) holds its embedded database folder, as it holds the kiosk's and the witness's.
    folders: { protocol: 'types', terms: 'any', 'witness/sqlite-folder-lock.ts': 'any' },
    // prom-client: /metrics; fastify-type-provider-zod: routes validated and serialised by their zod schemas, OpenAPI from them.
    packages: [...NODE_SERVER, 'pg', '@electric-sql/pglite', 'prom-client', 'fastify-type-provider-zod'],
    node: true,
    why: 'the upstream service stands alone; it shares only plain types',
  },
  cli: {
    folders: {
      cards: 'any',
      engine: 'any',
      hardware: 'any',
      ledger: 'any',
      terms: 'any',
      host: 'any',
      protocol: 'any',
      upstream: 'any',
      locales: 'any',
      witness: 'any',
    },
    packages: ['*'],
    node: true,
    why: 'command-line tools drive the Node layers, never screens or electron',
  },
  bin: {
    // `etg`: registers tsx's loader, then runs the command line.
    folders: { cli: 'any' },
    packages: ['tsx'],
    node: true,
    why: 'the bin starts the command line',
  },
  bench: {
    folders: {
      cards: 'any',
      engine: 'any',
      hardware: 'any',
      ledger: 'any',
      terms: 'any',
      host: 'any',
      protocol: 'any',
      upstream: 'any',
      cli: 'any',
      witness: 'any',
    },
    packages: ['*'],
    node: true,
    why: 'benchmarks run in Node',
  },
  tests: {
    folders: {
      cards: 'any',
      engine: 'any',
      terms: 'any',
      hardware: 'any',
      ledger: 'any',
      host: 'any',
      protocol: 'any',
      upstream: 'any',
      cli: 'any',
      locales: 'any',
      assets: 'any',
      renderer: 'any',
      backoffice: 'any',
      scripts: 'any',
      witness: 'any',
    },
    packages: ['*'],
    node: true,
    why: 'tests run in Node and Chromium, never inside Electron',
  },
  // The catalogues and the one i18next setup the screens and the host share (typed keys, money
  // and list formats); it reads the protocol's language and currency names. Which catalogues exist
  // is read from locales/catalogues/: by Vite's glob in the screens, from the disk in Node, by the
  // one file the package's `imports` gives Node alone (docs/architecture.md, "Languages").
  locales: {
    folders: { protocol: 'any' },
    packages: ['i18next'],
    node: false,
    nodeFiles: ['locales/catalogue-files.node.ts'],
    why: 'catalogues and their i18next setup',
  },
  // Data folder: assets import nothing but their own files (fonts).
  assets: { folders: {}, packages: [], node: false, why: 'assets are data' },
  deploy: {
    // The packaging steps: the bundles, the app folder, the ASAR, the program hash of what is packed.
    folders: { scripts: 'any', host: 'any', hardware: 'any', cli: 'any' },
    packages: ['*'],
    node: true,
    why: 'packaging scripts run in Node at build time',
  },
  scripts: {
    // cli/esbuild-catalogues.ts: Electron's bundle takes the catalogues as the cabinet's etg does.
    // cards: the suits' signs the font subset must hold (scripts/font-chars.ts).
    folders: { cards: 'any', locales: 'any', assets: 'any', protocol: 'any', engine: 'any', host: 'any', 'cli/esbuild-catalogues.ts': 'any' },
    packages: ['*'],
    node: true,
    why: 'build scripts run in Node',
  },
};

/**
 * Packages one layer alone may import, whatever the others allow: the ledger's database driver,
 * so that its schema stays private to ledger/ (docs/ledger.md "The schema is private").
 */
export const owners = { 'better-sqlite3': 'ledger' };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.tsbuild/', 'test-results/', 'playwright-report/', 'artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,js,mjs}'],
    plugins: { local },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'local/layering': ['error', { root, layers, owners }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The bin is plain JavaScript run by Node (TypeScript knows Node's globals from @types/node).
    files: ['bin/**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Test files sit beside the code they test but run in Node with the test runner.
    files: ['**/*.test.ts'],
    rules: {
      'local/layering': [
        'error',
        {
          root,
          owners,
          layers: Object.fromEntries(
            // Tests run in Node, so they may use its built-ins, but never electron (docs/architecture.md, the build machines).
            Object.entries(layers).map(([name, layer]) => [
              name,
              { ...layer, node: true, packages: [...(layer.packages ?? []).filter((p) => p !== 'electron'), 'fast-check'] },
            ]),
          ),
        },
      ],
    },
  },
);
