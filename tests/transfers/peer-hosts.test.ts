import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { reconcile } from '../../terms/transfer-reconcile.js';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { outgoingTransfers } from '../../host/transfers/state.js';
import { billCredit } from '../../ledger/fixtures.js';
import { TableId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

// Two table hosts of one floor, each over its own ledger, carrying a station's credit between
// them over their peer links (issue 34): the station's home table moves credit to the other, the
// station bets there under that table's rules, leaves, and what is left goes home.

const BAC = TableId.parse('bac-1');
const WAR = TableId.parse('war-1');
const STATION = 101;

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('two table hosts move a station credit between them (issue 34)', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'peer-hosts-'));
  const hosts = new Map<TableId, RunningHost>();
  const host = (t: TableId): RunningHost => hosts.get(t) ?? assert.fail(`no host ${t}`);

  before(async () => {
    const tables = [
      { table: BAC, game: 'baccarat' as const, port: await freePort(), stations: [STATION] },
      { table: WAR, game: 'war' as const, port: await freePort(), stations: [] },
    ];
    await enrolFloor(
      tables.map((t) => ({ table: t.table, dataDir: path.join(root, t.table), url: `https://127.0.0.1:${t.port}`, stations: t.stations })),
      { tickMs: 100 },
    );
    for (const t of tables) {
      const config = TableConfig.parse({ ...simulatedTableConfig(t.game), tableId: t.table, remoteStations: 2, lan: { host: '127.0.0.1', port: t.port } });
      hosts.set(
        t.table,
        await startHost({ dataDir: path.join(root, t.table), rendererDir: path.join(root, 'no-renderer'), config, logger: pino({ level: 'silent' }) }),
      );
    }
    host(BAC).ledger.append(billCredit(STATION, 500, 'bac-note-1'));
  });

  after(async () => {
    for (const h of hosts.values()) await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  const transfers = (t: TableId) => host(t).transfers ?? assert.fail(`${t} has no transfers`);

  it('links both ways, moves credit from home to the other table, and sends what is left home when the station leaves', async () => {
    await until('the links up', () => transfers(BAC).links.get(WAR)?.connected() === true && transfers(WAR).links.get(BAC)?.connected() === true);
    const homeCredit = host(BAC).ledger.credit(STATION);
    assert.ok(homeCredit > 0);

    // Asked at the away table, refused: the credit moves from home.
    assert.deepEqual(transfers(WAR).command(STATION, { name: 'move-credit', to: BAC, amount: 100 }).ok, false);
    const refusedAway = transfers(WAR).command(STATION, { name: 'move-credit', to: BAC, amount: 100 });
    assert.equal(!refusedAway.ok && refusedAway.refusal, 'not-home-table');
    const unknown = transfers(BAC).command(STATION, { name: 'move-credit', to: 'bj-9', amount: 100 });
    assert.equal(!unknown.ok && unknown.refusal, 'unknown-table');
    const over = transfers(BAC).command(STATION, { name: 'move-credit', to: WAR, amount: homeCredit + 1 });
    assert.equal(!over.ok && over.refusal, 'over-credit');

    // Through the station's own view, as its screen sends it.
    const view = `station/${STATION}` as const;
    const moved = Math.floor(homeCredit / 2);
    const r = host(BAC).screens.hub.commands.apply(view, host(BAC).screens.hub.version(view), { name: 'move-credit', to: WAR, amount: moved });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(host(BAC).ledger.credit(STATION), homeCredit - moved);
    await until('the credit at war', () => host(WAR).ledger.credit(STATION) === moved);
    await until('the transfer completed at home', () => outgoingTransfers(transfers(BAC).host.state).every((t) => t.phase === 'completed'));
    assert.deepEqual(
      transfers(BAC)
        .transfersOf(STATION)
        .transfers.map((t) => [t.from, t.to, t.amount, t.phase]),
      [[BAC, WAR, moved, 'completed']],
    );
    // The table's own credit (the one its bets are checked against) follows the ledger.
    await until("war's table sees the credit", () => host(WAR).table.state.credits[STATION] === moved);

    // The station's own view at each table lists the transfer (issue 54): from and to which table,
    // how much, where it stands and when that host journalled it (its debit at home, its credit at war).
    const listed = (t: TableId) => {
      const v = host(t).screens.hub.state(view);
      return v.kind === 'station' ? (v.transfers ?? null) : null;
    };
    await until('the transfer credited in both station views', () =>
      [BAC, WAR].every((t) => listed(t)?.transfers.length === 1 && listed(t)?.transfers[0]?.phase === 'completed'),
    );
    for (const [t, at] of [
      [BAC, BAC],
      [WAR, WAR],
    ] as const) {
      const shown = listed(t);
      assert.equal(shown?.table, at);
      assert.equal(shown?.home, BAC);
      const [one] = shown?.transfers ?? [];
      assert.deepEqual([one?.from, one?.to, one?.amount, one?.phase], [BAC, WAR, moved, 'completed'], t);
      assert.ok(one?.at && Math.abs(Date.parse(one.at) - Date.now()) < 60_000, `${t} says when: ${one?.at}`);
    }

    const home = transfers(BAC).command(STATION, { name: 'leave-table' });
    assert.equal(!home.ok && home.refusal, 'not-away-table');
    assert.equal(transfers(WAR).command(STATION, { name: 'leave-table' }).ok, true);
    await until('the credit home again', () => host(BAC).ledger.credit(STATION) === homeCredit);
    assert.equal(host(WAR).ledger.credit(STATION), 0);

    await until('every transfer closed', () =>
      [BAC, WAR].every((t) => outgoingTransfers(transfers(t).host.state).every((o) => o.phase === 'completed' || o.phase === 'reversed')),
    );
    const paired = reconcile(new Map([BAC, WAR].map((t) => [t, [...new LedgerTransferJournal(host(t).ledger).entries()]])));
    assert.equal(paired.length, 2);
    assert.deepEqual(
      paired.filter((p) => p.disagreements.length > 0 || p.net !== 0),
      [],
    );
  });

  it("asks the floor's gate (an unconfirmed winning-streak stake) only after its own refusals, and journals nothing it refuses", async () => {
    const asked: string[] = [];
    const gate = (name: string) => () => {
      asked.push(name);
      return { ok: false as const, reason: 'a streak stake held', refusal: 'streak-held' as const };
    };
    const refusal = (r: { ok: boolean; refusal?: string }) => (r.ok ? null : r.refusal);
    const credit = host(BAC).ledger.credit(STATION);
    const sent = outgoingTransfers(transfers(BAC).host.state).length;
    // The transfer's own refusals keep their words: the gate is not asked.
    assert.equal(refusal(transfers(WAR).command(STATION, { name: 'move-credit', to: BAC, amount: 100 }, gate('away'))), 'not-home-table');
    assert.equal(refusal(transfers(BAC).command(STATION, { name: 'move-credit', to: 'bj-9', amount: 100 }, gate('unknown'))), 'unknown-table');
    assert.equal(refusal(transfers(BAC).command(STATION, { name: 'move-credit', to: WAR, amount: credit + 1 }, gate('over'))), 'over-credit');
    assert.equal(refusal(transfers(BAC).command(STATION, { name: 'leave-table' }, gate('home'))), 'not-away-table');
    assert.equal(transfers(WAR).command(STATION, { name: 'leave-table' }, gate('nothing')).ok, true, 'nothing to send home: nothing leaves');
    // The transfer machine's own refusals too: a seated station's credit never leaves its table (a
    // seat's number is each table's own), and no transfer carries nothing. A station holding a
    // stake is not asked to confirm leaving it for a move that could not go ahead anyway.
    host(BAC).ledger.append(billCredit(1, 500, 'bac-seat-note-1'));
    assert.equal(refusal(transfers(BAC).command(1, { name: 'move-credit', to: WAR, amount: 100 }, gate('seated'))), 'not-a-station');
    assert.equal(refusal(transfers(BAC).command(STATION, { name: 'move-credit', to: WAR, amount: 0 }, gate('nothing moved'))), 'over-credit');
    assert.deepEqual(asked, []);
    // A move that would go ahead: the gate's refusal is the answer, and nothing is journalled or sent.
    assert.equal(refusal(transfers(BAC).command(STATION, { name: 'move-credit', to: WAR, amount: 100 }, gate('move'))), 'streak-held');
    assert.deepEqual(asked, ['move']);
    assert.equal(host(BAC).ledger.credit(STATION), credit);
    assert.equal(outgoingTransfers(transfers(BAC).host.state).length, sent);
  });
});
