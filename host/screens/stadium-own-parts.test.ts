// Issue 55: at a stadium the hub builds every station's own part from what the stations share,
// worked out once per change (engine/table/views.ts `stationProjector`: the lists grouped by
// station, the spots one list for every remote station), and a change of the table alone that
// moves no field every station reads looks only at the stations it moved (station-reads.ts
// `stationsMoved`). Either could hand a station another's data, or leave a station with an
// own part the change should have moved. Here a dozen remote stations and the seated ones, each
// with credit and stakes no other has, play a shoe as their screens see it (an outbox and a
// composer each, patches and all): after every change each screen's own part must be the one a
// hub that never saw the table before builds, and its credit, bets, unplayed spots and result
// the table's state for that station alone, read off the state without the hub's grouping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { REMOTE_STATION_BASE, stationOf, type StationState } from '../../protocol/index.js';
import { credit, quietHub, testTable, type TestTable } from '../testing/table-kit.js';
import { ownPart, stationScreens } from '../testing/station-screens.js';

const REMOTE = 12;
// Pairs come often (a war's tie, the stadium's decision), and blackjack's seats stand or bust in a few cards.
const CARDS = ['9S', '9H', '7D', '2C', 'KD', 'KH', '5H', 'AS', '3C', '3D', '6D', 'QH', '4S', 'TC'];

/** Every station's screen, as it puts together what it is sent. */
function screens(t: TestTable) {
  const { views, shown } = stationScreens(t);
  // A hub over the same table that hears of no change: what each station's own part is now.
  const fresh = () => quietHub(t);
  return { views, shown, fresh };
}

/** A station's credit, stakes and result as the table's state has them, filtered for it alone. */
function ownOfState(t: TestTable, station: number) {
  const s = t.table.state;
  const chips = s.chips.filter((c) => c.station === station);
  const onSpots = chips.reduce((a, c) => a + c.amount, 0);
  const stakes = s.phase === 'betting' ? chips.map((c) => c.amount) : s.placed.filter((p) => p.station === station).map((p) => p.amount);
  const lines = s.phase === 'results' ? (s.results ?? []).filter((l) => l.station === station) : [];
  return {
    credit: (s.credits[station] ?? 0) - onSpots,
    stakes: stakes.sort((a, b) => a - b),
    roundNet: lines.length > 0 ? lines.reduce((a, l) => a + l.net, 0) : undefined,
  };
}

describe("a stadium's own parts: each station its own, none stale (issue 55)", () => {
  for (const game of ['baccarat', 'war', 'blackjack'] as const) {
    it(`${game}: after every change of a played shoe, each screen shows its own credit, stakes and result, as a new hub builds them`, () => {
      const t = testTable({ game, config: { remoteStations: REMOTE } });
      try {
        const { views, shown, fresh } = screens(t);
        const stations = views.map((v) => stationOf(v) as number);
        // Each station's figures are its own: a credit and a stake no other station has.
        const stakeOf = (station: number) => 10_000 + 100 * (station % 100);
        for (const station of stations) credit(t.ledger, station, 1_000_000 + 1_000 * (station % 100));
        // Blackjack's remote stations bet behind a seat (one that plays, or not: unplayed), the others on a spot of their own.
        const spotOf = (station: number) =>
          game === 'baccarat'
            ? { bet: 'banker' as const }
            : game === 'blackjack' && station > REMOTE_STATION_BASE
              ? { bet: 'behind' as const, seat: 1 + (station % 3) }
              : { bet: 'main' as const };
        const check = (what: string) => {
          const now = fresh();
          for (const view of views) {
            const station = stationOf(view) as number;
            const screen = shown.get(view);
            assert.ok(screen, `${what}: ${view} was sent its view`);
            assert.equal(ownPart(screen), ownPart(now.state(view) as StationState), `${what}: ${view}'s own part as a new hub builds it`);
            const own = ownOfState(t, station);
            assert.equal(screen.station, station, `${what}: ${view} names its own station`);
            assert.equal(screen.credit, own.credit, `${what}: ${view}'s credit`);
            assert.deepEqual(
              screen.betting.bets.map((b) => b.amount).sort((a, b) => a - b),
              own.stakes,
              `${what}: ${view}'s stakes`,
            );
            assert.equal(screen.betting.roundNet, own.roundNet, `${what}: ${view}'s result`);
            for (const u of screen.betting.unplayed ?? []) assert.equal(u.amount, stakeOf(station), `${what}: ${view}'s unplayed spot`);
          }
        };
        t.table.shoe.onNewShoe();
        check('a new shoe');
        let settled = 0;
        let decided = 0;
        for (let i = 0; i < 160; i++) {
          const cue = t.table.reads.cue();
          const view = t.table.reads.view();
          if (view.phase === 'betting' && !t.table.reads.hasBets(REMOTE_STATION_BASE + 1)) {
            // Each bet its own change: a station's chips move, nobody else's.
            for (const station of stations.filter((n) => (n + i) % 3 !== 0)) {
              t.table.commands.placeBet(station, spotOf(station), stakeOf(station));
              check(`step ${i}: station ${station}'s bet`);
            }
          } else if (cue?.kind === 'card') {
            t.table.shoe.onCard(parseCard(CARDS[i % CARDS.length] ?? '2C'));
            if (t.table.reads.view().phase === 'results') settled++;
          } else if (cue?.kind === 'shuffle') t.table.shoe.onNewShoe();
          else if (view.endsAt !== null) {
            // A decision due from some stations: one of them decides, the others on the countdown.
            const deciding = stations.find((n) => t.table.reads.station(n).decision !== null);
            if (deciding !== undefined && view.phase === 'dealing') {
              const d = t.table.reads.station(deciding).decision;
              t.table.commands.decide(deciding, d?.default ?? 'stand');
              decided++;
            } else t.clock.runOut(view.endsAt);
          } else t.clock.advance(1_000);
          check(`step ${i}`);
        }
        assert.ok(settled >= 3, `rounds settled (${settled})`);
        if (game !== 'baccarat') assert.ok(decided > 0, `decisions made (${decided})`);
      } finally {
        t.close();
      }
    });
  }
});
