// The SAS meters a casino's system reads equal the station's ledger meters (docs/sas.md, "The
// meter map"): a real ledger journals notes, a round, a handpay of the credit meter, a door and a
// power-up; the machine side answers from it over a socat pty pair; the host simulator (its own
// codecs) reads 0x1C, 0x0F, 0x10, 0x1A and 0x2F, before and after another round.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSasLink, type SasLink } from '../../hardware/sas/link.js';
import { sasMetersOf } from '../../host/devices/sas-meters.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { MemoryGame } from './fixture.js';
import { SasHost } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as P from './host/polls.js';

const STATION = 1;
const ADDRESS = 7;

function journal(l: Ledger): void {
  l.append(billCredit(STATION, 50_000, 'note-1'));
  l.append(billCredit(STATION, 10_000, 'note-2'));
  l.append(billCredit(2, 50_000, 'note-3'));
  const { bets, settle } = settledRound('r1', [STATION, 2], 10_000); // station 1 wins 3:2, station 2 loses
  l.appendMany([...bets, settle]);
  l.append({ type: 'credit.cancel', txId: 'cash-out-1', payload: { station: STATION, amount: 20_000, reason: 'cash out by hand' } });
  l.append({ type: 'handpay.confirm', txId: 'paid-1', payload: { station: STATION, requestTxId: 'cash-out-1', amount: 20_000, attendant: 'att-1' } });
  l.append({ type: 'door.open', payload: { door: 'main', station: STATION } });
  l.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
}

const ledgerMeters = (l: Ledger) => ({
  station: l.meters(`station:${STATION}`),
  credit: l.stationCredits()[STATION] ?? 0,
  powerResets: l.meters('table').powerResets ?? 0,
});

describe('SAS meters from the ledger', () => {
  it('the map: coin in = wagered, coin out = won, games = rounds bet in, drop = notes in, cancelled credits = handpays', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    journal(l);
    assert.deepEqual(sasMetersOf(ledgerMeters(l), 1), {
      coinIn: 10_000,
      coinOut: 25_000, // the stake back and 15,000 of blackjack at 3:2
      jackpot: 0,
      handpaidCancelledCredits: 20_000,
      cancelledCredits: 20_000,
      gamesPlayed: 1,
      gamesWon: 1,
      gamesLost: 0,
      billsInCredits: 60_000,
      ticketInCredits: 0,
      ticketOutCredits: 0,
      drop: 60_000,
      aftInCents: 0, // no cashless transfer in this journal
      aftIn: 0,
      aftOutCents: 0,
      aftOut: 0,
      currentCredits: 60_000 - 10_000 + 25_000 - 20_000,
      slotDoorOpened: 1,
      powerResets: 1,
    });
    assert.equal(sasMetersOf(ledgerMeters(l), 100).coinIn, 100, 'an accounting denomination of 1.00 counts whole units');
  });

  it('the credit meter balances against the SAS meters when a round is voided: its stakes come back as coin out', () => {
    // A casino system reconciles a machine by its meters: credits = in (bills, tickets, AFT) +
    // coin out − coin in − out (tickets, AFT, cancelled credits). A void's refund was metered
    // `voidRefunds` alone, which is no SAS meter: the credit rose by the stakes with no meter
    // beside it, and coin in − coin out counted the voided stakes as the house's win.
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    l.append(billCredit(STATION, 50_000, 'note-1'));
    l.appendMany(settledRound('r1', [STATION], 4_000).bets);
    l.append({
      type: 'round.void',
      txId: 'r1:void',
      payload: {
        roundId: 'r1',
        tableId: 'T1',
        game: 'blackjack',
        profile: 'macau-2009',
        cards: [],
        decisions: [],
        reason: 'card anomaly',
        authorisedBy: ['sup-1', 'dealer-9'],
      },
    });
    const { bets, settle } = settledRound('r2', [STATION], 10_000); // a blackjack: 15,000 won at 3:2
    l.appendMany([...bets, settle]);
    const all = sasMetersOf(ledgerMeters(l), 1);
    // Every meter the balance reads must be there: one missing reads NaN and fails the balance.
    const m = (k: keyof typeof all): number => all[k] ?? Number.NaN;
    assert.equal(m('currentCredits'), 65_000);
    const balance =
      m('billsInCredits') +
      m('ticketInCredits') +
      m('aftInCents') +
      m('coinOut') -
      m('coinIn') -
      m('ticketOutCredits') -
      m('aftOutCents') -
      m('cancelledCredits');
    assert.equal(balance, m('currentCredits'), JSON.stringify(all));
    assert.equal(m('coinIn') - m('coinOut'), -15_000, "coin in − coin out is the house's result: the voided round none of it");
    assert.equal(m('gamesPlayed'), 1, 'the voided round is no game played');
  });

  describe('over a socat pty pair, read by the host simulator', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-ledger-'));
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    let link: SasLink;
    let host: SasHost;
    let close: () => Promise<void>;
    before(async () => {
      journal(l);
      const pair = await ptyPair(dir);
      const game = new MemoryGame();
      game.meters = () => sasMetersOf(ledgerMeters(l), 1);
      link = openSasLink(`serial:${pair.machine}`, { address: ADDRESS, game });
      const io = await openPtyHost(pair.host);
      host = new SasHost(io, ADDRESS);
      close = async () => {
        await link.close();
        await io.close();
        pair.socat.kill();
      };
    });
    after(async () => {
      await close?.();
      rmSync(dir, { recursive: true, force: true });
    });

    it('0x1C, 0x0F, 0x10, 0x1A and 0x2F equal the ledger, and follow it after another round', async () => {
      for (const round of ['before', 'after']) {
        const s = l.meters(`station:${STATION}`);
        const credit = l.stationCredits()[STATION] ?? 0;
        assert.deepEqual(
          await P.meters1C(host),
          {
            coinIn: s.creditsWagered,
            coinOut: s.creditsWon,
            drop: s.totalIn,
            jackpot: 0,
            gamesPlayed: s.gamesPlayed,
            gamesWon: s.gamesWon,
            slotDoorOpened: s.doorOpens,
            powerResets: l.meters('table').powerResets,
          },
          round,
        );
        assert.deepEqual(await P.meters0F(host), {
          cancelledCredits: s.cancelledCredits,
          coinIn: s.creditsWagered,
          coinOut: s.creditsWon,
          drop: s.totalIn,
          jackpot: 0,
          gamesPlayed: s.gamesPlayed,
        });
        assert.equal(await P.singleMeter(host, 0x10), s.cancelledCredits);
        assert.equal(await P.singleMeter(host, 0x1a), credit);
        const sel = await P.selected2F(host, [0x00, 0x01, 0x03, 0x05, 0x0b, 0x24]);
        assert.deepEqual(
          [...sel],
          [
            [0x00, s.creditsWagered],
            [0x01, s.creditsWon],
            [0x03, s.handpaidCancelledCredits],
            [0x05, s.gamesPlayed],
            [0x0b, s.totalBillsIn],
            [0x24, s.totalIn],
          ],
        );
        const { bets, settle } = settledRound(round === 'before' ? 'r2' : 'r3', [STATION], 5_000, 10);
        l.appendMany([...bets, settle]);
      }
      assert.equal(l.meters(`station:${STATION}`).gamesPlayed, 3, 'the loop journalled two more rounds');
    });
  });
});
