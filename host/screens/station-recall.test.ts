// A station's recall splits each recorded round by station once and keeps the split by round id
// (station-recall.ts): a stadium's hundreds of stations take their part of one read. An entry
// journalled under a round after its close (a card the dealer drew after standing, corrected, or
// the hold it made lifted by a void: host/table/late-correction.test.ts) changes what the round's
// recall shows. Here a station recalls a settled round, the late entry is journalled, and the
// station recalls again: it must see the round as the ledger's record has it now, as a hub that
// never read it before does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { StationRecallRound } from '../../protocol/index.js';
import { credit, quietHub, testTable, type TestTable } from '../testing/table-kit.js';
import { recallRound } from './recall.js';

function cards(t: TestTable, codes: string): void {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
}

/** Seat 1 (station 1) stands on 11 against the dealer's 6 + 10 + ace: the round settles, its results show. */
function settledRound(): { t: TestTable; roundId: string } {
  const t = testTable({ game: 'blackjack', config: { profile: 'macau-2009' } });
  credit(t.ledger, 1, 100_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  const roundId = t.table.reads.view().roundId;
  cards(t, '5S 6H 6D');
  assert.deepEqual(t.table.commands.decide(1, 'stand'), { ok: true });
  cards(t, 'TH AS');
  assert.equal(t.table.reads.view().phase, 'results');
  return { t, roundId };
}

/** The station's recall of the round as the hub shows it (its whole view's list, the one its screen is sent). */
function recalled(t: TestTable, roundId: string, hub = t.hub): StationRecallRound | undefined {
  const view = hub.state('station/1');
  assert.equal(view.kind, 'station');
  return view.kind === 'station' ? view.recall?.find((r) => r.roundId === roundId) : undefined;
}

/** The round as the ledger records it now, for station 1. */
function onRecord(t: TestTable, roundId: string): StationRecallRound {
  const record = t.ledger.rounds.record(roundId);
  assert.ok(record, 'the round is recorded');
  return recallRound(record, 1);
}

describe('a recalled round after an entry journalled past its close (the split kept by round id)', () => {
  it('a card drawn after standing, corrected: the recall shows the correction', () => {
    const { t, roundId } = settledRound();
    try {
      const before = recalled(t, roundId);
      assert.ok(before, 'the station recalls the round');
      assert.equal(before.corrections, undefined, 'no correction before');
      cards(t, '4C');
      assert.equal(t.table.reads.holdState()?.reason, 'extra-card');
      assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
      assert.deepEqual(onRecord(t, roundId).corrections, [{ correction: 'undue-card', card: '4C', article: 'macau-2009 art.6 1)' }], "the ledger's record");
      assert.deepEqual(recalled(t, roundId)?.corrections, onRecord(t, roundId).corrections, "the hub's recall of the round");
      assert.deepEqual(recalled(t, roundId), recalled(t, roundId, quietHub(t)), 'as a hub that never read it shows it');
    } finally {
      t.close();
    }
  });

  it('the hold it made lifted by a void instead: the recall is the round as recorded', () => {
    const { t, roundId } = settledRound();
    try {
      const before = recalled(t, roundId);
      assert.ok(before);
      cards(t, '4C');
      assert.deepEqual(t.table.supervisor.voidRound('the dealer drew after standing', ['sup-1', 'wit-2']), { ok: true });
      assert.deepEqual(recalled(t, roundId), onRecord(t, roundId), "the hub's recall is the ledger's record");
      assert.deepEqual(recalled(t, roundId), recalled(t, roundId, quietHub(t)), 'as a hub that never read it shows it');
    } finally {
      t.close();
    }
  });
});
