import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger, type Ledger } from '../../ledger/index.js';
import { warTableGame } from '../../engine/war/table-game.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

describe('the table runtime', () => {
  const tables: TestTable[] = [];
  let table: TestTable;
  let ledger: Ledger;
  after(() => tables.forEach((t) => t.close()));

  /** A war table of its own for each test, station 1 credited. */
  const make = () => {
    table = testTable({ game: 'war' });
    tables.push(table);
    ledger = table.ledger;
    credit(ledger, 1, 100_000);
    return { c: table.table, advance: table.clock.advance };
  };

  it('refuses new bets while the ledger is offline beyond its limit, and takes them again after', () => {
    const { c } = make();
    c.setFaults({ halted: null, newBetsStopped: 'unsynced ledger entries beyond the offline limit', disabled: [] });
    const r = c.commands.placeBet(1, { bet: 'main' }, 10_000);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /new bets are stopped/);
    assert.equal(c.reads.station(1).betting.open, false);
    c.setFaults({ halted: null, newBetsStopped: null, disabled: [] });
    assert.deepEqual(c.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  });

  it('refuses a bet over the credit or over the maximum, never trimming it', () => {
    const { c } = make();
    assert.match(JSON.stringify(c.commands.placeBet(1, { bet: 'main' }, 100_001)), /not enough credit/);
    assert.match(JSON.stringify(c.commands.placeBet(1, { bet: 'main' }, 2_000_000)), /over the maximum/);
    assert.deepEqual(c.reads.station(1).betting.bets, []);
  });

  it('Portugal rule 14: a bet is the minimum or a multiple of it; anything else is refused, naming the rule', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001', limits: { min: 10_000, max: 300_000 } } });
    tables.push(t);
    credit(t.ledger, 1, 100_000);
    const odd = t.table.commands.placeBet(1, { bet: 'main' }, 15_000);
    assert.equal(odd.ok, false);
    assert.equal(!odd.ok && odd.refusal, 'not-a-multiple');
    assert.match(!odd.ok ? odd.reason : '', /minimum of 10000 or a multiple of it \(portugal-2001 rule 14\)/);
    assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
    assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'main', amount: 20_000 }]);
  });

  it('a Macau table takes any amount within its limits (no rule 14 there)', () => {
    const t = testTable({ game: 'blackjack' });
    tables.push(t);
    credit(t.ledger, 1, 100_000);
    assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 15_001), { ok: true });
  });

  it("the table's maximum per round: the stations' chips together never pass it (procedure 3's cap cites its subparagraph)", () => {
    const t = testTable({
      game: 'blackjack',
      config: { roundMax: 30_000, profileOptions: { dealProcedure: 'macau-3', holeCard: 'peek' }, profileAuthorisation: 'DICJ-TEST-1' },
    });
    tables.push(t);
    credit(t.ledger, 1, 100_000);
    credit(t.ledger, 2, 100_000);
    assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
    const over = t.table.commands.placeBet(2, { bet: 'main' }, 10_001);
    assert.equal(!over.ok && over.refusal, 'over-round-max');
    assert.match(!over.ok ? over.reason : '', /maximum of 30000 for the round \(macau-2009 art\.5 n\.2 3\)\(8\)\)/);
    assert.deepEqual(t.table.commands.placeBet(2, { bet: 'main' }, 10_000), { ok: true });
  });

  it('ends the running countdown at once when asked (a dealer\'s "no more bets"), journalled as its timer', () => {
    const { c } = make();
    assert.deepEqual(c.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    assert.equal(c.reads.view().phase, 'betting');
    assert.equal(c.countdowns.end('results'), false, 'only the kind named');
    assert.equal(c.reads.view().phase, 'betting');
    assert.equal(c.countdowns.end('betting'), true);
    assert.equal(c.reads.view().phase, 'dealing', 'betting closed before its time');
    assert.equal(ledger.credit(1), 100_000 - 10_000, 'the bet was taken as at the end of the window');
    assert.equal(c.countdowns.end('betting'), false, 'no countdown runs while the cards are dealt');
    // The window's own timer, were it still set, would fire into a countdown already replaced.
    table.clock.advance(3_600_000);
    assert.equal(c.reads.view().phase, 'dealing');
    assert.equal(verifyLedger(ledger).ok, true);
  });

  it('keeps a frozen countdown running past its time until it is ended', () => {
    const { c } = make();
    assert.deepEqual(c.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    assert.equal(c.countdowns.freeze('decision'), false, 'only the kind named');
    assert.equal(c.countdowns.freeze('betting'), true);
    table.clock.advance(3_600_000);
    assert.equal(c.reads.view().phase, 'betting', 'the window outlived its time');
    assert.equal(c.countdowns.end('betting'), true);
    assert.equal(c.reads.view().phase, 'dealing');
  });

  it('settles a war coup through the ledger, with the rule of each line', () => {
    const { c } = make();
    const before = ledger.credit(1);
    assert.deepEqual(c.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    table.clock.runOut(c.reads.view().endsAt);
    assert.equal(c.reads.view().phase, 'dealing');
    assert.equal(ledger.credit(1), before - 10_000, 'the bet left the credit when betting closed');
    c.shoe.onCard(parseCard('7S')); // seat 1
    c.shoe.onCard(parseCard('9D')); // croupier: seat loses
    assert.equal(c.reads.view().phase, 'results');
    assert.deepEqual(c.reads.view().results, [{ seat: 1, bet: 'main', stake: 10_000, net: -10_000, rule: 'macau-war [art.7] n.2', owner: 'seat' }]);
    assert.equal(ledger.credit(1), before - 10_000);
  });

  it('puts the table on hold for a card out of turn; a void returns every bet and lifts it', () => {
    const { c } = make();
    const before = ledger.credit(1);
    assert.deepEqual(c.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    table.clock.runOut(c.reads.view().endsAt);
    c.shoe.onCard(parseCard('7S'));
    c.shoe.onCard(parseCard('7D')); // a tie: seat 1 must decide before any card
    assert.equal(c.reads.station(1).decision?.default, 'surrender');
    c.shoe.onCard(parseCard('5C'));
    assert.equal(c.reads.view().phase, 'hold');
    assert.equal(c.reads.view().hold, 'out-of-turn');
    assert.equal(c.reads.station(1).decision, null, 'nothing is decided on hold');
    assert.match(JSON.stringify(c.commands.decide(1, 'war')), /no decision is due/);
    assert.deepEqual(c.supervisor.voidRound('card out of turn', ['supervisor-1', 'witness-2']), { ok: true });
    assert.equal(ledger.credit(1), before, 'every bet returned');
    assert.equal(c.reads.view().phase, 'results');
    assert.equal(c.reads.view().hold, null);
  });

  it('takes the stated default when a decision times out, and journals it as automatic', () => {
    const { c } = make();
    const before = ledger.credit(1);
    assert.deepEqual(c.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    table.clock.runOut(c.reads.view().endsAt);
    c.shoe.onCard(parseCard('8S'));
    c.shoe.onCard(parseCard('8D'));
    const roundId = c.reads.view().roundId;
    table.clock.runOut(c.reads.station(1).decision!.endsAt);
    const decision = lastPayload(ledger, 'round.decision');
    assert.deepEqual([decision.action, decision.auto, decision.roundId], ['surrender', true, roundId], 'journalled as automatic');
    assert.deepEqual(
      (c.reads.view().results ?? []).map((l) => [l.net, l.rule]),
      // The default is the house's reading: n.4 gives the player the choice, not what a timeout takes.
      [[-5_000, 'macau-war house reading, no article: a tie left undecided in time surrenders']],
    );
    assert.equal(ledger.credit(1), before - 5_000, 'half the initial bet lost; nothing more was staked');
  });
});

/** Some fields of a payload, in order. */
function pick(payload: Record<string, unknown>, ...keys: string[]): unknown[] {
  return keys.map((k) => payload[k]);
}

/** The payload of the newest journal entry of a type. */
function lastPayload(ledger: Ledger, type: string): Record<string, unknown> {
  const e = [...ledger.entries(1)].filter((x) => x.type === type).at(-1);
  assert.ok(e, `a ${type} entry`);
  return (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload;
}

/** Feeds the shoe-start burns of a new blackjack shoe (a run of low cards). */
function burnShoeStart(t: TestTable): void {
  const low = ['2C', '3C', '4C', '2D', '3D', '4D', '2H', '3H', '4H', '2S', '3S', '4S'];
  for (let i = 0; t.table.reads.view().phase === 'betting' && t.table.reads.cue()?.kind === 'card'; i++)
    t.table.shoe.onCard(parseCard(low[i % low.length] as string), 900 + i);
  assert.equal(t.table.reads.cue(), null, 'the shoe-start burns are done');
}

/** Deals what the round asks for, card by card, until it asks for a decision or is done. */
function deal(t: TestTable, cards: string[]): void {
  for (const code of cards) {
    assert.equal(t.table.reads.cue()?.kind, 'card', `a card is expected for ${code}: ${JSON.stringify(t.table.reads.view())}`);
    t.table.shoe.onCard(parseCard(code));
  }
}

describe('timeout defaults never stall the table (issue 7 review, item 1)', () => {
  it('war Art. 7 n.4: a timeout at a tie never stakes: every seat that does not choose surrenders half (alínea 1)), whatever its credit', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 10_000);
      credit(t.ledger, 2, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true, 'all of its credit');
      assert.equal(t.table.commands.placeBet(2, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      deal(t, ['8S', '8H', '8D']); // seat 1 and seat 2 both tie the croupier
      const one = t.table.reads.station(1).decision;
      assert.deepEqual([one?.legal, one?.default], [['war', 'surrender'], 'surrender']);
      t.clock.runOut(one?.endsAt ?? null);
      assert.deepEqual(pick(lastPayload(t.ledger, 'round.decision'), 'seat', 'action', 'auto'), [1, 'surrender', true]);
      // Seat 2 could cover the raise: war is still only the player's own act («o jogador dobra a aposta inicial», n.5).
      const two = t.table.reads.station(2).decision;
      assert.equal(two?.default, 'surrender');
      t.clock.runOut(two?.endsAt ?? null);
      assert.deepEqual(pick(lastPayload(t.ledger, 'round.decision'), 'seat', 'action', 'auto'), [2, 'surrender', true]);
      assert.equal(t.table.reads.view().phase, 'results', 'the round settled: no war was dealt');
      assert.deepEqual(
        (t.table.reads.view().results ?? []).map((l) => [l.seat, l.net, l.rule]),
        [
          [1, -5_000, 'macau-war house reading, no article: a tie left undecided in time surrenders'],
          [2, -5_000, 'macau-war house reading, no article: a tie left undecided in time surrenders'],
        ],
      );
      assert.deepEqual([t.ledger.credit(1), t.ledger.credit(2)], [5_000, 45_000], 'no credit was staked without the player');
      t.clock.advance(t.config.timings.resultsMs);
      assert.equal(t.table.reads.view().phase, 'betting', 'the next window opens');
    } finally {
      t.close();
    }
  });

  it('war: a player who chooses war in time stakes the raise; the timeout never does', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      deal(t, ['9S', '9H']);
      assert.equal(t.table.reads.station(1).decision?.default, 'surrender');
      assert.equal(t.ledger.credit(1), 20_000);
      assert.deepEqual(t.table.commands.decide(1, 'war'), { ok: true });
      assert.deepEqual(pick(lastPayload(t.ledger, 'round.decision'), 'action', 'auto'), ['war', undefined]);
      assert.equal(t.ledger.credit(1), 10_000, 'the raise, by the player');
    } finally {
      t.close();
    }
  });

  it('war, the main bet of a tie bettor on a tie (mainBetOnTieWithTieBet=choose): its timeout surrenders too, staking nothing', () => {
    const t = testTable({ config: { profileOptions: { mainBetOnTieWithTieBet: 'choose' }, profileAuthorisation: 'TEST-DICJ' } });
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(t.table.commands.placeBet(1, { bet: 'tie' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      deal(t, ['JS', 'JH']);
      assert.equal(t.table.reads.station(1).decision?.default, 'surrender');
      t.clock.runOut(t.table.reads.station(1).decision?.endsAt ?? null);
      assert.deepEqual(pick(lastPayload(t.ledger, 'round.decision'), 'action', 'auto'), ['surrender', true]);
      assert.deepEqual(
        (t.table.reads.view().results ?? []).map((l) => [String(l.bet), l.net, l.rule]),
        [
          ['main', -5_000, 'macau-war house reading, no article: a tie left undecided in time surrenders'],
          ['tie', 100_000, 'macau-war [art.7] n.3'],
        ],
      );
      assert.equal(t.ledger.credit(1), 30_000 - 20_000 + 5_000 + 110_000, 'half the main bet back, the tie bet paid 10:1; no raise');
    } finally {
      t.close();
    }
  });

  it('a default the engine refuses anyway holds the table with its reason, journalled; a void returns every bet', () => {
    // A game whose rounds refuse every decision: what the table does when a default is refused.
    const war = warTableGame('macau');
    const t = testTable({
      game: 'war',
      definition: { ...war, round: { ...war.round, decide: () => ({ ok: false, reason: 'refused by the test', refusal: 'illegal-action' }) } },
    });
    const l = t.ledger;
    try {
      credit(l, 1, 50_000);
      const c = t.table;
      assert.equal(c.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(c.reads.view().endsAt);
      c.shoe.onCard(parseCard('5S'));
      c.shoe.onCard(parseCard('5H'));
      t.clock.runOut(c.reads.station(1).decision?.endsAt ?? null);
      assert.deepEqual([c.reads.view().phase, c.reads.view().hold, c.reads.view().endsAt], ['hold', 'default-refused', null]);
      const held = lastPayload(l, 'misread');
      assert.deepEqual([held.detail, held.resolution, held.roundId], ['default-refused', 'pending', c.reads.view().roundId]);
      assert.deepEqual(c.supervisor.voidRound('default refused at a tie', ['sup-1', 'wit-2']), { ok: true });
      assert.equal(l.credit(1), 50_000, 'every bet returned');
      assert.equal(verifyLedger(l).ok, true);
    } finally {
      t.close();
    }
  });

  it('a game whose stated default would stake credit is refused on the timeout: the table holds, nothing is staked', () => {
    // A war whose timeout went to war, as the table played it before issue 51: the table itself refuses it.
    const war = warTableGame('macau');
    const staking = {
      ...war,
      round: {
        ...war.round,
        pending: (s: Parameters<typeof war.round.pending>[0], r: Parameters<typeof war.round.pending>[1]) => {
          const p = war.round.pending(s, r);
          return p.kind === 'decision' ? { ...p, default: 'war' as const } : p;
        },
      },
    };
    const t = testTable({ game: 'war', definition: staking });
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      deal(t, ['6S', '6H']);
      t.clock.runOut(t.table.reads.station(1).decision?.endsAt ?? null);
      assert.deepEqual([t.table.reads.view().phase, t.table.reads.view().hold], ['hold', 'default-refused']);
      assert.equal(t.ledger.credit(1), 40_000, 'the raise was not taken');
      assert.equal([...t.ledger.entries(1)].filter((e) => e.type === 'round.decision').length, 0, 'no decision journalled');
    } finally {
      t.close();
    }
  });

  it('blackjack (Macau 2009): all credit bet, the insurance offer is declined and the hand stands on timeout, each journalled as automatic', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      burnShoeStart(t);
      credit(t.ledger, 1, 10_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      deal(t, ['TS', 'AH', '7D']); // seat 1: T, dealer: A (no hole card), seat 1: 7 → 17
      const offer = t.table.reads.station(1).decision;
      assert.deepEqual([offer?.legal, offer?.default], [['insurance', 'decline-insurance'], 'decline-insurance']);
      t.clock.runOut(offer?.endsAt ?? null);
      const play = t.table.reads.station(1).decision;
      assert.ok(play?.legal.includes('stand'));
      assert.equal(play?.default, 'stand');
      t.clock.runOut(play?.endsAt ?? null);
      const autos = [...t.ledger.entries(1)]
        .filter((e) => e.type === 'round.decision')
        .map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);
      assert.deepEqual(
        autos.map((d) => [d.action, d.auto]),
        [
          ['decline-insurance', true],
          ['stand', true],
        ],
      );
      deal(t, ['9C']); // dealer: A 9 → 20
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 0, '17 against 20 loses');
    } finally {
      t.close();
    }
  });

  it('blackjack (Portugal rule 18): standing is not allowed at 11 or less, so the timeout hits', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
    try {
      burnShoeStart(t);
      credit(t.ledger, 1, 10_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true, 'all of its credit: no double can be covered');
      t.clock.runOut(t.table.reads.view().endsAt);
      // Portugal deals a hole card: seat, dealer, seat, dealer's hole.
      for (let i = 0; i < 6 && t.table.reads.cue()?.kind === 'card'; i++)
        t.table.shoe.onCard(parseCard((['5S', '9H', '4D', '8C', '2H', '3H'] as const)[i] as string));
      const d = t.table.reads.station(1).decision;
      assert.ok(d, 'a decision is due');
      assert.equal(d.legal.includes('stand'), false, `9 cannot stand: ${d.legal.join(',')}`);
      assert.equal(d.default, 'hit');
      t.clock.runOut(d.endsAt);
      const auto = lastPayload(t.ledger, 'round.decision');
      assert.deepEqual([auto.action, auto.auto], ['hit', true]);
      assert.equal(t.table.reads.cue()?.kind, 'card', 'the hit card is asked for: the round goes on');
    } finally {
      t.close();
    }
  });
});
