// Three table hosts' ledgers syncing to an upstream with its back office, for the back office's
// browser test (issue 49): an upstream on in-memory PGlite with one user per role (light scrypt
// parameters; the password below), three terminals whose ledgers sync through the real SyncClient
// and send heartbeats every second, and one alarm to work. Prints one JSON line: the page's URL.
// Control lines on stdin: `note T S` credits a note at station S of terminal T and syncs it now;
// `round T` plays a round on T's occupied stations and syncs it now.
import { createInterface } from 'node:readline';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream } from '../../upstream/index.js';

export const PASSWORD = 'correct horse battery';
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const db = await openPglite();
await migrateUpstream(db);
for (const role of ['viewer', 'supervisor', 'accounting', 'administrator']) await putUser(db, { name: role, role, password: PASSWORD, by: 'test' }, FAST);
const up = await startUpstream({ db, backoffice: {} });
const games = { T1: 'blackjack', T2: 'baccarat', T3: 'war' } as const;
const tables = new Map<string, { ledger: Ledger; client: SyncClient; stations: Set<number>; rounds: number }>();
for (const [id, game] of Object.entries(games)) {
  const cred = await enrolTerminal(db, id, false);
  const ledger = Ledger.open({ file: ':memory:', terminalId: id });
  const stations = new Set([1, 2]);
  for (const s of stations) ledger.append(billCredit(s, 10_000, `${id}-b${s}`));
  const client: SyncClient = new SyncClient(ledger, {
    url: up.url,
    credentials: { ...cred, upstream: up.url },
    idleMs: 200,
    heartbeat: {
      intervalMs: 1000,
      snapshot: (): Record<string, unknown> => ({
        tableId: `${game.toUpperCase()}-${id}`,
        game,
        table: { phase: 'betting', faults: [] },
        sync: { lagEntries: client.status().lagEntries, lagSeconds: 0 },
      }),
    },
  });
  client.start();
  tables.set(id, { ledger, client, stations, rounds: 0 });
}
await db.query("INSERT INTO alarms (terminal_id, kind, detail) VALUES ('T2', 'transfer-disagreement', '{\"reason\":\"terms-differ\"}')");
console.log(JSON.stringify({ url: `${up.url}/backoffice/`, password: PASSWORD }));

let notes = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, id, arg] = line.trim().split(/\s+/);
  const t = tables.get(id ?? '');
  if (!t) continue;
  if (cmd === 'note') {
    const s = Number(arg);
    t.stations.add(s);
    t.ledger.append(billCredit(s, 10_000, `${id}-n${++notes}`));
  } else if (cmd === 'round') {
    const { bets, settle } = settledRound(`${id}-r${++t.rounds}`, [...t.stations], 1_000, t.rounds);
    t.ledger.appendMany([...bets, settle]);
  }
  t.client.kick();
  await t.client.sendHeartbeat();
  console.log(JSON.stringify({ done: line }));
}
for (const t of tables.values()) {
  await t.client.stop();
  t.ledger.close();
}
await up.close();
await db.close();
