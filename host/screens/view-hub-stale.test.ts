// Issue 32 item 6: the hub keeps each built view until what it is built from changes, and skips
// the stations altogether when nothing any station reads moved. If what a station reads and what
// the hub compares drift apart (a field added to the state, read by the station's view, forgotten
// in the comparison), a station screen goes stale. Here every station's view, read after each
// change of a played round, must be what a hub that never saw the table before builds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { stationOf, type ViewName } from '../../protocol/index.js';
import type { LiveTable } from '../table/runtime.js';
import { credit, testTable } from '../testing/table-kit.js';
import { ViewHub } from './view-hub.js';

const CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];

describe('station views are never stale (issue 32 item 6)', () => {
  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: after every change of a round, each station's view is what a new hub builds`, () => {
      const t = testTable({ game, config: { remoteStations: 2 } });
      try {
        // A new hub over the same table, built fresh each time: it does not hear of changes (no
        // listener kept), so it has no memory of earlier states to be stale with.
        const quiet = new Proxy(t.table, {
          get: (target, key) => (key === 'onChange' ? () => () => undefined : (Reflect.get(target, key) as unknown)),
        }) as LiveTable;
        const freshState = (view: ViewName) => {
          const hub = new ViewHub(t.config, '0.0.0-test', quiet, t.ledger);
          hub.attachFloor(t.floor.gate);
          return hub.state(view);
        };
        const stations = [...t.hub.views().filter((v) => stationOf(v) !== null), ...t.hub.remoteViews()];
        let checks = 0;
        const stale: string[] = [];
        const check = (when: string) => {
          for (const view of stations) {
            checks++;
            const shown = JSON.stringify(t.hub.state(view));
            if (shown !== JSON.stringify(freshState(view))) stale.push(`${view} ${when}`);
          }
        };
        for (const station of [1, 2, 101, 102]) credit(t.ledger, station, 100_000);
        t.table.shoe.onNewShoe();
        check('after the new shoe');
        for (let i = 0; i < 120; i++) {
          const cue = t.table.reads.cue();
          const view = t.table.reads.view();
          if (view.phase === 'betting' && !t.table.reads.hasBets(1)) {
            const bet = game === 'baccarat' ? 'banker' : 'main';
            t.table.commands.placeBet(1, { bet }, 10_000);
            t.table.commands.placeBet(101, { bet }, 20_000);
          } else if (cue?.kind === 'card') t.table.shoe.onCard(parseCard(CARDS[i % CARDS.length] ?? '2C'));
          else if (cue?.kind === 'shuffle') t.table.shoe.onNewShoe();
          else if (view.endsAt !== null) t.clock.runOut(view.endsAt);
          else t.clock.advance(1_000);
          check(`after step ${i} (${view.phase}${cue ? `, cue ${cue.kind}` : ''})`);
        }
        assert.ok(checks > 300, `checked ${checks}`);
        assert.deepEqual(stale.slice(0, 10), []);
      } finally {
        t.close();
      }
    });
  }
});
