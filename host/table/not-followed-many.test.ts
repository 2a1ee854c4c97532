// Portugal's rules set no limit on splitting (rules 26-27) and let a bettor behind follow a split
// or not (rule 28): one whose credit cannot cover the split rides on the first hand, and its
// station is told (StationBetting.notFollowed, one entry a split or double it could not follow).
// The schema holds that list to 16: a seat split seventeen times with a bettor behind it short of
// credit made the bettor's own part fail its schema, and its screen refused every view of the
// round as malformed. Past 16 the entries are now said once per seat and action, their amounts
// summed (engine/table/views.ts), as many entries as the schema holds one by one before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { ViewState, type DecisionAction } from '../../protocol/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const decide = (t: TestTable, station: number, action: DecisionAction) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));
const bet = (t: TestTable, station: number, spot: Record<string, unknown>, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount } as never));

describe('a bettor behind a seat split past sixteen times, short of credit each time (Portugal 2001 rules 26-28)', () => {
  it("is told, and its station's view passes the protocol schema at each step", () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
    try {
      credit(t.ledger, 1, 10_000_000);
      const min = t.table.reads.station(2).betting.spots.find((s) => s.bet === 'behind' && 'seat' in s && s.seat === 1)?.min;
      assert.ok(min !== undefined, 'station 2 may bet behind seat 1');
      credit(t.ledger, 2, min);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(bet(t, 1, { bet: 'main' }, 10_000).ok, true);
      const behind = bet(t, 2, { bet: 'behind', seat: 1 }, min);
      assert.equal(behind.ok, true, behind.ok ? '' : `${behind.error.refusal} ${behind.error.detail}`);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      const SPLITS = 20;
      let splits = 0;
      let dealt = 0;
      // Ten-valued cards to the seat (Portugal splits by value: rule 26), every one a pair; a six-deck shoe holds 96.
      const next = () => `${'TJQK'[dealt % 4]}${'HDSC'[Math.floor(dealt++ / 4) % 4]}`;
      let worst = 0;
      for (let i = 0; i < 600 && t.table.reads.view().phase === 'dealing'; i++) {
        const decision = t.table.reads.station(1).decision;
        if (decision !== null) {
          const action = decision.legal.includes('split') && splits < SPLITS ? 'split' : 'stand';
          if (action === 'split') splits++;
          const r = decide(t, 1, action);
          assert.equal(r.ok, true, r.ok ? '' : `${action}: ${r.error.refusal} ${r.error.detail}`);
        } else if (t.table.reads.cue()?.kind === 'card') t.table.shoe.onCard(parseCard(next()));
        else t.clock.advance(1_000);
        const view = t.hub.state('station/2');
        const r = ViewState.safeParse(view);
        assert.equal(r.success, true, `station/2 after ${splits} splits: ${r.error?.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
        if (view.kind === 'station') worst = Math.max(worst, view.betting.notFollowed?.length ?? 0);
      }
      assert.equal(splits, SPLITS, `the seat split ${SPLITS} times`);
      const view = t.hub.state('station/2');
      assert.equal(view.kind, 'station');
      const told = view.kind === 'station' ? (view.betting.notFollowed ?? []) : [];
      assert.ok(told.length > 0 && worst <= 16, `${worst} entries at most`);
      assert.deepEqual([...new Set(told.map((n) => `${n.seat}:${n.action}`))], ['1:split'], 'the splits it did not follow are said');
    } finally {
      t.close();
    }
  });
});
