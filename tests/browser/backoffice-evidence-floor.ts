// Two table hosts' ledgers synced to an upstream with its back office, for the round evidence's
// browser test (issue 49): an upstream on in-memory PGlite with one user per role (light scrypt
// parameters; the password below); T1 and T2 each with a settled round, T1 with a voided one too,
// all synced through the real SyncClient, and each table's heartbeat (its game and currency).
// Prints one JSON line: the page's URL, the password and each round's id. Ends when stdin closes.
import { createInterface } from 'node:readline';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { bet, billCredit, settledRound } from '../../ledger/fixtures.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream } from '../../upstream/index.js';

const PASSWORD = 'correct horse battery';
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const db = await openPglite();
await migrateUpstream(db);
for (const role of ['viewer', 'supervisor', 'accounting', 'administrator']) await putUser(db, { name: role, role, password: PASSWORD, by: 'test' }, FAST);
const up = await startUpstream({ db, backoffice: {} });
const ledgers: Ledger[] = [];
for (const id of ['T1', 'T2']) {
  const cred = await enrolTerminal(db, id, false);
  const ledger = Ledger.open({ file: ':memory:', terminalId: id });
  ledgers.push(ledger);
  for (const s of [1, 2]) ledger.append(billCredit(s, 10_000, `${id}-b${s}`, 'MOP'));
  const { bets, settle } = settledRound(`${id}-r1`, [1, 2], 100);
  ledger.appendMany([...bets, settle]);
  if (id === 'T1') {
    ledger.append(bet(1, 'T1-r2', 200, 'T1-r2:bet:1'));
    ledger.append({
      type: 'round.void',
      txId: 'T1-r2:void',
      payload: {
        roundId: 'T1-r2',
        tableId: 'T1',
        game: 'blackjack',
        profile: 'macau-2009',
        cards: [{ card: 'AS', to: 'seat:1' }],
        decisions: [],
        reason: 'card out of turn',
        authorisedBy: ['supervisor-1', 'witness-2'],
      },
    });
  }
  const client = new SyncClient(ledger, {
    url: up.url,
    credentials: { ...cred, upstream: up.url },
    heartbeat: {
      snapshot: () => ({
        tableId: `BJ-${id}`,
        game: 'blackjack',
        currency: { code: 'MOP', exponent: 2 },
        table: { phase: 'betting', faults: [] },
        sync: { lagEntries: 0, lagSeconds: 0 },
      }),
    },
  });
  while ((await client.syncOnce()) === 'sent');
  await client.sendHeartbeat();
}
console.log(JSON.stringify({ url: `${up.url}/backoffice/`, password: PASSWORD, rounds: { T1: ['T1-r1', 'T1-r2'], T2: ['T2-r1'] } }));
const stdin = createInterface({ input: process.stdin });
stdin.on('close', () => {
  void (async () => {
    for (const l of ledgers) l.close();
    await up.close();
    await db.close();
    process.exit(0);
  })();
});
