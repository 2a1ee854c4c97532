// A station's view never carries another station's private data (docs/architecture.md: "a station never
// receives what it must not see"), across a whole blackjack round with bets behind, a double the
// bettor behind cannot follow, a spot that does not play, the settlement, a cash-out and recall;
// and the dealer's hole card is `XX` in every view, and its value in none, until it is revealed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { decodeHostMessage, ViewComposer, type CommandBody, type StationState, type ViewName, type ViewState } from '../../protocol/index.js';
import { credit, submitted, testTable } from '../testing/table-kit.js';
import { Outbox } from './outbox.js';

/** What a station may not see of another: everything but the table's public round and the static help. */
function privatePart(s: StationState): Omit<StationState, 'round' | 'payTable' | 'limits'> {
  const { round: _round, payTable: _payTable, limits: _limits, ...rest } = s;
  return rest;
}

describe('each station sees only its own data', () => {
  it("station 2 never receives station 1's credit, bets, decisions, unplayed spots, results, handpay or recall (nor the reverse); the hole card is XX everywhere until revealed", () => {
    // Macau 2009 procedure 3 (Art. 5 n.2 (3)): the dealer takes a hole card, and peeks under an ace or a ten.
    const t = testTable({
      game: 'blackjack',
      config: { profileOptions: { dealProcedure: 'macau-3', holeCard: 'peek' }, profileAuthorisation: 'DICJ-TEST-1' },
    });
    try {
      const views: ViewName[] = ['table', 'station/1', 'station/2'];
      const seen: Record<string, ViewState[]> = { table: [], 'station/1': [], 'station/2': [] };
      // What each screen is sent, as it puts it together: a station's own part and the public parts apart.
      for (const view of views) {
        const composer = new ViewComposer(view);
        // Through a send buffer as a connection's, which sends each screen a patch or the whole part.
        const outbox = new Outbox({
          write: (message, written) => {
            const m = decodeHostMessage(message.text);
            assert.ok(m.ok, `${view}: a message that fails its schema`);
            const composed = composer.take(m.message);
            if (composed) seen[view]?.push(composed.state);
            written();
          },
        });
        t.hub.subscribe(view, `test-${view}`, { deliver: (slot, update) => outbox.latest(slot, update) });
      }
      const snap = (view: ViewName) => t.hub.state(view) as StationState;
      const command = (view: ViewName, body: CommandBody) => {
        const r = submitted(t.hub.commands.submit(view, t.hub.version(view), body));
        assert.ok(r.ok, `${view} ${JSON.stringify(body)}: ${JSON.stringify(r)}`);
      };
      // The shoe-start burns.
      const low = ['2C', '3C', '4C', '2D', '3D', '4D', '2H', '3H', '4H', '2S', '3S', '4S'];
      for (let i = 0; t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard(low[i % low.length] as string), 700 + i);

      // Amounts no other station has, so that any leak shows as a number in the other's view.
      credit(t.ledger, 1, 1_234_500);
      credit(t.ledger, 2, 29_000);
      command('station/1', { name: 'place-bet', spot: { bet: 'main' }, amount: 37_100 });
      command('station/1', { name: 'place-bet', spot: { bet: 'behind', seat: 3 }, amount: 18_300 }); // seat 3 does not play: unplayed
      command('station/2', { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 });
      command('station/2', { name: 'place-bet', spot: { bet: 'behind', seat: 1 }, amount: 10_000 });
      const private1 = new Set<number>([1_234_500, 1_234_500 - 37_100, 1_234_500 - 37_100 - 18_300, 37_100, 18_300]);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');

      // Seat 1 5♠ 6♦ (11), seat 2 T♦ 9♣, the dealer 6♥ up and Q♣ in the hole.
      const hole = 'QC';
      const cards = ['5S', 'TD', '6H', '6D', '9C', hole];
      for (const c of cards) t.table.shoe.onCard(parseCard(c));
      const d1 = snap('station/1').decision;
      assert.ok(d1 && d1.seat === 1 && d1.legal.includes('double'), 'seat 1 decides');
      assert.equal(snap('station/2').decision, null, "station 2 does not see seat 1's decision, though it bets behind it");
      // Station 2 has 9,000 left: its bet behind cannot follow the double (10,000) and stays at its stake.
      command('station/1', { name: 'decide', action: 'double' });
      private1.add(1_234_500 - 37_100 * 2);
      assert.deepEqual(snap('station/2').betting.notFollowed, [{ seat: 1, hand: 0, action: 'double', amount: 10_000 }]);
      assert.equal(snap('station/1').betting.notFollowed, undefined, "station 1 is not told of station 2's bet behind");
      t.table.shoe.onCard(parseCard('9S')); // seat 1: 20
      const d2 = snap('station/2').decision;
      assert.ok(d2 && d2.seat === 2, 'seat 2 decides');
      assert.equal(snap('station/1').decision, null);
      command('station/2', { name: 'decide', action: 'stand' });
      t.table.shoe.onCard(parseCard('8H')); // the dealer: 6 + Q + 8 = 24, bust
      assert.equal(t.table.reads.view().phase, 'results');
      const net1 = snap('station/1').betting.roundNet;
      const net2 = snap('station/2').betting.roundNet;
      assert.equal(net1, 74_200, 'station 1 won its doubled bet');
      assert.ok(net2 !== undefined && net2 !== net1);
      private1.add(74_200);
      private1.add(1_234_500 + 74_200);

      // Station 1 cashes out its whole credit: a handpay only it is told of.
      command('station/1', { name: 'cash-out' });
      const pending = snap('station/1').cashout?.pending;
      assert.equal(pending?.amount, 1_234_500 + 74_200);
      assert.equal(snap('station/2').cashout?.pending ?? null, null);
      t.clock.advance(t.config.timings.resultsMs);
      assert.equal(t.table.reads.view().phase, 'betting');

      // The round is in both stations' recall, each with its own lines only.
      const recall1 = snap('station/1').recall ?? [];
      const recall2 = snap('station/2').recall ?? [];
      assert.equal(recall1.length, 1);
      assert.equal(recall2.length, 1);
      assert.ok(JSON.stringify(recall1).includes('37100'), 'station 1 recalls its own stake');
      // Asked for by station 2's screen (its recall panel open): its own rounds, nobody else's; a table display asks for none.
      const asked: string[] = [];
      const capture = { deliver: (_slot: string, u: { whole(): { text: string } }) => asked.push(u.whole().text) };
      t.hub.resend('station/2', 'test-station/2', capture, ['recall']);
      t.hub.resend('table', 'test-table', capture, ['recall']);
      assert.equal(asked.length, 1);
      const recalled = decodeHostMessage(asked[0]);
      assert.ok(recalled.ok && recalled.message.type === 'recall' && recalled.message.view === 'station/2');
      assert.equal(recalled.message.rounds.length, 1);
      assert.ok(!(asked[0] ?? '').includes('37100'), "no recall line of station 1 in station 2's recall");

      // Every snapshot station 2 was ever sent, and every one station 1 was sent, in their private parts.
      const twos = seen['station/2'] as StationState[];
      const ones = seen['station/1'] as StationState[];
      assert.ok(twos.length > 10 && ones.length > 10, `snapshots across the round: ${twos.length}, ${ones.length}`);
      const numbers = (x: unknown) => new Set((JSON.stringify(x).match(/-?\d+/g) ?? []).map(Number));
      for (const s of twos) {
        assert.equal(s.station, 2);
        if (s.decision) assert.equal(s.decision.seat, 2, "only seat 2's decisions");
        const leaked = [...numbers(privatePart(s))].filter((n) => private1.has(n));
        assert.deepEqual(leaked, [], `station 1's figures in station 2's view: ${JSON.stringify(privatePart(s))}`);
        assert.ok(!JSON.stringify(privatePart(s)).includes(pending?.requestTxId ?? '\u0000'), 'no handpay of station 1');
        for (const u of s.betting.unplayed ?? []) assert.ok(!(u.bet === 'behind' && u.seat === 3), 'no unplayed spot of station 1');
        for (const r of s.recall ?? []) assert.ok(!JSON.stringify(r).includes('37100'), 'no recall line of station 1');
      }
      assert.ok(
        ones.some((s) => s.betting.unplayed?.some((u) => u.bet === 'behind' && u.seat === 3 && u.amount === 18_300)),
        'station 1 was told its spot did not play',
      );
      for (const s of ones) {
        assert.equal(s.station, 1);
        if (s.decision) assert.equal(s.decision.seat, 1);
        assert.equal(s.betting.notFollowed, undefined, 'no bet behind of station 2');
      }

      // The hole card: XX in every view while hidden, its value in none; shown once the dealer plays.
      const revealedAt = (xs: ViewState[]) =>
        xs.findIndex(
          (s) =>
            s.kind !== 'service' &&
            (s.round?.hands.find((h) => h.owner === 'dealer')?.cards.length ?? 0) >= 2 &&
            !s.round?.hands.find((h) => h.owner === 'dealer')?.cards.includes('XX'),
        );
      for (const view of views) {
        const xs = seen[view] as ViewState[];
        const shown = revealedAt(xs);
        assert.ok(shown > 0, `${view}: the hole card is revealed at last`);
        const hidden = xs.slice(0, shown).filter((s) => s.kind !== 'service' && (s.round?.hands.find((h) => h.owner === 'dealer')?.cards.length ?? 0) >= 2);
        assert.ok(hidden.length > 0, `${view}: snapshots while the hole card was down`);
        for (const s of hidden) {
          if (s.kind === 'service') continue;
          assert.deepEqual(s.round?.hands.find((h) => h.owner === 'dealer')?.cards, ['6H', 'XX'], `${view}: the hole card is hidden`);
          assert.ok(!JSON.stringify(s).includes(`"${hole}"`), `${view}: the hole card's value is nowhere in the view`);
        }
        const after = xs[shown];
        assert.ok(after && after.kind !== 'service' && after.round?.hands.find((h) => h.owner === 'dealer')?.cards.includes(hole));
      }
    } finally {
      t.close();
    }
  });
});
