// The technician is told that a seating waits: a start over a changed configuration file that seats
// stations anew with a round in play keeps the round's seats (seat-change-mid-round.test.ts), and
// says so where a technician looks: the host's log (once, at that start), /healthz (and so the
// upstream heartbeat), and service mode's Status and Holds pages (the table's row, through its
// protocol schema). Once the round ends and the new seats apply, nothing more is said.
// docs/table-host.md, "Stations changing seats with a round in play".
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { tableSummary } from '../../host/service/backend/table-summary.js';
import { burnShoeStart, cards, close } from '../../host/testing/streak-rounds.js';
import { credit, submitted } from '../../host/testing/table-kit.js';
import { ServicePage } from '../../protocol/index.js';
import { startAgain, type RestartedHost } from './restarted-host.js';

type Pairs = [number, number][];
const ALL: Pairs = [1, 2, 3, 4, 5, 6, 7].map((n) => [n, n]);
/** Stations 1 and 2 change seats. */
const SWAPPED: Pairs = ALL.map(([station, seat]) => [station, seat === 1 ? 2 : seat === 2 ? 1 : seat]);
const config = (pairs: Pairs) =>
  TableConfig.parse({ ...simulatedTableConfig('blackjack'), stations: pairs.map(([station, seat]) => ({ station, seat, billAcceptor: 'sim' as const })) });
const DEFERRED = 'the configuration seats stations anew with a round in play';

const submit = (
  t: RestartedHost,
  station: number,
  command: { name: 'place-bet'; spot: { bet: 'main' }; amount: number } | { name: 'decide'; action: 'stand' },
) => submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));

/** The table's row as service mode's Status page sends it, checked against the page's own schema. */
function statusRow(t: RestartedHost) {
  const table = tableSummary({ config: t.config, table: t.running.table, floor: t.running.floor }).table();
  const page = {
    page: 'status',
    table,
    tilts: [],
    devices: [],
    sync: null,
    softwareVersion: '1',
    programHash: { atStart: 'a'.repeat(64), latest: null, latestAt: null },
  };
  assert.equal(ServicePage.safeParse(page).success, true, JSON.stringify(ServicePage.safeParse(page).error?.issues));
  return table;
}
async function healthTable(t: RestartedHost): Promise<Record<string, unknown>> {
  const body = (await (await fetch(`${t.running.origin}/healthz`)).json()) as { table: Record<string, unknown> };
  return body.table;
}

describe('a seating waiting for the round in play is told to the technician', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seat-change-told-'));
  const lines: { msg: string; level: number; seats?: unknown }[] = [];
  let t: RestartedHost;

  before(async () => {
    const first = await startAgain(dir, config(ALL));
    try {
      credit(first.ledger, 1, 100_000);
      credit(first.ledger, 2, 100_000);
      burnShoeStart(first);
      assert.equal(submit(first, 1, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 }).ok, true);
      assert.equal(submit(first, 2, { name: 'place-bet', spot: { bet: 'main' }, amount: 20_000 }).ok, true);
      close(first);
      cards(first, 'TS TH 9D 9H 7D');
      assert.equal(first.table.reads.view().phase, 'dealing');
      assert.equal(tableSummary({ config: first.config, table: first.running.table, floor: first.running.floor }).table().seatsNext, undefined);
    } finally {
      await first.running.close();
    }
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as (typeof lines)[number]);
        done();
      },
    });
    t = await startAgain(dir, config(SWAPPED), undefined, pino({ level: 'info' }, sink));
  });
  after(async () => {
    await t.running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the start that defers the new seats logs it once, a warning naming the seats', () => {
    const said = lines.filter((l) => l.msg.startsWith(DEFERRED));
    assert.equal(said.length, 1, lines.map((l) => l.msg).join('\n'));
    assert.equal(said[0]?.level, 40, 'a warning');
    assert.match(said[0]?.msg ?? '', /apply from the next round/);
  });

  it('service mode’s table row and /healthz name the stations the waiting seating moves', async () => {
    const moved = [
      { station: 1, seat: 2 },
      { station: 2, seat: 1 },
    ];
    assert.deepEqual(statusRow(t).seatsNext, moved);
    assert.deepEqual((await healthTable(t)).seatsNext, moved);
  });

  it('once the round ends and the new seats apply, neither says anything more', async () => {
    assert.equal(submit(t, 1, { name: 'decide', action: 'stand' }).ok, true);
    assert.equal(submit(t, 2, { name: 'decide', action: 'stand' }).ok, true);
    cards(t, '9C');
    assert.equal(t.table.reads.view().phase, 'results');
    assert.ok(statusRow(t).seatsNext, 'the results of the round are still its own seats’');
    close(t);
    assert.equal(t.table.reads.view().phase, 'betting');
    assert.equal(statusRow(t).seatsNext, undefined);
    assert.equal((await healthTable(t)).seatsNext, undefined);
    assert.equal(lines.filter((l) => l.msg.startsWith(DEFERRED)).length, 1, 'said once, at the start that deferred it');
  });
});
