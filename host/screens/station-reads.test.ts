// Issue 32 item 6: the hub's memo keys for the stations follow from one declaration of what a
// station's own part reads of the table's state (station-reads.ts). Here, the station's
// projection and its inputs are run over the states of played rounds through a proxy that
// records the fields they read: a field read and not declared fails, naming it. A test of the
// test: a declaration with any one field left out is caught.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { TableState } from '../../engine/table/state.js';
import { projectStation, stationInputs } from '../../engine/table/views.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { openTableGame } from '../table/table-game.js';
import { credit, testTable } from '../testing/table-kit.js';
import { sameDeps } from './same-deps.js';
import { SharedReads, STATION_READS, stationKey, stationsMoved } from './station-reads.js';

type State = TableState<unknown, unknown>;
const CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];
const STATIONS = [1, 2, 101, 102];

/** The states of a played table (two seated and two remote stations betting, cards, decisions on timeout, results). */
function playedStates(game: 'blackjack' | 'baccarat' | 'war'): State[] {
  const t = testTable({ game, config: { remoteStations: 2 } });
  try {
    const states: State[] = [];
    t.table.onChange(() => states.push(t.table.state));
    for (const station of STATIONS) credit(t.ledger, station, 100_000);
    t.table.shoe.onNewShoe();
    for (let i = 0; i < 150; i++) {
      const cue = t.table.reads.cue();
      const view = t.table.reads.view();
      if (view.phase === 'betting' && !t.table.reads.hasBets(1)) {
        const bet = game === 'baccarat' ? 'banker' : 'main';
        for (const station of STATIONS) t.table.commands.placeBet(station, { bet }, 10_000);
      } else if (cue?.kind === 'card') t.table.shoe.onCard(parseCard(CARDS[i % CARDS.length] ?? '2C'));
      else if (cue?.kind === 'shuffle') t.table.shoe.onNewShoe();
      else if (view.endsAt !== null) t.clock.runOut(view.endsAt);
      else t.clock.advance(1_000);
    }
    return [...new Set(states)];
  } finally {
    t.close();
  }
}

/** The fields of the state `read` reads, over every state. */
function fieldsRead(states: readonly State[], read: (s: State) => unknown): Set<string> {
  const fields = new Set<string>();
  for (const s of states)
    read(
      new Proxy(s, {
        get(target, key) {
          if (typeof key === 'string') fields.add(key);
          return Reflect.get(target, key) as unknown;
        },
      }),
    );
  return fields;
}

const undeclared = (read: Set<string>, declared: readonly string[]) => [...read].filter((f) => !declared.includes(f)).sort();

describe("what a station's own part reads of the table's state is declared (issue 32 item 6)", () => {
  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    const config = TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 2 });
    const states = playedStates(game);
    const station = openTableGame(config, (g) => (s: State) => [STATIONS.map((n) => projectStation(s as never, g, n)), stationInputs(s as never, g)]);
    const read = fieldsRead(states, station);
    const declared = STATION_READS.map(([field]) => field);

    it(`${game}: the station's projection and its inputs read no field the declaration leaves out`, () => {
      assert.ok(states.length > 40, `a round was played (${states.length} states)`);
      assert.deepEqual(undeclared(read, declared), []);
    });

    it(`${game}: a declaration leaving out any one field it reads is caught (a test of the test)`, () => {
      for (const field of read)
        assert.deepEqual(
          undeclared(
            read,
            declared.filter((f) => f !== field),
          ),
          [field],
        );
    });
  }
});

/** A table's state with only what a station's key reads: two stations' credits, the round dealing. */
const state = (over: Record<string, unknown> = {}) =>
  ({
    params: {},
    phase: 'dealing',
    hold: null,
    needsShuffle: false,
    faults: {},
    round: {},
    countdown: null,
    shoe: {},
    credits: { 101: 5, 102: 7 },
    ...over,
  }) as unknown as State;

