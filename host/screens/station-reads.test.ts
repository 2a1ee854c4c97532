// Issue 32 item 6: the hub's memo keys for the stations follow from one declaration of what a
// station's own part reads of the table's state (station-reads.ts). Here, the station's
// projection and its inputs are run over the states of played rounds through a proxy that
// records the fields they read: a field read and not declared fails, naming it. A test of the
// test: a declaration with any one field left out is caught.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { Chips, TableState } from '../../engine/table/state.js';
import { projectStation, stationInputs, stationProjector, type StationInputs } from '../../engine/table/views.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { openTableGame } from '../table/table-game.js';
import { credit, testTable } from '../testing/table-kit.js';
import { sameDeps } from './same-deps.js';
import { IDLE_READS, isIdle, SharedReads, STATION_READS, stationKey, stationsMoved } from './station-reads.js';

type State = TableState<unknown, unknown>;
const CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];
const STATIONS = [1, 2, 101, 102, 103];

/**
 * The states of a played table (two seated and two remote stations betting, a seated one and a
 * remote one every other round, one remote station never: cards, decisions on timeout, results).
 * Blackjack's remote stations bet behind seat 1.
 */
function playedStates(game: 'blackjack' | 'baccarat' | 'war'): State[] {
  const t = testTable({ game, config: { remoteStations: 3 } });
  try {
    const states: State[] = [];
    t.table.onChange(() => states.push(t.table.state));
    for (const station of STATIONS) credit(t.ledger, station, 100_000);
    t.table.shoe.onNewShoe();
    let rounds = 0;
    for (let i = 0; i < 150; i++) {
      const cue = t.table.reads.cue();
      const view = t.table.reads.view();
      if (view.phase === 'betting' && !t.table.reads.hasBets(1)) {
        const bettors = STATIONS.filter((n) => n !== 103 && (n !== 102 || rounds % 2 === 0) && (n !== 2 || rounds % 2 === 1));
        rounds++;
        for (const station of bettors) {
          const spot =
            game === 'baccarat'
              ? { bet: 'banker' as const }
              : game === 'blackjack' && station > 100
                ? { bet: 'behind' as const, seat: 1 }
                : { bet: 'main' as const };
          t.table.commands.placeBet(station, spot, 10_000);
        }
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
    const config = TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 3 });
    const states = playedStates(game);
    const station = openTableGame(config, (g) => (s: State) => [STATIONS.map((n) => projectStation(s as never, g, n)), stationInputs(s as never, g)]);
    const read = fieldsRead(states, station);
    const declared = STATION_READS.map(([field]) => field);

    it(`${game}: the station's projection and its inputs read no field the declaration leaves out`, () => {
      assert.ok(states.length > 40, `a round was played (${states.length} states)`);
      assert.deepEqual(undeclared(read, declared), []);
    });

    it(`${game}: a station no decision is due from is projected without reading a field declared read only while deciding`, () => {
      const deciding = STATION_READS.flatMap(([field, share]) => (share === 'deciding' ? [field] : []));
      // Its inputs worked out on the state itself (they read the round's own share at any time, declared so); the projection through the proxy.
      const own = openTableGame(config, (g) => (s: State) => {
        const inputs = stationInputs(s as never, g);
        const idle = STATIONS.filter((n) => !inputs.deciders.has(n));
        return fieldsRead([s], (p) => idle.map((n) => stationProjector(p as never, g, inputs)(n)));
      });
      const read = new Set(states.flatMap((s) => [...own(s)]));
      assert.deepEqual(
        deciding.filter((f) => read.has(f)),
        [],
      );
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
    params: { stations: [] },
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

/** A state's station inputs with nothing in them but what a test gives. */
const inputs = (over: Partial<StationInputs> = {}): StationInputs => ({
  chips: new Map(),
  placed: new Map(),
  unplayed: new Map(),
  results: new Map(),
  notFollowed: new Map(),
  streaks: new Map(),
  deciders: new Set(),
  ...over,
});

describe("a station's deps: the shared fields' versions and its own share (issue 55)", () => {
  it('a deciding field moved gives a new key to the stations deciding only; a whole field to every station not idle; betting opening to every station; a credit to its station only', () => {
    const shared = new SharedReads();
    const s1 = state();
    const own = inputs({ deciders: new Set([101]) });
    const key = (s: State, station: number) => stationKey(s, own, station, shared.at(s));
    const [a101, a102] = [key(s1, 101), key(s1, 102)];
    const s2 = { ...s1, round: {} } as State;
    assert.notDeepEqual(key(s2, 101), a101, 'the round moved: the deciding station looks again');
    assert.deepEqual(key(s2, 102), a102, 'a station not deciding does not');
    const s3 = { ...s2, phase: 'results' } as State;
    assert.notDeepEqual(key(s3, 101), key(s2, 101), 'the coup settled: a station with something at the table looks again');
    assert.deepEqual(key(s3, 102), a102, 'a station with nothing at the table does not (betting was closed and stays closed)');
    const s3b = { ...s3, phase: 'betting' } as State;
    assert.notDeepEqual(key(s3b, 102), a102, 'betting opened: every station looks again');
    const b101 = key(s3b, 101);
    const b102 = key(s3b, 102);
    const s4 = { ...s3b, credits: { 101: 5, 102: 8 } } as State;
    assert.deepEqual(key(s4, 101), b101, "another station's credit");
    assert.notDeepEqual(key(s4, 102), b102, 'its own credit');
  });
});

describe('the stations a change moved, found from what moved (issue 55)', () => {
  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: over a played shoe, exactly the stations whose key moved, or null when every station's may have`, () => {
      const config = TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 3 });
      const states = playedStates(game);
      const inputsOf = openTableGame(config, (g) => (s: State) => stationInputs(s as never, g));
      const shared = new SharedReads();
      const look = (s: State) => ({ state: s, inputs: inputsOf(s), shared: shared.at(s) });
      let before = look(states[0] as State);
      let narrowed = 0;
      let settled = 0;
      for (const s of states.slice(1)) {
        const now = look(s);
        const moved = stationsMoved(before, now);
        const keyMoved = STATIONS.filter((n) => !sameDeps(stationKey(before.state, before.inputs, n, before.shared), stationKey(s, now.inputs, n, now.shared)));
        if (moved === null) assert.notEqual(before.shared.idle, now.shared.idle, 'null only when a field every station reads moved');
        else {
          narrowed++;
          if (before.shared.whole !== now.shared.whole) settled++;
          assert.deepEqual(
            STATIONS.filter((n) => moved.has(n)),
            keyMoved,
          );
        }
        before = now;
      }
      assert.ok(narrowed > 10, `changes told apart station by station (${narrowed})`);
      assert.ok(settled > 2, `changes of a whole field that left the idle stations alone, a coup's settling among them (${settled})`);
    });
  }

  it('a credit, an entry of a list, a decision due: each moves its station alone; the deciding fields every station deciding', () => {
    const shared = new SharedReads();
    const base = state({ phase: 'betting', chips: [] });
    const s1 = base;
    const a = { state: s1, inputs: inputs(), shared: shared.at(s1) };
    const moved = (s: State, own = inputs()) => [...(stationsMoved(a, { state: s, inputs: own, shared: shared.at(s) }) ?? ['all'])];
    assert.deepEqual(moved({ ...base, credits: { 101: 5, 102: 8 } } as never), [102], 'a credit');
    assert.deepEqual(moved({ ...base, credits: { 101: 5, 102: 7, 103: 0 } } as never), [103], 'a credit where there was none');
    const chip: Chips = { station: 101, spot: { bet: 'main' }, amount: 500 };
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

describe('a station with nothing at the table reads only what every such station reads alike (issue 55)', () => {
  /**
   * Over a played shoe, each idle station's (`isIdle`) own part, grouped by what `reads` read of
   * the state and its credit: every state of a group must project the same own part. Returns the
   * states compared with another of their group, and whether a group held a coup's dealing and
   * its results (the settling card left an idle station as it was).
   */
  function idleParts(game: 'blackjack' | 'baccarat' | 'war', reads: readonly (readonly [string, (s: State) => unknown])[]) {
    const config = TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 3 });
    const states = playedStates(game);
    const ofState = openTableGame(config, (g) => (s: State) => ({
      inputs: stationInputs(s as never, g),
      project: (n: number) => projectStation(s as never, g, n),
    }));
    // Objects told apart by identity, as the versions tell them.
    const ids = new Map<unknown, number>();
    const id = (x: unknown) => (typeof x === 'object' && x !== null ? `#${ids.get(x) ?? ids.set(x, ids.size).size - 1}` : String(x));
    const groups = new Map<string, { part: string; phases: Set<string> }>();
    const mismatches: string[] = [];
    let compared = 0;
    for (const s of states) {
      const { inputs, project } = ofState(s);
      for (const station of STATIONS) {
        if (!isIdle(s, inputs, station)) continue;
        const group = `${station} ${id(s.credits[station])} ${reads.map(([, read]) => id(read(s))).join(' ')}`;
        const part = JSON.stringify(project(station));
        const had = groups.get(group);
        if (!had) groups.set(group, { part, phases: new Set([s.phase]) });
        else {
          compared++;
          had.phases.add(s.phase);
          if (had.part !== part) mismatches.push(`station ${station} at a ${s.phase} state: ${part} where ${had.part}`);
        }
      }
    }
    const settledAlike = [...groups.values()].some((g) => g.phases.has('dealing') && g.phases.has('results'));
    return { compared, mismatches, settledAlike };
  }

  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: an idle station's own part is the same in any two states IDLE_READS read alike, across a coup's settling`, () => {
      const { compared, mismatches, settledAlike } = idleParts(game, IDLE_READS);
      assert.deepEqual(mismatches, []);
      assert.ok(compared > 20, `states compared (${compared})`);
      assert.ok(settledAlike, "a coup's dealing and results read alike by an idle station");
    });
  }

  it('with whether betting is open left out of the reads, a station shown betting open is caught (a test of the test)', () => {
    const { mismatches } = idleParts(
      'baccarat',
      IDLE_READS.filter(([name]) => name !== 'betting open'),
    );
    assert.ok(mismatches.length > 0);
  });
});
