// The table's own steps in service mode (a void, a correction, a card entered, a dealing error
// reported, a jackpot level reset) and their `service.action` record (who authorised what) under a
// journal that refuses the record once (a full disk). Both are written in one transaction or
// neither: refused, the person is told it failed, nothing is journalled, the table is exactly as
// it was (no hold of its own for a request it did not take), and the same request again is taken
// once. And a jackpot reset asked again after it was done is not journalled twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../../engine/blackjack/jackpot/program.js';
import { parseCard } from '../../../engine/cards/card.js';
import { foldJournal } from '../../../engine/table/fold.js';
import { tableJournal, type JournalEntry, type Ledger } from '../../../ledger/index.js';
import { refusingOnce } from '../../testing/refusing-ledger.js';
import { credit, submitted, testTable, type TestTable } from '../../testing/table-kit.js';
import { openTableGame } from '../../table/table-game.js';
import type { BackendResult } from '../service-backend.js';
import type { Changes } from './changes.js';
import { jackpot } from './jackpot.js';
import { roundActions } from './round-actions.js';

const BY: [string, string] = ['Ana Lei (1001)', 'Bo Chan (1002)'];

const changes = { changed: () => undefined, onChange: () => () => undefined } as unknown as Changes;

function answer(act: () => BackendResult): BackendResult | 'threw' {
  try {
    return act();
  } catch {
    return 'threw';
  }
}

const entries = (ledger: Ledger, from = 1): JournalEntry[] => [...ledger.entries(from)];
const count = (ledger: Ledger, type: string) => entries(ledger).filter((e) => e.type === type).length;
const payload = (e: JournalEntry) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload;

/** Every batch the ledger is asked to write from now on, as its entries' types (a refused one too). */
function batches(ledger: Ledger): string[][] {
  const seen: string[][] = [];
  const appendMany = ledger.appendMany.bind(ledger);
  ledger.appendMany = (es, then) => {
    seen.push(es.map((e) => e.type));
    return appendMany(es, then);
  };
  return seen;
}

/**
 * The act with its record refused, then the same act again: refused whole and told so, the table
 * untouched; then taken, the step and its record in one batch, and the journal still folds.
 */
function refusedThenRetried(t: TestTable, act: () => BackendResult, step: () => number, action: string): void {
  refusingOnce(t.ledger, 'service.action');
  const seen = batches(t.ledger);
  const state = t.table.state;
  const [head, steps, acts] = [t.ledger.headOf().seq, step(), count(t.ledger, 'service.action')];
  const r = answer(act);
  assert.ok(r !== 'threw' && !r.ok, `the person is told it failed, not done: ${JSON.stringify(r)}`);
  assert.equal(r.notice?.key, 'serviceRefusal.actNotJournalled', 'said by key: the journal refused it, nothing was done');
  assert.equal(step(), steps, 'the step is not journalled');
  assert.equal(count(t.ledger, 'service.action'), acts, 'nor its record');
  assert.equal(t.ledger.headOf().seq, head, 'nothing at all journalled (no hold of the table for it)');
  assert.equal(t.table.state, state, 'the table state is the one before, unchanged');
  const again = answer(act);
  assert.ok(again !== 'threw' && again.ok, `the same request again is taken: ${JSON.stringify(again)}`);
  assert.equal(step(), steps + 1, 'the step journalled once');
  assert.equal(count(t.ledger, 'service.action'), acts + 1, 'its record once');
  const record = entries(t.ledger, head + 1).find((e) => e.type === 'service.action');
  assert.deepEqual([payload(record as JournalEntry).action, payload(record as JournalEntry).who], [action, BY[0]]);
  const taken = seen.filter((b) => b.includes('service.action'));
  assert.equal(taken.length, 2, 'asked twice, each time one batch with the record');
  for (const b of taken) assert.equal(b[0], 'table.input', `the record in the step's own batch: ${b.join(', ')}`);
  const problems = openTableGame(t.config, (game) => foldJournal(tableJournal(t.ledger), game, t.table.state.params).problems);
  assert.deepEqual(problems, [], 'the journal folds with the record inside the step’s transaction');
}

function part(t: TestTable) {
  return roundActions({ table: t.table, config: t.config });
}

const portugal = () => ({
  game: 'blackjack' as const,
  config: {
    profile: 'portugal-2001' as const,
    profileAuthorisation: 'TEST-IGJ',
    profileOptions: { jackpot: true, jackpotCards: 3 as const, jackpotProgram: EXAMPLE_JACKPOT_PROGRAM },
  },
});

