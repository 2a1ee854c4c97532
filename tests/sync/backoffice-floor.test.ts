// The back office's live floor over real sync: two kiosks' ledgers synced to an upstream on PGlite;
// a signed-in supervisor's Server-Sent Events stream shows a table's new round, pushed by its sync
// (the update names that table alone and carries the round), its stations and profile derived from
// the journal; the hub sends a touched table's row with no timer running; a table never heard from
// is offline and raises its alarm, which the supervisor acknowledges with a note. How long the push
// takes is a benchmark's to measure (bench/backoffice-push.bench.ts), not a test's to assert.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Ledger, SyncClient, type Credentials } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { FloorHub } from '../../upstream/backoffice/floor-hub.js';
import { TABLE_PAGE_METERS } from '../../upstream/backoffice/table-detail.js';
import { signInHttp } from './backoffice-http.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

/** Reads SSE events off a fetch body, one `{event, data}` at a time. */
function events(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return async function next(): Promise<{ event: string; data: unknown }> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) return { event, data: JSON.parse(data) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

interface Row {
  terminalId: string;
  lastRound: { roundId: string; at: string } | null;
  headSeq: number;
  occupied: number;
  stations: number;
  profile: string | null;
  state: string;
  game: string | null;
  lagEntries: number | null;
}

interface WorkedAlarm {
  id: number;
  kind: string;
  terminalId: string;
  acks: unknown[];
}

describe('back office: the live floor', () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let cred: Credentials;
  let cookie = '';
  let csrf = '';
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    await putUser(db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
    cred = { ...(await enrolTerminal(db, 'T1', false)), upstream: '' };
    await enrolTerminal(db, 'T2', false);
    up = await startUpstream({ db, backoffice: {} });
    ({ cookie, csrf } = await signInHttp(up.url, 'ana', PASSWORD));
  });
  after(async () => {
    await up.close();
    await db.close();
  });

  it("pushes a table's synced round to the stream, that table alone, its stations and profile from the journal", async () => {
    const none = await fetch(`${up.url}/backoffice/api/floor/events`);
    assert.equal(none.status, 401, 'no stream without a session');
    const ac = new AbortController();
    const stream = await fetch(`${up.url}/backoffice/api/floor/events`, { headers: { cookie }, signal: ac.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /text\/event-stream/);
    const next = events(stream.body as ReadableStream<Uint8Array>);
    const first = await next();
    assert.equal(first.event, 'floor');
    assert.deepEqual(
      (first.data as Row[]).map((r) => r.terminalId),
      ['T1', 'T2'],
    );

    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
    for (const s of [1, 2, 3]) ledger.append(billCredit(s, 10_000, `b${s}`));
    const { bets, settle } = settledRound('r1', [1, 2, 3], 100);
    ledger.appendMany([...bets, settle]);
    const client = new SyncClient(ledger, {
      url: up.url,
      credentials: { ...cred, upstream: up.url },
      heartbeat: { snapshot: () => ({ tableId: 'BJ-01', game: 'blackjack', table: { phase: 'betting', faults: [] }, sync: { lagEntries: 0, lagSeconds: 0 } }) },
    });
    while ((await client.syncOnce()) === 'sent');
    // The round's update: pushed because T1's batch was accepted, so it names T1 alone (the 5 s
    // sweep sends every table, T2 too) and carries the round it was pushed for.
    let pushed: Row[] | undefined;
    while (!pushed) {
      const e = await next();
      const rows = e.data as Row[];
      if (e.event === 'rows' && rows.some((r) => r.terminalId === 'T1' && r.lastRound?.roundId === 'r1')) pushed = rows;
    }
    assert.deepEqual(
      pushed.map((r) => [r.terminalId, r.lastRound?.roundId, r.headSeq]),
      [['T1', 'r1', ledger.headOf().seq]],
    );
    assert.equal(await client.sendHeartbeat(), true);
    let row: Row | undefined;
    while (!row || row.game === null) {
      const e = await next();
      if (e.event === 'rows') row = (e.data as Row[]).find((r) => r.terminalId === 'T1') ?? row;
    }
    assert.equal(row.state, 'betting');
    assert.equal(row.profile, 'macau-2009');
    assert.equal(row.stations, 3);
    assert.equal(row.occupied, 3);
    assert.equal(row.lagEntries, 0);
    ac.abort();

    const detail = (await (await fetch(`${up.url}/backoffice/api/tables/T1`, { headers: { cookie } })).json()) as {
      stations: { station: number; credit: number; meters: { currency: unknown; meters: Record<string, number> }[] }[];
      rounds: { round: { roundId: string } }[];
    };
    assert.deepEqual(
      detail.stations.map((s) => [s.station, s.credit]),
      [1, 2, 3].map((s) => [s, ledger.credit(s)]),
    );
    // One currency: one group of meters (migration 20), those the page shows.
    const shown = Object.fromEntries(Object.entries(ledger.meters('station:1')).filter(([n]) => (TABLE_PAGE_METERS as readonly string[]).includes(n)));
    assert.ok(Object.keys(shown).length > 0);
    assert.deepEqual(
      detail.stations[0]?.meters.map((g) => g.meters),
      [shown],
    );
    assert.equal(detail.rounds[0]?.round.roundId, 'r1');
    ledger.close();
  });

  it("sends a touched table's row with no timer running: the push is the sync's, not a poll's", { timeout: 30_000 }, async () => {
    // A hub never started has no timer at all (no sweep, no keep-alive): whatever it sends after
    // the floor, a touch sent.
    const hub = new FloorHub(db, Date.now);
    const written: string[] = [];
    let wrote = () => {};
    const res = {
      writableLength: 0,
      writeHead: () => res,
      on: () => res,
      end: () => res,
      destroy: () => res,
      write: (t: string) => {
        written.push(t);
        wrote();
        return true;
      },
    };
    // The stream of the signed-in supervisor's session (its id is the SHA-256 of the cookie's secret): the hub asks for it before each push.
    const session = createHash('sha256')
      .update(cookie.slice(cookie.indexOf('=') + 1))
      .digest('hex');
    await hub.subscribe(res as unknown as Parameters<FloorHub['subscribe']>[0], { session, user: 'ana', address: '127.0.0.1' });
    assert.equal(written.length, 1);
    assert.match(written[0] ?? '', /^retry: 2000\nevent: floor\n/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(written.length, 1, 'nothing is sent untouched');
    const next = new Promise<void>((r) => (wrote = r));
    hub.touched('T1');
    await next;
    const [event, data] = /^event: (\w+)\ndata: (.*)\n\n$/s.exec(written[1] ?? '')?.slice(1) ?? [];
    assert.equal(event, 'rows');
    assert.deepEqual(
      (JSON.parse(data ?? '[]') as Row[]).map((r) => [r.terminalId, r.lastRound?.roundId]),
      [['T1', 'r1']],
    );
    hub.stop();
  });

  it('marks a table never heard from offline, raises its alarm, and keeps every acknowledgement', async () => {
    let alarm: WorkedAlarm | undefined;
    const deadline = Date.now() + 15_000;
    while (!alarm && Date.now() < deadline) {
      const list = (await (await fetch(`${up.url}/backoffice/api/alarms?open=1`, { headers: { cookie } })).json()) as WorkedAlarm[];
      alarm = list.find((a) => a.kind === 'table-offline' && a.terminalId === 'T2');
      if (!alarm) await new Promise((r) => setTimeout(r, 500));
    }
    assert.ok(alarm, 'T2 offline raised an alarm');
    const rows = (await (await fetch(`${up.url}/backoffice/api/floor`, { headers: { cookie } })).json()) as Row[];
    assert.equal(rows.find((r) => r.terminalId === 'T2')?.state, 'offline');
    for (const note of ['called the pit', 'cable replaced']) {
      const r = await fetch(`${up.url}/backoffice/api/alarms/${alarm.id}/acknowledge`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ note }),
      });
      assert.equal(r.status, 200);
    }
    const after = (await (await fetch(`${up.url}/backoffice/api/alarms`, { headers: { cookie } })).json()) as {
      id: number;
      acks: { by: string; note: string }[];
    }[];
    assert.deepEqual(
      after.find((a) => a.id === alarm.id)?.acks.map((k) => [k.by, k.note]),
      [
        ['ana', 'called the pit'],
        ['ana', 'cable replaced'],
      ],
    );
  });
});
