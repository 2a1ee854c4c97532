// Portugal rule 49 (issue 51 item 6): «Quando um jogador tenha apostado no jackpot e tiver uma
// combinação ganhadora, as suas cartas permanecerão descobertas na mesa até que o respectivo
// pagamento seja efectuado, só depois sendo recolhidas.» A jackpot award paid by hand keeps its
// round on the table (its results, its cards, the dealer's cue) until the handpay is confirmed;
// an award credited at once is paid with the settlement and holds nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../engine/blackjack/jackpot/program.js';
import { isCardCode, parseCard } from '../../engine/cards/card.js';
import { entriesOfTypes, verifyLedger } from '../../ledger/index.js';
import { ViewState, type Spot } from '../../protocol/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

const PROGRAM = EXAMPLE_JACKPOT_PROGRAM;
const portugal = (handpayTwoPersonAbove: number, dir?: string) => ({
  game: 'blackjack' as const,
  ...(dir ? { dir } : {}),
  config: {
    profile: 'portugal-2001',
    profileAuthorisation: 'TEST-IGJ',
    profileOptions: { jackpot: true, jackpotCards: 3, jackpotProgram: PROGRAM },
    handpayTwoPersonAbove,
  },
});
const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
const decide = (t: TestTable, station: number, action: string) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action } as never));

/** Seat 1: main 10,000 and the jackpot chip; three sevens (an award of 20,000, rule 43) after a split of the first two. */
function threeSevens(t: TestTable): string {
  credit(t.ledger, 1, 1_000_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
  assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake).ok, true);
  t.clock.runOut(t.table.reads.view().endsAt);
  for (const x of '7S TD 7H 9C split 7D stand 5S stand'.split(' ')) {
    if (isCardCode(x)) t.table.shoe.onCard(parseCard(x));
    else assert.equal(decide(t, 1, x).ok, true, x);
  }
  assert.equal(t.table.reads.view().phase, 'results');
  return t.table.reads.view().roundId;
}

/** The round still on the table: its results, its cards, the dealer told to leave them, no countdown, no betting. */
function heldOnTable(t: TestTable, roundId: string): void {
  const v = t.table.reads.view();
  assert.equal(v.roundId, roundId);
  assert.equal(v.phase, 'results');
  assert.equal(v.endsAt, null, 'no countdown: the cards stay until paid');
  assert.deepEqual(v.cue, { kind: 'jackpot-unpaid', seat: 1 });
  assert.ok(
    v.hands.some((h) => h.cards.length > 0),
    'the cards are on the table display',
  );
  assert.ok(v.results?.some((l) => l.bet === 'jackpot' && l.net > 0));
  const table = t.hub.state('table');
  assert.equal(table.kind === 'table' && table.round?.cue?.kind, 'jackpot-unpaid', 'the table display is told');
  // What the screens are sent passes the protocol's schema: a settled line's handpay part was
  // refused (`Unrecognized key: "handpay"`), so every screen froze on the round's last card.
  const decoded = ViewState.safeParse(table);
  assert.equal(decoded.success, true, decoded.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const station = ViewState.safeParse(t.hub.state('station/1'));
  assert.equal(station.success, true, station.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, false, 'no new betting');
}

describe('Portugal rule 49: the cards stay on the table until the jackpot is paid', () => {
  it('an award paid by hand keeps its round on the table display until the handpay is confirmed, then the next round opens', () => {
    const t = testTable(portugal(10_000));
    try {
      const roundId = threeSevens(t);
      // The results' time passes, and again: the round stays.
      t.clock.runOut(t.table.reads.view().endsAt);
      heldOnTable(t, roundId);
      t.clock.advance(600_000);
      heldOnTable(t, roundId);

      const [owed] = t.floor.handpays.pending();
      assert.equal(owed?.amount, 20_000);
      assert.equal(t.floor.handpays.confirm(owed?.requestTxId ?? '', 'att-1', 'sup-1').ok, true);
      const paid = [...entriesOfTypes(t.ledger, ['table.input'])].at(-1);
      assert.match(paid?.body ?? '', /"kind":"jackpot-paid"/, 'journalled as the table input');
      const v = t.table.reads.view();
      assert.equal(v.roundId, roundId, 'paid: the results show for their time, then the cards are collected');
      assert.notEqual(v.endsAt, null);
      assert.equal(v.cue?.kind === 'jackpot-unpaid', false);
      t.clock.runOut(v.endsAt);
      assert.equal(t.table.reads.view().phase, 'betting');
      assert.notEqual(t.table.reads.view().roundId, roundId);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('held across a restart: the journal folds back to the round on the table, and the confirmation releases it', () => {
    const first = testTable(portugal(10_000));
    const dir = first.dir;
    let t: TestTable | null = null;
    try {
      const roundId = threeSevens(first);
      first.clock.runOut(first.table.reads.view().endsAt);
      first.stop();
      t = testTable(portugal(10_000, dir));
      t.clock.runOut(t.table.reads.view().endsAt ?? 0);
      heldOnTable(t, roundId);
      const [owed] = t.floor.handpays.pending();
      assert.equal(t.floor.handpays.confirm(owed?.requestTxId ?? '', 'att-1', 'sup-1').ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'betting');
    } finally {
      if (t) t.close();
      else first.close();
    }
  });

  it('an award credited at once holds nothing: it is paid with the settlement', () => {
    const t = testTable(portugal(5_000_000));
    try {
      const roundId = threeSevens(t);
      assert.deepEqual(t.floor.handpays.pending(), []);
      assert.equal(t.table.reads.view().cue?.kind === 'jackpot-unpaid', false);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'betting');
      assert.notEqual(t.table.reads.view().roundId, roundId);
    } finally {
      t.close();
    }
  });

  it('refuses a payment the table does not owe (a cash-out handpay is none of its rounds)', () => {
    const t = testTable(portugal(10_000));
    try {
      threeSevens(t);
      const r = t.table.input({ kind: 'jackpot-paid', at: Date.now(), handpay: 'someone-else:handpay' });
      assert.equal(r.ok, false);
      assert.equal(t.table.reads.view().cue?.kind, 'jackpot-unpaid');
    } finally {
      t.close();
    }
  });
});
