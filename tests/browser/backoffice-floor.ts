// Three table hosts' ledgers syncing to an upstream with its back office, for the back office's
// browser test (issue 49): an upstream on in-memory PGlite with one user per role (light scrypt
// parameters; the password below), three terminals whose ledgers sync through the real SyncClient
// and send heartbeats every second, one alarm to work, and a fourth terminal, T4, that is a live
// table host (startHost: a blackjack table with a simulated shoe, no dealer) syncing to the upstream
// as `etg start --upstream` does, so that a configuration order the back office approves is
// received, checked and made by the table's own code (host/floor/remote-config.ts). Prints one
// JSON line: the page's URL. Control lines on stdin: `note T S` credits a note at station S of
// terminal T and syncs it now; `round T` plays a round on T's occupied stations and syncs it now;
// `heartbeat T4` sends the live table's heartbeat now (it fetches the approved orders after it);
// `shoe T4` loads a new shoe into its simulated shoe, then syncs its journal and answers with the
// limits the table plays to and the rule profile it plays. `hosts start` starts three more live table hosts as child processes
// (T5 blackjack, T6 baccarat, T7 war: `etg start --headless --autoplay --test-timing --upstream`,
// bundled by tests/children/bundle.ts, each enrolled with its credentials in its data folder),
// playing rounds by themselves and syncing them; `hosts stop` stops them (so the rest of the
// spec runs without their load), then sends what each had journalled and not yet sent, as the
// kiosk would at its next start, keeps its table meters, and answers each one's settled rounds. `ledgers` answers every table's own
// meters (`ledger.meters('table')`) and currency, once each has sent all it journalled: what the
// gaming day's CSV must add up to.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { answeredOrders, credentialsFile, Ledger, readCredentials, SyncClient } from '../../ledger/index.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { ledgerHandpaidWins } from '../../ledger/testing/handpay-sums.js';
import { HostChild } from '../../cli/soak/child.js';
import { bundledChild } from '../children/bundle.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream } from '../../upstream/index.js';

export const PASSWORD = 'correct horse battery';
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const db = await openPglite();
await migrateUpstream(db);
for (const role of ['viewer', 'supervisor', 'accounting', 'administrator']) await putUser(db, { name: role, role, password: PASSWORD, by: 'test' }, FAST);
const up = await startUpstream({ db, backoffice: {} });
const games = { T1: 'blackjack', T2: 'baccarat', T3: 'war' } as const;
// Each table's currency, as its heartbeat names it: T3 plays in Hong Kong dollars, the others
// (and the live T4, by its configuration) in patacas, so the report totals each apart.
const currencies: Record<string, { code: string; exponent: number }> = {
  T1: { code: 'MOP', exponent: 2 },
  T2: { code: 'MOP', exponent: 2 },
  T3: { code: 'HKD', exponent: 2 },
};
const tables = new Map<string, { ledger: Ledger; client: SyncClient; stations: Set<number>; rounds: number }>();
for (const [id, game] of Object.entries(games)) {
  const cred = await enrolTerminal(db, id, false);
  const ledger = Ledger.open({ file: ':memory:', terminalId: id });
  const stations = new Set([1, 2]);
  const currency = currencies[id] ?? { code: 'MOP', exponent: 2 };
  for (const s of stations) ledger.append(billCredit(s, 10_000, `${id}-b${s}`, currency.code));
  const client: SyncClient = new SyncClient(ledger, {
    url: up.url,
    credentials: { ...cred, upstream: up.url },
    idleMs: 200,
    heartbeat: {
      intervalMs: 1000,
      snapshot: (): Record<string, unknown> => ({
        tableId: `${game.toUpperCase()}-${id}`,
        game,
        currency,
        table: { phase: 'betting', faults: [] },
        sync: { lagEntries: client.status().lagEntries, lagSeconds: 0 },
      }),
    },
  });
  client.start();
  tables.set(id, { ledger, client, stations, rounds: 0 });
}
// The live table: enrolled as the operator would (`etg upstream enroll`, saved in its data folder).
const liveDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-live-'));
writeFileSync(credentialsFile(liveDir), JSON.stringify({ ...(await enrolTerminal(db, 'T4', false)), upstream: up.url }), { mode: 0o600 });
const liveConfig = simulatedTableConfig('blackjack');
const live = await startHost({
  dataDir: liveDir,
  rendererDir: path.join(import.meta.dirname, '../../dist/renderer'),
  config: liveConfig,
  terminalId: 'T4',
  upstream: up.url,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  simulatedDealer: false,
  seed: 49,
});
const liveSync = live.sync;
if (!liveSync) throw new Error('the live table has no sync client');
/** Sends until the table has nothing left to send (its journal is at the upstream). */
async function drain(): Promise<void> {
  for (let i = 0; i < 100 && liveSync!.status().lagEntries > 0; i++) await liveSync!.syncOnce();
}
await drain();
await liveSync.sendHeartbeat();

await db.query("INSERT INTO alarms (terminal_id, kind, detail) VALUES ('T2', 'transfer-disagreement', '{\"reason\":\"terms-differ\"}')");
console.log(JSON.stringify({ url: `${up.url}/backoffice/`, password: PASSWORD }));

