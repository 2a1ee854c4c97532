// Issue 55: at the results' end of a coup (betting opens again) every station's own part moves.
// At a stadium most stations did not bet: for each of them the change is the same (its betting
// opens), while its credit, its recall and its floor's word are its own. The hub works that change
// out and encodes it once for every station whose part moved alike (`HubCounters.patched`), and
// each station's patch still names its own view and its own version around it. Here a stadium's
// stations, each with a credit no other has, one whose acceptor jammed (its betting stays
// closed), one credited while the cards were dealt, play a coup as
// their screens see it (an outbox and a composer each): after the results' end each screen's own
// part is the one a hub that never saw the table builds, its credit its own, and the hub encoded
// the idle stations' change once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { REMOTE_STATION_BASE, stationOf, type StationState, type ViewName } from '../../protocol/index.js';
import type { NatsConnection } from 'nats';
import { EdgeBridge } from '../edges/edge-bridge.js';
import { decodeUpdate } from '../edges/subjects.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { credit, quietHub, silent, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { ownPart, stationScreens } from '../testing/station-screens.js';
import type { Update } from './outbox.js';

const REMOTE = 40;
const BETTORS = [101, 102, 103];
const JAMMED = 111;
/** Credited while the cards are dealt: its own part was last built at another change than the other idle stations'. */
const LATE = 112;
const CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];

/** Every station's screen, and the own-part update the hub handed each last. */
function screens(t: TestTable) {
  const handed = new Map<ViewName, Update>();
  const { views, shown } = stationScreens(t, (view, slot, update) => {
    if (slot === `view:${view}`) handed.set(view, update);
  });
  return { views, shown, handed };
}

/** Places the bettors' bets through the hub, as their screens do. */
function bets(t: TestTable): void {
  for (const station of BETTORS) {
    const view: ViewName = `station/${station}`;
    const r = submitted(t.hub.commands.submit(view, t.hub.version(view), { name: 'place-bet', spot: { bet: 'banker' }, amount: 10_000 }));
    assert.equal(r.ok, true, `station ${station}'s bet`);
  }
}

/** A new shoe, its burn dealt: betting open. */
function toBetting(t: TestTable): void {
  t.table.shoe.onNewShoe();
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.equal(t.table.reads.view().phase, 'betting');
}

/** Deals until the coup settles (betting closed by its timer first). */
function dealToResults(t: TestTable, during?: () => void): void {
  t.clock.runOut(t.table.reads.view().endsAt);
  for (let i = 0; i < 12 && t.table.reads.view().phase === 'dealing'; i++) {
    t.table.shoe.onCard(parseCard(CARDS[i] ?? '2C'));
    if (i === 1) during?.();
  }
  assert.equal(t.table.reads.view().phase, 'results', 'the coup settled');
}

/** The idle stations' patch at a change: the operations, after the view's name and version. */
const opsOf = (text: string, view: ViewName, version: number): string => {
  const head = `[${JSON.stringify(view)},${version},`;
  assert.ok(text.startsWith(head) && text.endsWith(']'), `${view}'s patch names its view and version ${version}: ${text}`);
  return text.slice(head.length, -1);
};

