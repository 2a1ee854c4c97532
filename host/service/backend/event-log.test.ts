// The event log of service mode shows each entry's payload: a ticket's validation number is a
// bearer's (whoever types it into a barcode is paid), so the log shows its last four digits only,
// as the Tickets page does (issue 47 item 5, docs/tito.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/ledger.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked, ticketIssue, ticketPrinted } from '../../../ledger/ticket-fixtures.js';
import type { NewEntry } from '../../../ledger/index.js';
import { validationNumber } from '../../../terms/validation-number.js';
import { ticketOutTxId } from '../../../ledger/ticket-postings.js';
import { billCredit, settledRound } from '../../../ledger/fixtures.js';
import { eventLogReader } from './event-log.js';

describe('the event log of service mode', () => {
  it("shows a ticket's entries with its number's last four digits only", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const v = validationNumber(7, 1);
    const rid = '00000000-0000-4000-8000-000000000001';
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append(ticketIssue(v, 1, 30_000, 1));
    ledger.append(ticketPrinted(v, 1));
    ledger.append(redeemRequest(rid, v, 2));
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const tickets = rows.filter((r) => r.type.startsWith('ticket.'));
    assert.equal(tickets.length, 3);
    for (const r of tickets) {
      assert.equal(r.summary.includes(v), false, `${r.type}: ${r.summary}`);
      assert.ok(r.summary.includes(`…${v.slice(-4)}`), `${r.type}: ${r.summary}`);
    }
    assert.ok(
      tickets.some((r) => r.summary.includes('30000')),
      'the rest of the payload stays',
    );
    ledger.close();
  });

  // The log showed every entry but a fault and a meter clear as its payload's JSON
  // ({"currency":"HKD","denomination":100000,...}) in every language.
  // The cancel and the handpays name no currency (their older shape): said in the one their run's notes name.
  it('says a note, a credit cancelled and a handpay by key with their fields; an entry of another kind keeps its payload only', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append({ type: 'bill.escrow', txId: 'e1', payload: { station: 2, device: 'ba-2', denomination: 50_000, currency: 'MOP' } });
    ledger.append(billCredit(3, 20_000, 'b3'));
    ledger.append({ type: 'credit.cancel', txId: 'c1', payload: { station: 3, amount: 12_345, reason: 'player left' } });
    ledger.append({ type: 'handpay.request', txId: 'h1', payload: { station: 4, amount: 900_000, reason: 'win-limit' } });
    ledger.append({ type: 'handpay.confirm', txId: 'h2', payload: { station: 4, requestTxId: 'h1', amount: 900_000, attendant: 'Ana', witness: 'Bo' } });
    ledger.append({ type: 'service.test', payload: { who: 'Ana', device: 'BA-1', test: 'note', result: 'ok' } });
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = Object.fromEntries(rows.filter((r) => r.seq !== 3).map((r) => [r.type, r.said ?? null]));
    assert.deepEqual(said['bill.credit'], { key: 'journalSaid.note', values: { station: 1, amount: 100_000, currency: 'HKD' } });
    assert.deepEqual(said['bill.escrow'], { key: 'journalSaid.note', values: { station: 2, amount: 50_000, currency: 'MOP' } });
    assert.deepEqual(said['credit.cancel'], {
      key: 'journalSaid.creditCancel',
      values: { station: 3, amount: 12_345, reason: 'player left', currency: 'HKD' },
    });
    assert.deepEqual(said['handpay.request'], { key: 'journalSaid.handpayWinLimit', values: { station: 4, amount: 900_000, currency: 'HKD' } });
    assert.deepEqual(said['handpay.confirm'], {
      key: 'journalSaid.handpayConfirm',
      values: { station: 4, amount: 900_000, attendant: 'Ana', witness: 'Bo', currency: 'HKD' },
    });
    assert.equal(said['service.test'], null);
    // The payload stays beside the words (the export and a reader of an older screen have it).
    assert.ok(rows.some((r) => r.type === 'bill.credit' && r.summary.includes('100000')));
    ledger.close();
  });

  // Only five kinds were said in words (fb96a540); a door, a start, a ticket, a casino system's
  // transfer, stakes, a sign-in and a shoe were shown as their payload's JSON in every language.
  it('says the entries a technician or inspector meets most by key with their fields', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const v = validationNumber(7, 1);
    const w = validationNumber(7, 2);
    const [r1, r2] = ['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
    ledger.append(billCredit(1, 100_000, 'b1', 'MOP'));
    const entries: NewEntry[] = [
      { type: 'door.open', payload: { door: 'cashbox', station: 2 } },
      { type: 'door.close', payload: { door: 'main' } },
      { type: 'power.reset', payload: { clean: true, softwareVersion: '3.1.0' } },
      { type: 'power.reset', payload: { clean: false, softwareVersion: '3.1.0' } },
      ticketIssue(v, 1, 30_000, 1),
      ticketPrinted(v, 1),
      redeemRequest(r1, v, 2),
      redeemApproved(r1, v, 2, 30_000),
      redeemStacked(r1, v, 2, 30_000),
      ticketIssue(w, 2, 20_000, 1),
      { type: 'ticket.void', payload: { validation: w, station: 1, reason: 'not printed: not-ready' }, txId: ticketOutTxId(w, 'end') },
      redeemRequest(r2, w, 3),
      redeemReturned(r2, w, 3, 'voided'),
      { type: 'aft.in', txId: 'a1', payload: { station: 3, transactionId: 'X1', amount: 5_000, requested: 5_000, assetNumber: 7, flags: 0 } },
      { type: 'service.enter', payload: { who: 'Ana Lei', staff: '1001', role: 'supervisor' } },
      { type: 'service.exit', payload: { who: 'Ana Lei', staff: '1001', reason: 'idle' } },
      { type: 'shoe.change', payload: { tableId: 'T-7', event: 'cut-card' } },
      {
        type: 'bet.place',
        txId: 'bp1',
        payload: {
          station: 1,
          roundId: 'R-9',
          tableId: 'T-7',
          bets: [
            { seat: 1, bet: 'main', amount: 2_000 },
            { seat: 1, bet: 'pair', amount: 500 },
          ],
        },
      },
      { type: 'aft.out', txId: 'a2', payload: { station: 3, transactionId: 'X2', amount: 1_500, requested: 1_500, assetNumber: 7, flags: 0 } },
    ];
    const seqs = entries.map((e) => ledger.append(e).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said ?? null);
    const [tv, tw] = [`…${v.slice(-4)}`, `…${w.slice(-4)}`];
    const j = (name: string, values: Record<string, string | number>) => ({ key: `journalSaid.${name}`, values });
    assert.deepEqual(said, [
      j('doorAtStation', { station: 2, door: 'cashbox' }),
      j('doorAtTable', { door: 'main' }),
      j('startedClean', { version: '3.1.0' }),
      j('startedUnclean', { version: '3.1.0' }),
      j('ticketAmount', { station: 1, ticket: tv, amount: 30_000, currency: 'MOP' }),
      j('ticket', { station: 1, ticket: tv }),
      j('ticket', { station: 2, ticket: tv }),
      j('ticketAmount', { station: 2, ticket: tv, amount: 30_000, currency: 'MOP' }),
      j('ticketAmount', { station: 2, ticket: tv, amount: 30_000, currency: 'MOP' }),
      j('ticketAmount', { station: 1, ticket: tw, amount: 20_000, currency: 'MOP' }),
      j('ticketVoid', { station: 1, ticket: tw, ticketVoid: 'not-ready' }),
      j('ticket', { station: 3, ticket: tw }),
      j('ticketReturned', { station: 3, ticket: tw, ticketReturn: 'voided' }),
      j('stationAmount', { station: 3, amount: 5_000, currency: 'MOP' }),
      j('serviceEnter', { who: 'Ana Lei', role: 'supervisor' }),
      j('serviceExit', { who: 'Ana Lei', exitReason: 'idle' }),
      j('shoeCutCard', {}),
      j('stakes', { station: 1, round: 'R-9', amount: 2_500, currency: 'MOP' }),
      j('stationAmount', { station: 3, amount: 1_500, currency: 'MOP' }),
    ]);
    ledger.close();
  });

  it('keeps as recorded a note of a currency the screens have no words for (its minor units said bare would read as a sum)', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append({ type: 'bill.return', payload: { station: 1, device: 'ba-1', denomination: 10_000, currency: 'CNY', reason: 'rejected' } });
    const [row] = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    assert.equal(row?.type, 'bill.return');
    assert.equal(row?.said, undefined);
    ledger.close();
  });

  // A service act's record (service.action) was shown as its JSON, its action by its code
  // ('void-round') and the English its code built ('round R-1: card unidentified'), unlabelled.
  it("says a service act by key: who, the second person, the act by its code's words, the journal's detail as recorded", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const entries: NewEntry[] = [
      { type: 'service.action', payload: { who: 'Ana Lei', action: 'sync-retry', detail: '' } },
      { type: 'service.action', payload: { who: 'Ana Lei', action: 'void-round', confirmedBy: 'Bo Chan', detail: 'round R-1: card unidentified' } },
      { type: 'service.action', payload: { who: 'Ana Lei', action: 'new-shoe', detail: 'declared' } },
      { type: 'service.action', payload: { who: 'Ana Lei', action: 'jackpot-reset', confirmedBy: 'Bo Chan', detail: '' } },
    ];
    const seqs = entries.map((e) => ledger.append(e).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said ?? null);
    const j = (name: string, values: Record<string, string | number>) => ({ key: `journalSaid.${name}`, values });
    assert.deepEqual(said, [
      j('serviceAct', { who: 'Ana Lei', serviceAct: 'sync-retry' }),
      j('serviceActTwoDetail', { who: 'Ana Lei', second: 'Bo Chan', serviceAct: 'void-round', detail: 'round R-1: card unidentified' }),
      j('serviceActDetail', { who: 'Ana Lei', serviceAct: 'new-shoe', detail: 'declared' }),
      j('serviceActTwo', { who: 'Ana Lei', second: 'Bo Chan', serviceAct: 'jackpot-reset' }),
    ]);
    ledger.close();
  });

  // The journal's most frequent entries, a card read, and a round settled or voided, were shown as
  // their payload's JSON (a settlement's runs past the row: its round id was all one saw).
  it('says a card read, a round settled and a round voided by key: the card and where it went, the round, the game, why it was voided', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append(billCredit(2, 100_000, 'b2'));
    const one = settledRound('R-1', [1], 1_000);
    const two = settledRound('R-2', [2], 1_000, 1);
    for (const b of [...one.bets, ...two.bets]) ledger.append(b);
    const core = two.settle.type === 'round.settle' ? two.settle.payload : null;
    assert.ok(core);
    const { lines: _lines, ...voided } = core;
    void _lines;
    const entries: NewEntry[] = [
      { type: 'card.read', payload: { tableId: 'T1', card: '7H', to: 'burn' } },
      { type: 'card.read', payload: { tableId: 'T1', roundId: 'R-1', card: 'AS', to: 'seat:1:hand:0' } },
      one.settle,
      {
        type: 'round.void',
        txId: 'R-2:void',
        payload: { ...voided, reason: 'card unidentified', authorisedBy: ['Ana', 'Bo'], uncorrectable: 'card-unidentified' },
      },
    ];
    const seqs = entries.map((e) => ledger.append(e).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said ?? null);
    const j = (name: string, values: Record<string, string | number>) => ({ key: `journalSaid.${name}`, values });
    assert.deepEqual(said, [
      j('cardReadOutside', { card: '7H', cardPlace: 'burn' }),
      j('cardRead', { card: 'AS', cardPlace: 'seat:1:hand:0', round: 'R-1' }),
      j('roundSettled', { round: 'R-1', game: 'blackjack', profile: 'macau-2009' }),
      j('roundVoidWhy', { round: 'R-2', uncorrectable: 'card-unidentified', reason: 'card unidentified' }),
    ]);
    ledger.close();
  });

  // A decision and a configuration change (an inspector's first reading) were their payload's JSON.
  it('says a decision and a configuration change by key: the seat and the decision, the setting, who, the second person and the reference', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const entries: NewEntry[] = [
      { type: 'round.decision', payload: { tableId: 'T1', roundId: 'R-1', seat: 2, action: 'hit' } },
      { type: 'round.decision', payload: { tableId: 'T1', roundId: 'R-1', seat: 3, action: 'stand', auto: true } },
      { type: 'config.change', payload: { who: 'Ana', witness: 'Bo', authorisation: 'DICJ-2026/9', key: 'creditLimit', before: 100, after: 200 } },
      { type: 'config.change', payload: { who: 'Ana', authorisation: 'DICJ-2026/10', key: 'rules.surrender', before: 'none', after: 'not-vs-ace' } },
    ];
    const seqs = entries.map((e) => ledger.append(e).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said ?? null);
    const j = (name: string, values: Record<string, string | number>) => ({ key: `journalSaid.${name}`, values });
    assert.deepEqual(said, [
      j('decision', { seat: 2, decision: 'hit', round: 'R-1' }),
      j('decisionAuto', { seat: 3, decision: 'stand', round: 'R-1' }),
      j('configChangeTwo', { configKey: 'creditLimit', who: 'Ana', second: 'Bo', authorisation: 'DICJ-2026/9' }),
      j('configChange', { configKey: 'rules.surrender', who: 'Ana', authorisation: 'DICJ-2026/10' }),
    ]);
    ledger.close();
  });

  // A drop count's reconciliation (what the cashbox held against what its acceptor credited) was its JSON.
  it("says a cashbox's drop count by key: the station, counted, credited and the difference in the count's currency", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const { entry } = ledger.append({
      type: 'cashbox.drop',
      payload: {
        station: 2,
        currency: 'HKD',
        notes: [{ denomination: 10_000, counted: 2, credited: 3 }],
        counted: 20_000,
        credited: 30_000,
        difference: -10_000,
        authorisedBy: ['Ana', 'Bo'],
      },
    });
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    assert.deepEqual(rows.find((r) => r.seq === entry.seq)?.said, {
      key: 'journalSaid.cashboxDrop',
      values: { station: 2, counted: 20_000, credited: 30_000, difference: -10_000, currency: 'HKD' },
    });
    ledger.close();
  });

  it('says a validation id given to the table by key: the id, and who gave it (the upstream, the casino system)', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const up = ledger.append({ type: 'ticket.machine-id', payload: { machineId: 8_388_609, authority: 'upstream' } }).entry.seq;
    const sas = ledger.append({ type: 'ticket.machine-id', payload: { machineId: 0x0b_ee_f0, authority: 'sas' } }).entry.seq;
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    assert.deepEqual(rows.find((r) => r.seq === up)?.said, { key: 'journalSaid.validationIdUpstream', values: { machineId: 8_388_609 } });
    assert.deepEqual(rows.find((r) => r.seq === sas)?.said, { key: 'journalSaid.validationIdSas', values: { machineId: 0x0b_ee_f0 } });
    ledger.close();
  });
});
