// Issue 32 item 6: a view memoised on a key kept by hand beside it goes stale when a field is
// added to the state, read by the view, and forgotten in the key. These tests feed each memoised
// view states in which one field at a time is replaced by the value it has in another state of
// a played round, and check the memo gives what building the view afresh gives. A test of the
// test: a hand-kept key that forgets any one of the fields the view reads is caught.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { TableState } from '../../engine/table/state.js';
import { projectRound, projectStadium } from '../../engine/table/views.js';
import { TableConfig, simulatedTableConfig } from '../config/table-config.js';
import { credit, testTable, submitted } from '../testing/table-kit.js';
import { memoOnReads } from './memo-on-reads.js';
import { openTableGame } from './table-game.js';
import { tableViews } from './table-views.js';

type State = TableState<unknown, unknown>;
type Projection = (s: State) => unknown;

const CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];
const GAMES = ['blackjack', 'baccarat', 'war'] as const;

/** The states a table goes through: a new shoe, bets from two stations, the deal, decisions on timeout, results, the next window. */
function playedStates(game: (typeof GAMES)[number]): State[] {
  // Two remote stations: the stadium view has something to show.
  const t = testTable({ game, config: { remoteStations: 2 } });
  try {
    const states: State[] = [];
    t.table.onChange(() => states.push(t.table.state));
    for (const station of [1, 2, 101, 102]) credit(t.ledger, station, 100_000);
    t.table.shoe.onNewShoe();
    for (let i = 0; i < 200 && states.length < 400; i++) {
      const cue = t.table.reads.cue();
      const phase = t.table.reads.view().phase;
      if (phase === 'betting' && t.table.reads.hasBets(1) === false) {
        const bet = game === 'baccarat' ? 'banker' : 'main';
        submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet }, amount: 10_000 }));
        submitted(t.hub.commands.submit('station/2', t.hub.version('station/2'), { name: 'place-bet', spot: { bet }, amount: 20_000 }));
        t.table.commands.placeBet(101, { bet }, 10_000);
        t.table.commands.placeBet(102, { bet }, 30_000);
      }
      const endsAt = t.table.reads.view().endsAt;
      if (cue?.kind === 'card') t.table.shoe.onCard(parseCard(CARDS[i % CARDS.length] ?? '2C'));
      else if (cue?.kind === 'shuffle') t.table.shoe.onNewShoe();
      else if (endsAt !== null) t.clock.runOut(endsAt);
      else t.clock.advance(1_000);
    }
    return [...new Set(states)];
  } finally {
    t.close();
  }
}

/**
 * Every hybrid of two states (one field of `a` replaced by `b`'s): the memo, fed `a` then the
 * hybrid, must give what the projection gives of the hybrid. Returns the fields it went stale on.
 */
function staleFields(states: readonly State[], memo: () => Projection, fresh: Projection): Set<string> {
  const stale = new Set<string>();
  for (let i = 0; i + 1 < states.length; i++) {
    const a = states[i]!;
    for (const b of [states[i + 1]!, states[(i * 7 + 3) % states.length]!]) {
      for (const key of Object.keys(a)) {
        const before: unknown = Reflect.get(a, key);
        const after: unknown = Reflect.get(b, key);
        if (before === after) continue;
        const hybrid = { ...a, [key]: after } as State;
        let expected: unknown;
        try {
          expected = fresh(hybrid);
        } catch {
          continue; // a field from another moment may not fit with the rest: no view to compare
        }
        const m = memo();
        m(a);
        if (JSON.stringify(m(hybrid)) !== JSON.stringify(expected)) stale.add(key);
      }
    }
  }
  return stale;
}

/** The fields whose replacement alone (by their value at another moment of the round) changes what the projection gives. */
function showingFields(states: readonly State[], project: Projection): Set<string> {
  const shows = new Set<string>();
  for (let i = 0; i + 1 < states.length; i++) {
    const a = states[i]!;
    const base = JSON.stringify(project(a));
    for (const b of [states[i + 1]!, states[(i * 7 + 3) % states.length]!])
      for (const key of Object.keys(a)) {
        if (Reflect.get(a, key) === Reflect.get(b, key) || shows.has(key)) continue;
        try {
          if (JSON.stringify(project({ ...a, [key]: Reflect.get(b, key) } as State)) !== base) shows.add(key);
        } catch {
          // a field from another moment may not fit with the rest
        }
      }
  }
  return shows;
}

/** The top-level fields of the state a projection reads over these states. */
function fieldsRead(states: readonly State[], project: Projection): Set<string> {
  const read = new Set<string>();
  for (const s of states)
    project(
      new Proxy(s, {
        get(target, key) {
          if (typeof key === 'string') read.add(key);
          return Reflect.get(target, key) as unknown;
        },
      }),
    );
  return read;
}

/** The old way: a key of fields listed by hand, compared by identity. */
function handKeyed(project: Projection, fields: readonly string[]): Projection {
  let last: { of: unknown[]; value: unknown } | null = null;
  return (s) => {
    const of = fields.map((f) => Reflect.get(s, f) as unknown);
    if (last && of.every((x, i) => x === last?.of[i])) return last.value;
    const value = project(s);
    last = { of, value };
    return value;
  };
}

describe('the table views are memoised on what they read (issue 32 item 6)', () => {
  for (const game of GAMES) {
    const config = TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 2 });
    const states = playedStates(game);
    const projections = openTableGame(config, (g) => ({
      round: (s: State) => projectRound(s as never, g),
      stadium: (s: State) => projectStadium(s as never, g),
      views: () => tableViews(g) as unknown as Record<'round' | 'stadium', Projection>,
    }));

    it(`${game}: no field of the state, replaced alone, leaves the round view or the stadium view stale`, () => {
      assert.ok(states.length > 20, `a round was played (${states.length} states)`);
      for (const view of ['round', 'stadium'] as const) {
        const stale = staleFields(states, () => projections.views()[view], projections[view]);
        assert.deepEqual([...stale], [], `${view} view stale on ${[...stale].join(', ')}`);
      }
    });

    it(`${game}: a hand-kept key that forgets any one field the view reads is caught (a test of the test)`, () => {
      for (const view of ['round', 'stadium'] as const) {
        const read = [...fieldsRead(states, projections[view])];
        const caught = new Set<string>();
        for (const forgotten of read) {
          const key = read.filter((f) => f !== forgotten);
          if (staleFields(states, () => handKeyed(projections[view], key), projections[view]).has(forgotten)) caught.add(forgotten);
        }
        // Every field whose replacement changes what the view shows is caught when forgotten.
        const shows = showingFields(states, projections[view]);
        // Not a vacuous check: where the view changes over the round, some field's replacement moves it.
        const distinct = new Set(states.map((s) => JSON.stringify(projections[view](s)))).size;
        if (distinct > 1) assert.ok(shows.size >= 1, `${view} view: ${distinct} different views, no field moves it alone`);
        assert.deepEqual(
          [...shows].filter((f) => !caught.has(f)),
          [],
          `${view} view: forgetting these went unnoticed`,
        );
        // And the memo on reads is a memo: the same state twice is one build.
        let built = 0;
        const m = memoOnReads((s: State) => {
          built++;
          return projections[view](s);
        });
        m(states[5]!);
        m(states[5]!);
        assert.equal(built, 1);
      }
    });
  }
});