describe('a table step in service mode and its service.action record: one transaction', () => {
  it('void round: neither written when the record is refused; the bet untouched; a retry voids once and returns the bet', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      baccaratDealing(t);
      const roundId = t.table.reads.view().roundId ?? '';
      refusedThenRetried(
        t,
        () => part(t).voidRound(roundId, 'test: a card hold', BY),
        () => count(t.ledger, 'round.void'),
        'void-round',
      );
      assert.equal(t.ledger.credit(1), 100_000, 'the bet returned once');
    } finally {
      t.close();
    }
  });

  it('dealing error reported: neither written; the round deals on; a retry holds the table for it', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const roundId = blackjackDealing(t);
      const holds = () => entries(t.ledger).filter((e) => e.type === 'misread' && payload(e).detail === 'dealing-error').length;
      refusedThenRetried(t, () => part(t).reportDealingError(roundId, BY[0]), holds, 'dealing-error');
      assert.equal(t.table.reads.view().hold, 'dealing-error');
    } finally {
      t.close();
    }
  });

  it('correction (exposed card, Macau 2009 Art. 5 n.1 1)): neither written; still on hold; a retry corrects once', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const roundId = blackjackDealing(t);
      assert.equal(part(t).reportDealingError(roundId, BY[0]).ok, true);
      const corrections = () => entries(t.ledger).filter((e) => e.type === 'table.input' && e.body.includes('"kind":"correct"')).length;
      refusedThenRetried(t, () => part(t).correct(roundId, 'exposed-card', BY), corrections, 'correct');
      assert.equal(t.table.reads.view().phase, 'dealing');
    } finally {
      t.close();
    }
  });

  it('card entered by hand: neither written; still on hold; a retry places the card once', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('9S'));
      t.table.shoe.onAnomaly('unreadable', null, 42);
      assert.equal(t.table.reads.view().phase, 'hold');
      const roundId = t.table.reads.view().roundId ?? '';
      const entered = () => entries(t.ledger).filter((e) => e.type === 'misread' && payload(e).resolution === 'card-entered').length;
      refusedThenRetried(t, () => part(t).enterCard(roundId, '2D', BY), entered, 'enter-card');
      assert.equal(t.ledger.credit(1), 60_000, 'settled once with the entered card');
    } finally {
      t.close();
    }
  });

  it('jackpot reset: neither written; the pool as it was; a retry resets once', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      const pool = () => page.page().pools?.find((p) => p.level === 'main')?.pool;
      const before = pool();
      refusedThenRetried(
        t,
        () => page.reset('main', 2_000_000, 'IGJ-2026-17', BY),
        () => count(t.ledger, 'jackpot.reset'),
        'jackpot-reset',
      );
      assert.notEqual(before, 2_000_000);
      assert.equal(pool(), 2_000_000);
    } finally {
      t.close();
    }
  });
});

describe('a jackpot reset asked again after it was done', () => {
  it('the same authorisation again is refused by key, naming the reset it authorised: one reset journalled', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      const done = page.reset('main', 2_000_000, 'IGJ-2026-17', BY);
      assert.equal(done.ok, true, JSON.stringify(done));
      const [resets, acts, head] = [count(t.ledger, 'jackpot.reset'), count(t.ledger, 'service.action'), t.ledger.headOf().seq];
      const reset = entries(t.ledger).find((e) => e.type === 'jackpot.reset');
      for (const [level, to] of [
        ['main', 2_000_000],
        ['main', 2_500_000],
        ['minor', 1_000_000],
      ] as const) {
        const again = page.reset(level, to, 'IGJ-2026-17', BY);
        assert.ok(!again.ok, `${level} → ${to} under a used authorisation: ${JSON.stringify(again)}`);
        assert.equal(again.notice?.key, 'serviceRefusal.jackpotAuthorisationUsed');
        assert.deepEqual(again.notice?.values, { authorisation: 'IGJ-2026-17', level: 'main', to: 2_000_000, currency: t.config.currency, seq: reset?.seq });
      }
      assert.equal(count(t.ledger, 'jackpot.reset'), resets, 'one reset for one authorisation');
      assert.equal(count(t.ledger, 'service.action'), acts);
      assert.equal(t.ledger.headOf().seq, head, 'nothing journalled for the refusals');
      assert.equal(page.reset('main', 2_000_000, 'IGJ-2026-18', BY).ok, true, 'a new authorisation resets again');
    } finally {
      t.close();
    }
  });
});

/** A bet at station 1 and the baccarat round dealing. */
function baccaratDealing(t: TestTable): void {
  credit(t.ledger, 1, 100_000);
  t.table.shoe.onNewShoe();
  for (let i = 0; i < 30 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  const placed = submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet: 'banker' }, amount: 10_000 }));
  assert.equal(placed.ok, true);
  t.clock.runOut(t.table.reads.view().endsAt);
  t.table.shoe.onCard(parseCard('9S'));
}

/** A bet at station 1 and the blackjack round dealing three cards in; its round id. */
function blackjackDealing(t: TestTable): string {
  credit(t.ledger, 1, 100_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  for (const c of ['5S', '6H', '6D']) t.table.shoe.onCard(parseCard(c));
  return t.table.reads.view().roundId ?? '';
}