describe("the idle stations' change at the results' end, worked out once (issue 55)", () => {
  it('betting opening again: one encoding of the change for every idle station, each screen still shown its own part', () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: REMOTE } });
    try {
      const { views, shown, handed } = screens(t);
      const remote = views.map((v) => stationOf(v) as number).filter((s) => s > REMOTE_STATION_BASE);
      // A credit no other station has, at every station.
      for (const station of remote) credit(t.ledger, station, 100_000 + 1_000 * (station - REMOTE_STATION_BASE));
      t.tilts.raise('bill-jam', { station: JAMMED });
      toBetting(t);
      bets(t);
      dealToResults(t, () => credit(t.ledger, LATE, 7_000));

      const idle = remote.filter((s) => !BETTORS.includes(s) && s !== JAMMED);
      const before = new Map(views.map((v) => [v, t.hub.version(v)]));
      handed.clear();
      const patched = t.hub.counters.patched;
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'betting', 'betting opened again');

      // Each station's patch names its own view and version; the idle ones say the same after that.
      const ops = new Set<string>();
      for (const station of idle) {
        const view: ViewName = `station/${station}`;
        const u = handed.get(view);
        assert.ok(u?.patch, `${view} was handed a patch`);
        assert.equal(u.version, (before.get(view) ?? 0) + 1, `${view}'s next version`);
        ops.add(opsOf(u.patch.text, view, u.version));
      }
      assert.equal(ops.size, 1, `the idle stations' change is the same: ${[...ops].join(' | ')}`);
      assert.match([...ops][0] ?? '', /"open"\],true/, 'their betting opens');
      assert.doesNotMatch([...ops][0] ?? '', /credit/, 'and says nothing of a credit');
      // Betting stays closed at the station whose acceptor jammed: nothing to send it.
      assert.equal(handed.get(`station/${JAMMED}`), undefined, `station ${JAMMED} was handed nothing`);

      // Worked out and encoded once for the idle stations, once for each bettor and seated station that moved.
      const notIdle = views.length - remote.length + BETTORS.length;
      const made = t.hub.counters.patched - patched;
      assert.ok(made <= notIdle + 1, `own-part patches worked out at the results' end: ${made} for ${idle.length} idle stations and ${notIdle} others`);

      // What every screen shows is its own part as a new hub builds it, its credit its own.
      const fresh = quietHub(t);
      for (const view of views) {
        const station = stationOf(view) as number;
        const screen = shown.get(view);
        assert.ok(screen, `${view} was sent its view`);
        assert.equal(ownPart(screen), ownPart(fresh.state(view) as StationState), `${view}'s own part as a new hub builds it`);
        assert.equal(screen.credit, t.table.reads.station(station).credit, `${view}'s credit`);
      }
      const late = shown.get(`station/${LATE}`);
      assert.equal(late?.credit, 100_000 + 1_000 * (LATE - REMOTE_STATION_BASE) + 7_000, 'the station credited during the deal shows its note');
      assert.equal(late?.betting.open, true);
      assert.equal(shown.get(`station/${JAMMED}`)?.betting.open, false);
    } finally {
      t.close();
    }
  });

  it("through the edges' publisher: each idle station's patch on its own edge's subject for it, naming its own view", async () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: REMOTE } });
    const published: { subject: string; data: Uint8Array }[] = [];
    const nc = {
      subscribe: () => ({ unsubscribe: () => undefined }),
      status: () => (async function* () {})(),
      publish: (subject: string, data: Uint8Array) => published.push({ subject, data }),
      protocol: { pendingLimit: 32 * 1024, flushPending: () => undefined },
    } as unknown as NatsConnection;
    const stations = { onChange: () => () => undefined, onRevoked: () => () => undefined, proofKeys: () => [] } as unknown as RemoteStations;
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc, tableId: t.config.tableId, log: silent });
    try {
      const remote = t.hub.remoteViews().map((v) => stationOf(v) as number);
      // Two edges, each holding half the stations (as if each had attached them with their proofs).
      const edgeOf = (station: number) => (station % 2 === 0 ? 'edge-1' : 'edge-2');
      for (const station of remote) bridge['hold'](station, edgeOf(station));
      for (const station of remote) credit(t.ledger, station, 100_000 + 1_000 * (station - REMOTE_STATION_BASE));
      toBetting(t);
      bets(t);
      dealToResults(t);
      published.length = 0;
      t.clock.runOut(t.table.reads.view().endsAt);
      const own = published.filter((p) => p.subject.endsWith('.own'));
      const ops = new Set<string>();
      for (const station of remote.filter((s) => !BETTORS.includes(s))) {
        const mine = own.filter((p) => p.subject.endsWith(`.st.${station}.own`));
        assert.equal(mine.length, 1, `station ${station}: one own part published`);
        const [p] = mine;
        assert.equal(p?.subject, `etg.${t.config.tableId}.edge.${edgeOf(station)}.st.${station}.own`, `station ${station}: on its edge's subject`);
        const u = decodeUpdate(p?.data ?? new Uint8Array(0));
        assert.ok(u?.patchOnly && u.update.patch, `station ${station}: its patch alone`);
        assert.equal(u.slot, `view:station/${station}`);
        ops.add(opsOf(u.update.patch.text, `station/${station}`, u.update.version));
      }
      assert.equal(ops.size, 1, 'the idle stations were published the same change');
      assert.equal(own.length, remote.length, 'an own part for every remote station, bettors included, none twice');
    } finally {
      await bridge.close();
      t.close();
    }
  });
});
