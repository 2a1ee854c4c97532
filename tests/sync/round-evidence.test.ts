// Issue 49: a round's evidence bundle as the upstream assembles it from the journal a table synced
// to it equals the table's own bundle from its SQLite ledger, for rounds of every game played by
// the real table: blackjack with insurance, a split and a double; baccarat; war with a war; a void;
// a correction journalled after its round settled. One assembly (terms/round-evidence.ts) serves both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { evidenceBundle, SyncClient, verifyEvidence, type EvidenceBundle } from '../../ledger/index.js';
import { enrolTerminal, migrateUpstream, openPglite, startUpstream, type Db } from '../../upstream/index.js';
import { roundEvidence } from '../../upstream/backoffice/round-evidence.js';
import { recordPayload, ruleRecordOf } from '../../host/config/authorisation.js';
import { credit, submitted, testTable, type TestTable } from '../../host/testing/table-kit.js';

type Game = 'blackjack' | 'baccarat' | 'war';

function cards(t: TestTable, codes: string): void {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
}

function burnShoeStart(t: TestTable): void {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

const decide = (t: TestTable, station: number, action: string, amount?: number) =>
  submitted(
    t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), {
      name: 'decide',
      action,
      ...(amount ? { amount } : {}),
    } as never),
  );

/**
 * Deals `deck` card by card, deciding for each station whose decision is due with `choose`, until
 * the round's results show.
 */
function playOut(t: TestTable, deck: string[], choose: (station: number, legal: readonly string[]) => [string, number?]): void {
  for (let i = 0; i < 80 && t.table.reads.view().phase === 'dealing'; i++) {
    const due = [1, 2].find((s) => t.table.reads.station(s).decision);
    if (due !== undefined) {
      const [action, amount] = choose(due, t.table.reads.station(due).decision?.legal ?? []);
      assert.equal(decide(t, due, action, amount).ok, true, `station ${due} ${action}`);
      continue;
    }
    const next = deck.shift();
    assert.ok(next, 'the deck ran out before the round settled');
    cards(t, next);
  }
  assert.equal(t.table.reads.view().phase, 'results');
}