describe("a station's deps: the shared fields' versions and its own share (issue 55)", () => {
  const inputs = (deciders: number[]) => ({
    chips: new Map(),
    placed: new Map(),
    unplayed: new Map(),
    results: new Map(),
    notFollowed: new Map(),
    deciders: new Set(deciders),
  });

  it('a deciding field moved gives a new key to the stations deciding only; a whole field to every station; a credit to its station only', () => {
    const shared = new SharedReads();
    const s1 = state();
    const own = inputs([101]);
    const key = (s: State, station: number) => stationKey(s, own, station, shared.at(s));
    const [a101, a102] = [key(s1, 101), key(s1, 102)];
    const s2 = { ...s1, round: {} } as State;
    assert.notDeepEqual(key(s2, 101), a101, 'the round moved: the deciding station looks again');
    assert.deepEqual(key(s2, 102), a102, 'a station not deciding does not');
    const s3 = { ...s2, phase: 'results' } as State;
    assert.notDeepEqual(key(s3, 102), a102, 'the phase moved: every station looks again');
    const b101 = key(s3, 101);
    const b102 = key(s3, 102);
    const s4 = { ...s3, credits: { 101: 5, 102: 8 } } as State;
    assert.deepEqual(key(s4, 101), b101, "another station's credit");
    assert.notDeepEqual(key(s4, 102), b102, 'its own credit');
  });
});

describe('the stations a change moved, found from what moved (issue 55)', () => {
  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: over a played shoe, exactly the stations whose key moved, or null when every station's may have`, () => {
      const config = TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 2 });
      const states = playedStates(game);
      const inputsOf = openTableGame(config, (g) => (s: State) => stationInputs(s as never, g));
      const shared = new SharedReads();
      const look = (s: State) => ({ state: s, inputs: inputsOf(s), shared: shared.at(s) });
      let before = look(states[0] as State);
      let narrowed = 0;
      for (const s of states.slice(1)) {
        const now = look(s);
        const moved = stationsMoved(before, now);
        const keyMoved = STATIONS.filter((n) => !sameDeps(stationKey(before.state, before.inputs, n, before.shared), stationKey(s, now.inputs, n, now.shared)));
        if (moved === null) assert.notEqual(before.shared.whole, now.shared.whole, 'null only when a field every station reads moved');
        else {
          narrowed++;
          assert.deepEqual(
            STATIONS.filter((n) => moved.has(n)),
            keyMoved,
          );
        }
        before = now;
      }
      assert.ok(narrowed > 10, `changes told apart station by station (${narrowed})`);
    });
  }

  it('a credit, an entry of a list, a decision due: each moves its station alone; the deciding fields every station deciding', () => {
    const shared = new SharedReads();
    const inputs = (over: Partial<Record<'chips' | 'deciders', unknown>> = {}) =>
      ({ chips: new Map(), placed: new Map(), unplayed: new Map(), results: new Map(), notFollowed: new Map(), deciders: new Set(), ...over }) as never;
    const base = state({ phase: 'betting', chips: [] });
    const s1 = base;
    const a = { state: s1, inputs: inputs(), shared: shared.at(s1) };
    const moved = (s: State, own = inputs()) => [...(stationsMoved(a, { state: s, inputs: own, shared: shared.at(s) }) ?? ['all'])];
    assert.deepEqual(moved({ ...base, credits: { 101: 5, 102: 8 } } as never), [102], 'a credit');
    assert.deepEqual(moved({ ...base, credits: { 101: 5, 102: 7, 103: 0 } } as never), [103], 'a credit where there was none');
    const chip = { station: 101 };
    assert.deepEqual(moved({ ...base, chips: [chip] } as never, inputs({ chips: new Map([[101, [chip]]]) })), [101], 'a chip');
    assert.deepEqual(moved({ ...base, credits: { ...base.credits } } as never), [], 'the same credits in another object');
    assert.deepEqual(moved(s1, inputs({ deciders: new Set([102]) })), [102], 'a decision now due');
    assert.deepEqual(moved({ ...base, round: {} } as never, inputs({ deciders: new Set() })), [], 'the round moved, nobody deciding');
    const b = { state: { ...base, round: {} } as never, inputs: inputs({ deciders: new Set([101, 102]) }), shared: shared.at({ ...base, round: {} } as never) };
    const s2 = { ...base, round: {} } as unknown as State;
    assert.deepEqual(
      [...(stationsMoved(b, { state: s2, inputs: inputs({ deciders: new Set([101, 102]) }), shared: shared.at(s2) }) ?? [])],
      [101, 102],
      'the round moved: each station deciding',
    );
    assert.deepEqual(moved({ ...base, phase: 'dealing' } as never), ['all'], 'the phase: every station');
  });
});
