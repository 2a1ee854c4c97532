import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseCard } from '../../engine/cards/card.js';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { WarGame } from '../games/war.js';
import { RoundController } from './round-controller.js';
import { manualTimers } from '../testing/manual-timers.js';


describe('round controller', () => {
  let dir: string;
  let ledger: Ledger;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rounds-'));
    ledger = openLedger(dir, 'T-1');
    ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 100_000, currency: 'MOP' }, txId: 'n1' });
  });
  after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const make = () => {
    const t = manualTimers();
    const config = simulatedTableConfig('war');
    const c = new RoundController({ config, game: new WarGame('macau'), ledger, log: pino({ level: 'silent' }), timers: t.timers, timings: config.timings });
    c.start();
    return { c, ...t };
  };

  it('refuses new bets while the ledger is offline beyond its limit, and takes them again after', () => {
    const { c } = make();
    c.setNewBets(false, 'unsynced ledger entries beyond the offline limit');
    const r = c.placeBet(1, 'main', 10_000);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /new bets are stopped/);
    assert.equal(c.betting(1).open, false);
    c.setNewBets(true, '');
    assert.deepEqual(c.placeBet(1, 'main', 10_000), { ok: true });
    c.stop();
  });

  it('refuses a bet over the credit or over the maximum, never trimming it', () => {
    const { c } = make();
    assert.match(JSON.stringify(c.placeBet(1, 'main', 100_001)), /not enough credit/);
    assert.match(JSON.stringify(c.placeBet(1, 'main', 2_000_000)), /over the maximum/);
    assert.deepEqual(c.betting(1).bets, {});
    c.stop();
  });

  it('settles a war coup through the ledger, with the rule of each line', () => {
    const { c, advance } = make();
    const before = ledger.credit(1);
    assert.deepEqual(c.placeBet(1, 'main', 10_000), { ok: true });
    advance(c.view().endsAt! - 1_000_000);
    assert.equal(c.view().phase, 'dealing');
    assert.equal(ledger.credit(1), before - 10_000, 'the bet left the credit when betting closed');
    c.onCard(parseCard('7S')); // seat 1
    c.onCard(parseCard('9D')); // croupier: seat loses
    assert.equal(c.view().phase, 'results');
    assert.deepEqual(c.view().results, [{ seat: 1, bet: 'main', stake: 10_000, net: -10_000, rule: 'macau-war art.7 n.2', owner: 'seat' }]);
    assert.equal(ledger.credit(1), before - 10_000);
    c.stop();
  });

  it('puts the table on hold for a card out of turn; a void returns every bet and lifts it', () => {
    const { c, advance } = make();
    const before = ledger.credit(1);
    assert.deepEqual(c.placeBet(1, 'main', 10_000), { ok: true });
    advance(c.view().endsAt! - 1_000_000);
    c.onCard(parseCard('7S'));
    c.onCard(parseCard('7D')); // a tie: seat 1 must decide before any card
    assert.equal(c.decisionFor(1)?.default, 'war');
    c.onCard(parseCard('5C'));
    assert.equal(c.view().phase, 'hold');
    assert.equal(c.view().hold, 'out-of-turn');
    assert.equal(c.decisionFor(1), null, 'nothing is decided on hold');
    assert.match(JSON.stringify(c.decide(1, 'war')), /no decision is due/);
    assert.deepEqual(c.voidRound('card out of turn', ['supervisor-1', 'witness-2']), { ok: true });
    assert.equal(ledger.credit(1), before, 'every bet returned');
    assert.equal(c.view().phase, 'results');
    assert.equal(c.view().hold, null);
    c.stop();
  });

  it('takes the stated default when a decision times out, and journals it as automatic', () => {
    const { c, advance } = make();
    const before = ledger.credit(1);
    assert.deepEqual(c.placeBet(1, 'main', 10_000), { ok: true });
    advance(c.view().endsAt! - 1_000_000);
    c.onCard(parseCard('8S'));
    c.onCard(parseCard('8D'));
    advance(c.decisionFor(1)!.endsAt - 1_000_000 + 1);
    assert.equal(ledger.credit(1), before - 20_000, 'war by default: the raise is in play');
    c.stop();
  });
});