function openRound(t: TestTable, bets: [station: number, bet: string, amount: number][]): string {
  for (const [s, bet, amount] of bets) assert.deepEqual(t.table.commands.placeBet(s, { bet: bet as never }, amount), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  const roundId = t.table.reads.view().roundId;
  assert.ok(roundId);
  return roundId;
}

/** Blackjack: insurance against the dealer's ace, a pair of eights split, an eleven doubled; then a round with a correction after it settled. */
function blackjack(t: TestTable): string[] {
  burnShoeStart(t);
  const first = openRound(t, [
    [1, 'main', 10_000],
    [2, 'main', 10_000],
  ]);
  // Seat 1, seat 2, the dealer's ace, seat 1, seat 2: eights at seat 1, eleven at seat 2.
  cards(t, '8S 5H AH 8D 6D');
  let split = false;
  playOut(t, '3C 9C TC 7C 2D 4D 9H TS 6C 5C KD 3H'.split(' '), (station, legal) => {
    if (legal.includes('insurance')) return station === 1 ? ['insurance', 5_000] : [legal.find((a) => a !== 'insurance') ?? 'stand'];
    if (station === 1 && legal.includes('split') && !split) {
      split = true;
      return ['split'];
    }
    if (station === 2 && legal.includes('double')) return ['double'];
    return [legal.includes('stand') ? 'stand' : (legal[0] ?? 'stand')];
  });
  const rec = t.ledger.rounds.record(first);
  assert.ok(rec?.decisions.some((d) => d.action === 'split'));
  assert.ok(rec?.decisions.some((d) => d.action === 'double'));
  assert.ok(rec?.lines.some((l) => l.bet === 'insurance'));
  // A dealer's card after standing (Macau 2009 Art. 6 1)): corrected after the round settled.
  t.clock.runOut(t.table.reads.view().endsAt);
  const late = openRound(t, [[1, 'main', 10_000]]);
  cards(t, '5S 6H 6D');
  assert.equal(decide(t, 1, 'stand').ok, true);
  cards(t, 'TH AS');
  assert.equal(t.table.reads.view().phase, 'results');
  cards(t, '4C');
  assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
  assert.ok(t.ledger.rounds.record(late)?.corrections?.length);
  return [first, late];
}

function baccarat(t: TestTable): string[] {
  burnShoeStart(t);
  const roundId = openRound(t, [
    [1, 'banker', 10_000],
    [2, 'player', 10_000],
  ]);
  playOut(t, '2S 3H 4D 5C 9S 9H 8D 8C'.split(' '), (_s, legal) => [legal[0] ?? 'stand']);
  return [roundId];
}

/** War: a tie, both seats go to war; then a round voided on a card out of turn. */
function war(t: TestTable): string[] {
  const roundId = openRound(t, [
    [1, 'main', 10_000],
    [2, 'main', 10_000],
  ]);
  cards(t, '7S 9C 7D'); // seat 1 ties the croupier's 7
  playOut(t, 'AS KS QS JS TS 9S 8S 6S 5S 4S 3S 2S AD KD QD JD'.split(' '), (_s, legal) => [legal.includes('war') ? 'war' : (legal[0] ?? 'stand')]);
  assert.ok(t.ledger.rounds.record(roundId)?.decisions.some((d) => d.action === 'war'));
  t.clock.runOut(t.table.reads.view().endsAt);
  const voided = openRound(t, [[1, 'main', 10_000]]);
  cards(t, '7C 7H'); // a tie: seat 1 must decide before any card
  cards(t, '5C'); // a card out of turn: the table holds
  assert.deepEqual(t.table.supervisor.voidRound('card out of turn', ['supervisor-1', 'witness-2']), { ok: true });
  assert.equal(t.ledger.rounds.record(voided)?.status, 'void');
  return [roundId, voided];
}

const PLAY: Record<Game, (t: TestTable) => string[]> = { blackjack, baccarat, war };

describe("a round's evidence bundle: the table's and the upstream's are one", () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  const tables: { game: Game; t: TestTable; rounds: string[] }[] = [];
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    up = await startUpstream({ db });
    for (const game of ['blackjack', 'baccarat', 'war'] as const) {
      const terminalId = `T-${game.toUpperCase()}`;
      const t = testTable({ game, terminalId, config: { tableId: `${game.toUpperCase()}-01` } });
      tables.push({ game, t, rounds: [] });
      // The rule set on record as the host journals it when the table opens (host/start/table-runtime.ts).
      t.ledger.append({ type: 'rules.record', payload: recordPayload(ruleRecordOf(t.config), 'open') });
      // A rule change that waits for the next start: on record before the rounds, in force for none of them.
      if (game === 'blackjack') {
        const change = t.floor.configChanges.change(
          'profileOptions',
          { surrender: 'none' },
          { who: 'sup-1', witness: 'sup-2', authorisation: 'DICJ-2026-0077' },
        );
        assert.equal(change.ok && change.status, 'restart', JSON.stringify(change));
      }
      for (const s of [1, 2]) credit(t.ledger, s, 200_000);
      const rounds = PLAY[game](t);
      tables[tables.length - 1] = { game, t, rounds };
      const cred = await enrolTerminal(db, terminalId, false);
      const client = new SyncClient(t.ledger, { url: up.url, credentials: { ...cred, upstream: up.url } });
      while ((await client.syncOnce()) === 'sent');
    }
  });
  after(async () => {
    for (const { t } of tables) t.close();
    await up?.close();
    await db?.close();
  });

  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: every round's bundle from the synced journal equals the table's own, and verifies`, async () => {
      const table = tables.find((x) => x.game === game);
      assert.ok(table && table.rounds.length > 0);
      const now = new Date(Date.UTC(2026, 10, 27, 12, 0, 0));
      for (const roundId of table.rounds) {
        const kiosk = evidenceBundle(table.t.ledger, roundId, now);
        assert.ok(kiosk, `the table has round ${roundId}`);
        assert.deepEqual(kiosk.round, table.t.ledger.rounds.record(roundId), "the bundle's record is the table's recall projection");
        const upstream = await roundEvidence(db, table.t.ledger.terminalId, roundId, now);
        assert.equal(typeof upstream, 'object', String(upstream));
        assert.deepEqual(upstream, kiosk);
        assert.equal(JSON.stringify(upstream), JSON.stringify(kiosk), 'the same bytes, key order included');
        assert.deepEqual(verifyEvidence(upstream as EvidenceBundle), { ok: true, problems: [] });
        assert.ok(kiosk.rules, 'the rules record in force is in the bundle');
        assert.match(kiosk.rules.body, /"cause":"open"/, 'the record the table opened under, not a change waiting for the next start');
      }
    });
  }

  it('refuses a round of another table, an unknown round and an unknown table, each by name', async () => {
    const [bj, bac] = [tables[0], tables[1]];
    assert.ok(bj && bac);
    const now = new Date();
    assert.equal(await roundEvidence(db, bj.t.ledger.terminalId, bac.rounds[0] ?? '', now), 'round-of-another-table');
    assert.equal(await roundEvidence(db, bj.t.ledger.terminalId, 'no-such-round', now), 'no-round');
    assert.equal(await roundEvidence(db, 'T-NOWHERE', bj.rounds[0] ?? '', now), 'no-table');
  });
});
