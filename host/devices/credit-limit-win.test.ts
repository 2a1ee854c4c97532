// A win past the station credit limit is paid (docs/sas.md, "The station credit limit"): the limit
// holds credit put in, never what a round pays the player. After it, the station takes no note
// until its credit is back under the limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, silent, testTable } from '../testing/table-kit.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';

const LIMIT = 100_000;
const CONFIG = { profileOptions: { dealProcedure: 'macau-3', holeCard: 'peek' }, profileAuthorisation: 'DICJ-TEST-1', creditLimit: LIMIT };
const note = (escrowId: string) => ({ escrowId, amount: 1_000, denomination: 10, currency: 'MOP' });

describe('a win past the station credit limit', () => {
  it('is paid in full; then a note goes back until the credit is under the limit again', () => {
    const t = testTable({ game: 'blackjack', config: CONFIG });
    try {
      credit(t.ledger, 1, LIMIT);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      // Seat 1: 20 against a 6 (hole 9); it stands, the dealer draws a ten and busts.
      for (const c of 'TS 6H KD 9C'.split(' ')) t.table.shoe.onCard(parseCard(c));
      assert.deepEqual(t.table.commands.decide(1, 'stand'), { ok: true });
      t.table.shoe.onCard(parseCard('KC'));
      assert.equal(t.ledger.credit(1), LIMIT + 20_000, 'the stake back and the win, past the limit');
      const rule = tableCreditRule({ config: t.config, ledger: t.ledger, log: silent, fault: () => assert.fail('a note at the limit is no fault') });
      const at = { station: 1, device: 'ba-1', enabled: true };
      assert.equal(rule.escrow(at, note('n-1')), 'return');
      assert.equal(t.ledger.credit(1), LIMIT + 20_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
