// Issue 50 "Done when": "a refused lie at any table is an alarm upstream within one
// reconciliation". A table journals a peer's lie as a `transfer.alarm`, at most ALARM_BUDGET (20)
// per link a minute (between two of its ticks, before the review that found a link lying on every
// tick still journalled 21 a second); the rest were counted only on the *next* alarm journalled at
// that link. So a hostile peer that first sends 20 frames of junk (20 `malformed` alarms) and then
// the lie it cares about (here: credit in another currency, and a "return home" of credit never
// sent to it) had that lie refused, but never journalled as an alarm; if the peer then went quiet,
// no later alarm carried even its count, and the upstream's reconciliation raised only the 20
// junk frames. Here two live transfer hosts, each a victim of its own flood, over their real
// journals synced to an upstream: one reconciliation after the first tick past the minute must name
// every lie's reason.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { ALARM_BUDGET, ALARM_WINDOW_MS, TransferHost } from '../../host/transfers/transfer-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { alarms, enrolTerminal, ingest, openUpstreamDb, type Db } from '../../upstream/index.js';
import { PEER_ALARM_KIND, reconcileTransfers } from '../../upstream/transfers.js';

const LIAR = TableId.parse('bj-1');
const VICTIMS = [TableId.parse('bac-1'), TableId.parse('war-1')] as const;
/** Homed at the liar (its credit may come from there) and at each victim. */
const AT_LIAR = 101;
const HOME_OF = { [AT_LIAR]: LIAR, 102: VICTIMS[0], 103: VICTIMS[1] };

describe('a refused lie hidden behind a flood of junk is still an upstream alarm (issue 50)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'alarm-flood-'));
  const ledgers = new Map<TableId, Ledger>();
  const hosts = new Map<TableId, TransferHost>();
  let db: Db;
  const clock = { ms: 1_000_000 };

  before(async () => {
    for (const t of VICTIMS) {
      const ledger = Ledger.open({ dataDir: path.join(dir, t), terminalId: t });
      ledgers.set(t, ledger);
      ledger.append(billCredit(1, 10_000, `${t}-note`));
      hosts.set(
        t,
        new TransferHost({
          self: t,
          currency: 'MOP',
          homes: HOME_OF,
          journal: new LedgerTransferJournal(ledger),
          send: () => {},
          alarm: () => {},
          now: () => clock.ms,
        }),
      );
    }
    db = await openUpstreamDb({});
    for (const t of VICTIMS) await enrolTerminal(db, t);
  });

  after(async () => {
    await db.close();
    for (const l of ledgers.values()) l.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('20 junk frames, then the lie, then silence: one reconciliation after the tick past the minute names the lie at each table', async () => {
    const [bac, war] = VICTIMS;
    const lies: [TableId, Transfer, string][] = [
      // bac-1: the liar's own station's credit, but in HKD on a MOP floor.
      [bac, { id: { origin: LIAR, serial: 41 }, currency: 'HKD', station: AT_LIAR, from: LIAR, to: bac, amount: 500_000 }, 'wrong-currency'],
      // war-1: its own station 103 "coming home" from bj-1, where war-1 never sent it.
      [war, { id: { origin: LIAR, serial: 42 }, currency: 'MOP', station: 103, from: LIAR, to: war, amount: 500_000 }, 'never-sent-there'],
    ];
    for (const [victim, transfer] of lies) {
      const host = hosts.get(victim);
      assert.ok(host);
      for (let i = 0; i < ALARM_BUDGET; i++) host.receive(LIAR, { kind: 'junk', i });
      host.receive(LIAR, { kind: 'offer', transfer });
      // A tick a second later sums up nothing yet (the budget is a minute's); the liar says nothing more.
      clock.ms += 1_000;
      host.tick();
    }
    // The first tick past the minute.
    clock.ms += ALARM_WINDOW_MS;
    for (const host of hosts.values()) host.tick();
    for (const [t, ledger] of ledgers) {
      const first = ledger.entry(1);
      assert.ok(first);
      const entries = [...ledger.entries(1)].map((e) => ({ seq: e.seq, hash: e.hash, body: e.body }));
      const r = await ingest(db, { terminalId: t, prevHash: first.prevHash, entries });
      assert.equal(r.status, 200, JSON.stringify(r));
    }
    await reconcileTransfers(db, { openAfterSeconds: 3600 });
    const raised = (await alarms(db)).filter((a) => a.kind === PEER_ALARM_KIND);
    for (const [victim, transfer, reason] of lies) {
      const here = raised.filter((a) => a.terminalId === victim).map((a) => a.detail as { reason: string; detail: string; suppressed?: number });
      assert.ok(
        here.some((a) => a.reason === reason || a.detail.includes(reason)),
        `${victim}: the ${reason} lie (id ${transfer.id.serial}) is named by no upstream alarm: ${JSON.stringify(here.map((a) => [a.reason, a.suppressed]))}`,
      );
      // Nothing credited for it, whatever the alarms say.
      assert.equal(ledgers.get(victim)?.credit(transfer.station), 0);
    }
  });
});
