// The kit of the rule-set-switch tests (issue 49 item 6): a baccarat table opened as the host opens
// it (host/start/table-runtime.ts's openTableRuntime, the floor services, the back office's orders
// through RemoteConfig), over a ledger in a folder a restart opens again, on a clock the test runs.
// A round is scripted so that its settlement says which profile it was played under: the banker
// wins with 6 on two cards, paid 19 to 20 under Macau's commission and 1 to 2 without it.
import { generateKeyPairSync } from 'node:crypto';
import pino from 'pino';
import { parseCard } from '../../engine/cards/card.js';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { wireFloorServices, type WiredFloorServices } from '../../host/floor/floor-services.js';
import { RemoteConfig } from '../../host/floor/remote-config.js';
import { configOrderAlarm } from '../../host/start/floor.js';
import { openTableRuntime, type TableRuntime } from '../../host/start/table-runtime.js';
import { StartStops } from '../../host/start/stops.js';
import { manualTimers } from '../../host/testing/manual-timers.js';
import { signOrder } from '../../host/testing/remote-orders.js';
import { credit } from '../../host/testing/table-kit.js';

export const TERMINAL = 'T-SHOE';
export const FROM = 'macau-commission';
export const TO = 'macau-no-commission';
/** What the scripted round's 10,000 on the banker wins under each profile. */
export const BANKER_SIX_WINS: Record<string, number> = { [FROM]: 9_500, [TO]: 5_000 };

const upstream = generateKeyPairSync('ed25519');
const publicKey = upstream.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const silent = pino({ level: 'silent' });
let starts = 0;

/** The configuration file: it says the first profile whatever the journal changed. */
export function fileConfig(): TableConfig {
  return TableConfig.parse(simulatedTableConfig('baccarat', FROM));
}

/** The back office's order to play `profile`, as the upstream signs it. */
export function profileOrder(id: number, profile = TO, over: Record<string, unknown> = {}) {
  const o = {
    v: 1,
    id,
    terminalId: TERMINAL,
    key: 'profile',
    after: profile,
    authorisation: `DICJ-2026/${id}`,
    proposedBy: 'ana',
    proposedAt: '2026-11-26T10:00:00.000Z',
    approvedBy: 'rui',
    approvedAt: '2026-11-26T10:05:00.000Z',
    ...over,
  };
  return { answer: { orders: [signOrder(o, upstream.privateKey, TERMINAL)] }, signed: signOrder(o, upstream.privateKey, TERMINAL) };
}

export interface ShoeHost {
  config: TableConfig;
  ledger: Ledger;
  rt: TableRuntime;
  floor: WiredFloorServices;
  remote: RemoteConfig;
  clock: ReturnType<typeof manualTimers>;
  alarms: string[];
  /** Burns the new shoe's cards, as the game's procedure asks. */
  burn(): void;
  /** One round: 10,000 on the banker at station 1, the banker winning with 6 on two cards; its id. */
  round(): string;
  /** The shoe reports a new shoe (between rounds), and the microtask the orders are made in has run. */
  newShoe(): Promise<void>;
  /** Stops as a kill would leave it: nothing more journalled, the ledger closed without a clean stop's entry. */
  stop(): void;
}

/** The host's start over the folder, as openTableRuntime and the floor wiring make it. */
export function openShoeHost(dir: string): ShoeHost {
  const config = fileConfig();
  const ledger = openLedger(dir, TERMINAL);
  const clock = manualTimers();
  // Time goes on across a restart: each start an hour after the one before (a round's id has its time in it).
  clock.advance(++starts * 3_600_000);
  const rt = openTableRuntime(
    { dataDir: dir, rendererDir: dir, timers: clock.timers },
    { config, ledger, log: silent, manifest: { mode: 'tsx', hash: 'shoe-profile-test', files: [] } },
    // Started whole or not at all: the kit's `stop` is what stops it.
    new StartStops(silent),
  );
  const floor = wireFloorServices({
    config,
    ledger,
    log: silent,
    tilts: rt.tilts,
    table: rt.table,
    billAcceptors: { setAccepted: () => undefined, setInhibited: () => undefined },
    params: rt.paramsNow,
    onConfigApplied: () => undefined,
    ruleSwitch: rt.ruleSwitch,
  });
  rt.game.resume({ newShoe: false, params: rt.paramsNow() });
  const alarms: string[] = [];
  // The host's own alarm (a fault journalled), and the test's record of what it said.
  const raise = configOrderAlarm(rt.tilts);
  const onAlarm = (m: string) => {
    alarms.push(m);
    raise(m);
  };
  const remote = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger, changes: floor.configChanges, log: silent, onAlarm });
  const table = rt.table;
  const burn = () => {
    for (let i = 0; i < 20 && table.reads.cue()?.kind === 'card'; i++) table.shoe.onCard(parseCard('3C'));
  };
  return {
    config,
    ledger,
    rt,
    floor,
    remote,
    clock,
    alarms,
    burn,
    round() {
      burn();
      if (ledger.credit(1) < 10_000) credit(ledger, 1, 100_000);
      const placed = table.commands.placeBet(1, { bet: 'banker' }, 10_000);
      if (!placed.ok) throw new Error(`the bet was refused: ${JSON.stringify(placed)}`);
      clock.runOut(table.reads.view().endsAt);
      const id = table.state.roundId;
      // P T,5 (5) draws T; B 2,4 (6) stands: the banker wins with 6 on two cards.
      for (const c of 'TS 2H 5D 4C TH'.split(' ')) table.shoe.onCard(parseCard(c));
      if (table.reads.view().phase !== 'results')
        throw new Error(`the round did not settle: ${table.reads.view().phase} ${JSON.stringify(table.reads.holdState())}`);
      clock.runOut(table.reads.view().endsAt);
      return id;
    },
    async newShoe() {
      table.shoe.onNewShoe();
      await new Promise((r) => setImmediate(r));
    },
    stop() {
      remote.close();
      floor.close();
      table.stop();
      ledger.close();
    },
  };
}
