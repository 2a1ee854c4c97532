// The table learns the upstream's time from its sync's heartbeat and from the validation
// authority's answers (docs/tito.md, "The table's clock"), on a real upstream (PGlite): a table
// whose clock is 10 minutes behind is refused every signed request as `clock-skew`, and the refusal
// now carries the upstream's time, so its FloorClock says how far behind it is and its ticket-out
// is refused. Before 7 December the refusal said only "too far from the server clock": the table
// heard no time at all and printed on its own clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ledger } from '../../ledger/ledger.js';
import { SyncClient } from '../../ledger/sync-client.js';
import { FloorClock } from '../../host/tickets/floor-clock.js';
import { UpstreamAuthority } from '../../host/tickets/upstream-authority.js';
import { migrateUpstream, openPglite, type Db, type RunningUpstream } from '../../upstream/index.js';
import { startFloor, ticket, type FloorTable } from './kit.js';

const BEHIND = 10 * 60_000;

describe("the upstream's time, heard by a table 10 minutes behind it", () => {
  let db: Db;
  let up: RunningUpstream;
  let table: FloorTable;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    const floor = await startFloor(db, 1);
    up = floor.up;
    const [t] = floor.tables;
    assert.ok(t);
    table = t;
  });
  after(async () => {
    await up.close();
    await db.close();
  });

  it("from the sync's heartbeat, refused as clock-skew: the table's clock is found 10 minutes behind, no ticket", async () => {
    const clock = new FloorClock({ now: () => Date.now() - BEHIND });
    const ledger = Ledger.open({ file: ':memory:', terminalId: table.id });
    const sync = new SyncClient(ledger, {
      url: up.url,
      credentials: table.credentials,
      now: () => new Date(Date.now() - BEHIND),
      onServerTime: (t, rtt) => clock.observe(t, rtt),
    });
    try {
      assert.equal(await sync.sendHeartbeat(), false, 'refused for its clock');
      const v = clock.verdict();
      assert.ok(!v.ok && v.why === 'skewed' && Math.abs(v.skewMs + BEHIND) < 5_000, JSON.stringify(v));
      // On time, the heartbeat is taken and its time agrees.
      const onTime = new FloorClock();
      const sync2 = new SyncClient(ledger, { url: up.url, credentials: table.credentials, onServerTime: (t, rtt) => onTime.observe(t, rtt) });
      assert.equal(await sync2.sendHeartbeat(), true);
      assert.deepEqual(onTime.verdict(), { ok: true, heard: true });
      await sync2.stop();
    } finally {
      await sync.stop();
      ledger.close();
    }
  });

  it("from the validation authority's refusal of a word as clock-skew", async () => {
    const clock = new FloorClock({ now: () => Date.now() - BEHIND });
    const raw = new UpstreamAuthority({
      url: up.url,
      credentials: table.credentials,
      now: () => Date.now() - BEHIND,
      onServerTime: (t, rtt) => clock.observe(t, rtt),
    });
    const word = await raw.registerIssue(ticket(table.machineId, 1, 500));
    assert.equal(word.ok, false);
    const v = clock.verdict();
    assert.ok(!v.ok && v.why === 'skewed' && Math.abs(v.skewMs + BEHIND) < 5_000, JSON.stringify(v));
  });
});
