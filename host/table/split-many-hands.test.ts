// Portugal's rules set no limit on splitting (rules 26-27; engine/blackjack/option-table.ts: maxHands
// 99), and a Macau house may choose up to 99 hands: a seat split to nine or more hands is a round a
// live table can deal. What the screens are sent must still pass the protocol's schema, or every
// screen refuses the round as malformed and freezes on it (the public round's hand index was at
// most 7, its hands at most 40; a bet behind's notFollowed hand at most 7).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { ViewState, type DecisionAction } from '../../protocol/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const decide = (t: TestTable, station: number, action: DecisionAction) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));

function parsed(t: TestTable, view: Parameters<TestTable['hub']['state']>[0]): void {
  const r = ViewState.safeParse(t.hub.state(view));
  assert.equal(r.success, true, `${view}: ${r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}

describe('a seat split past eight hands (Portugal 2001, rules 26-27: no limit in the text)', () => {
  it('deals, settles and shows every hand: the table and the station views pass the protocol schema at each step', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
    try {
      credit(t.ledger, 1, 10_000_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(
        submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 })).ok,
        true,
      );
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      let splits = 0;
      let dealt = 0;
      // Eights to the seat while it splits, then ten-valued cards: each hand stands on 18. Every
      // suit in turn (an eight-deck shoe holds eight of each card; a ninth would be refused).
      const next = () => `${splits < 11 ? '8' : 'TJQK'[dealt % 4]}${'HDSC'[Math.floor(dealt++ / 4) % 4]}`;
      for (let i = 0; i < 400 && t.table.reads.view().phase === 'dealing'; i++) {
        const decision = t.table.reads.station(1).decision;
        if (decision !== null) {
          const action = decision.legal.includes('split') && splits < 11 ? 'split' : 'stand';
          if (action === 'split') splits++;
          const r = decide(t, 1, action);
          assert.equal(r.ok, true, r.ok ? '' : `${action}: ${r.error.refusal} ${r.error.detail}`);
        } else if (t.table.reads.cue()?.kind === 'card') {
          t.table.shoe.onCard(parseCard(next()));
        } else t.clock.advance(1_000);
        parsed(t, 'table');
        parsed(t, 'station/1');
      }
      assert.equal(splits, 11, 'the seat split eleven times: twelve hands');
      assert.ok(
        t.table.reads.view().hands.some((h) => h.owner === 'seat' && (h.hand ?? 0) >= 8),
        'a ninth hand is on the felt',
      );
      assert.equal(t.table.reads.view().phase, 'results');
      parsed(t, 'table');
      parsed(t, 'station/1');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