/** The three live table hosts of `hosts start`, as children: each enrolled, syncing to the upstream. */
const children: { child: HostChild; dir: string; game: 'blackjack' | 'baccarat' | 'war' }[] = [];
async function startHosts(): Promise<Record<string, string>> {
  const etg = await bundledChild('tests/children/etg-entry.ts');
  const hosts = { T5: 'blackjack', T6: 'baccarat', T7: 'war' } as const;
  for (const [id, game] of Object.entries(hosts)) {
    const dir = mkdtempSync(path.join(os.tmpdir(), `backoffice-${id}-`));
    writeFileSync(credentialsFile(dir), JSON.stringify({ ...(await enrolTerminal(db, id, false)), upstream: up.url }), { mode: 0o600 });
    const child = new HostChild({ etg, dataDir: dir, game, stations: 2, seed: 49, extra: [`--terminal-id=${id}`, `--upstream=${up.url}`] });
    children.push({ child, dir, game });
  }
  const started = await Promise.all(children.map((c) => c.child.started));
  const failed = children.filter((_, i) => started[i] === null);
  if (failed.length > 0) throw new Error(`a live host did not start: ${failed.map((c) => c.child.errors()).join('\n')}`);
  return Object.fromEntries(Object.keys(hosts).map((id, i) => [id, started[i]?.origin ?? '']));
}
// Killed with this process whatever ends it (a failed spec, a timeout): no host outlives the floor.
process.once('exit', () => children.forEach((c) => c.child.process.kill('SIGKILL')));
/** Each stopped host's table meters, round payouts paid by hand and currency, read from its ledger once its tail was sent. */
const stopped = new Map<string, { currency: string; meters: Record<string, number>; handpaidWins: number }>();
/** Each stopped host's settled rounds as its journal has them (id and time, in journal order): what the floor's rows may carry. */
const settledRounds: Record<string, { roundId: string; at: string }[]> = {};
async function stopHosts(): Promise<void> {
  await Promise.all(children.map((c) => c.child.kill('SIGTERM')));
  for (const c of children.splice(0)) {
    try {
      const credentials = readCredentials(credentialsFile(c.dir));
      const ledger = Ledger.open({ dataDir: c.dir, terminalId: credentials.terminalId });
      try {
        const client = new SyncClient(ledger, { url: up.url, credentials });
        while ((await client.syncOnce()) === 'sent');
        if (client.status().lagEntries > 0) throw new Error(`${credentials.terminalId}: ${client.status().lagEntries} entries not taken`);
        // The child runs the simulated table's configuration of its game: that currency.
        stopped.set(credentials.terminalId, {
          currency: simulatedTableConfig(c.game).currency,
          meters: ledger.meters('table'),
          handpaidWins: ledgerHandpaidWins(ledger),
        });
        settledRounds[credentials.terminalId] = [...ledger.entries()].flatMap((e) =>
          e.type === 'round.settle' && e.roundId ? [{ roundId: e.roundId, at: e.ts }] : [],
        );
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(c.dir, { recursive: true, force: true });
    }
  }
}

/** Every table's own meters and currency, once it has sent all it journalled (the live hosts only once stopped). */
async function ledgerMeters(): Promise<Record<string, { currency: string; meters: Record<string, number>; handpaidWins: number }>> {
  for (const t of tables.values()) {
    t.client.kick();
    for (let i = 0; i < 100 && t.client.status().lagEntries > 0; i++) await new Promise((r) => setTimeout(r, 100));
    if (t.client.status().lagEntries > 0) throw new Error(`${t.ledger.terminalId} still has entries to send`);
  }
  await drain();
  const answer = Object.fromEntries(stopped);
  for (const [id, t] of tables)
    answer[id] = { currency: currencies[id]?.code ?? 'MOP', meters: t.ledger.meters('table'), handpaidWins: ledgerHandpaidWins(t.ledger) };
  answer.T4 = { currency: liveConfig.currency, meters: live.ledger.meters('table'), handpaidWins: ledgerHandpaidWins(live.ledger) };
  return answer;
}

let notes = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, id, arg] = line.trim().split(/\s+/);
  if (cmd === 'hosts') {
    try {
      const origins = id === 'start' ? await startHosts() : (await stopHosts(), {});
      console.log(JSON.stringify({ done: line, origins, ...(id === 'stop' ? { rounds: settledRounds } : {}) }));
    } catch (e) {
      await stopHosts();
      console.log(JSON.stringify({ done: line, error: e instanceof Error ? e.message : String(e) }));
    }
    continue;
  }
  if (cmd === 'ledgers') {
    console.log(JSON.stringify({ done: line, tables: await ledgerMeters() }));
    continue;
  }
  if (id === 'T4') {
    const answered = answeredOrders(live.ledger).size;
    if (cmd === 'shoe') live.devices.shoe.simulator()?.loadShoe({ decks: live.table.game.decks });
    // The order is made on the shoe change's own append (a microtask later): wait for its entry.
    for (let i = 0; i < 50 && cmd === 'shoe' && answeredOrders(live.ledger).size === answered; i++) await new Promise((r) => setTimeout(r, 100));
    await drain();
    await liveSync.sendHeartbeat();
    console.log(JSON.stringify({ done: line, limits: live.table.state.params.limits, profile: live.table.game.profile }));
    continue;
  }
  const t = tables.get(id ?? '');
  if (!t) continue;
  if (cmd === 'note') {
    const s = Number(arg);
    t.stations.add(s);
    t.ledger.append(billCredit(s, 10_000, `${id}-n${++notes}`, currencies[id ?? '']?.code));
  } else if (cmd === 'round') {
    const { bets, settle } = settledRound(`${id}-r${++t.rounds}`, [...t.stations], 1_000, t.rounds);
    t.ledger.appendMany([...bets, settle]);
  }
  t.client.kick();
  await t.client.sendHeartbeat();
  console.log(JSON.stringify({ done: line }));
}
await stopHosts();
for (const t of tables.values()) {
  await t.client.stop();
  t.ledger.close();
}
await live.close();
rmSync(liveDir, { recursive: true, force: true });
await up.close();
await db.close();
