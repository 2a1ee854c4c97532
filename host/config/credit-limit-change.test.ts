// The station credit limit changed while the host runs (docs/service-mode.md, "What may change"):
// two people and the regulator's reference, journalled as `config.change` before the change is
// answered, in effect at once (it bears on credit in, never on a round in play) for everything that
// measures a station's room — the credit rule for notes, tickets in, SAS AFT (0x72 and 0x74's
// transfer limit) and credit moved in from another table — and again after a restart. Lowering it
// below what a station holds takes nothing back: only new credit in is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigChanges } from './config-changes.js';
import { AFT_STATUS, AFT_TYPE } from '../../hardware/sas/aft.js';
import { configChanges, entriesOfTypes } from '../../ledger/index.js';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { validationNumber } from '../../terms/validation-number.js';
import { StationAft } from '../devices/sas-aft.js';
import { tableCreditRule } from '../devices/credit-rule/table-credit-rule.js';
import { TicketIn } from '../devices/ticket-in.js';
import { aftRequest, fixedLocal } from '../testing/aft-request.js';
import { credit, silent, testTable, type TestTable } from '../testing/table-kit.js';
import type { TicketAuthority } from '../tickets/authority.js';
import type { Outbound } from '../transfers/effects.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import { TransferHost } from '../transfers/transfer-host.js';

const STATION = 1;
const by = { who: 'tech.a', witness: 'manager.b', authorisation: 'DICJ-2026-CL-1' };

/** Every reader of the room as the host wires it (table-runtime, sas-links, start/transfers): each over the running configuration. */
function readers(t: TestTable) {
  const config = t.config;
  const notes = tableCreditRule({ config, ledger: t.ledger, log: silent, fault: () => undefined });
  const asked: string[] = [];
  const authority: TicketAuthority = {
    machineId: async () => ({ ok: true, machineId: 1 }),
    registerIssue: async () => ({ ok: true }),
    registerPrinted: async () => ({ ok: true }),
    registerVoid: async () => ({ ok: true }),
    redeem: async (r) => (asked.push(r.validation), { kind: 'refused', requestId: r.requestId, reason: 'unknown' }),
    confirm: async () => ({ ok: true }),
    cancel: async () => ({ ok: true }),
  };
  const tickets = new TicketIn({ config, ledger: t.ledger, log: silent, authority });
  const aft = new StationAft({
    ledger: t.ledger,
    station: STATION,
    assetNumber: 77,
    limit: 9_999_999_999,
    creditLimit: () => config.creditLimit,
    refuseIn: () => null,
    refuseOut: () => null,
    local: fixedLocal(2026, 12, 2, 12),
  });
  const sent: Outbound[] = [];
  const HOME = TableId.parse('home');
  const HERE = TableId.parse('here');
  const moves = new TransferHost({
    self: HERE,
    currency: 'MOP',
    homes: { [STATION]: HOME },
    journal: new LedgerTransferJournal(t.ledger),
    send: (o) => sent.push(o),
    alarm: () => undefined,
    creditLimit: () => config.creditLimit,
  });
  let serial = 0;
  let escrow = 0;
  return {
    asked,
    /** The acceptor's credit claim for the note escrowed as `escrowId`. */
    stacked: (escrowId: string, amount: number) =>
      notes.credit({ station: STATION, device: `BA-${STATION}`, enabled: true }, { escrowId, amount, denomination: amount / 100, currency: 'MOP' }),
    note: (amount: number) =>
      notes.escrow(
        { station: STATION, device: `BA-${STATION}`, enabled: true },
        { escrowId: `E-${++escrow}`, amount, denomination: amount / 100, currency: 'MOP' },
      ),
    ticket: () => tickets.escrow(STATION, { escrowId: `req-${String(++escrow).padStart(6, '0')}`, validationNumber: validationNumber(31, escrow) }),
    aftIn: (cashable: number) => aft.transfer(aftRequest({ type: AFT_TYPE.toMachine, cashable, transactionId: `T-${++serial}`, assetNumber: 77 })).status,
    aftOut: (cashable: number) => aft.transfer(aftRequest({ type: AFT_TYPE.toHost, cashable, transactionId: `T-${++serial}`, assetNumber: 77 })).status,
    aftRoom: () => aft.status().transferLimit,
    moveIn: (amount: number) => {
      const transfer: Transfer = { id: { origin: HOME, serial: ++serial }, currency: 'MOP', station: STATION, from: HOME, to: HERE, amount };
      moves.receive(HOME, { kind: 'offer', transfer });
      const m = sent.at(-1)?.message;
      return m?.kind === 'refused' ? `refused ${m.reason}` : m?.kind;
    },
  };
}

describe('the credit limit changed at runtime', () => {
  it('a change in service mode holds at once for notes, tickets, AFT 0x72/0x74 and moves in; journalled before it is answered', (t) => {
    const table = testTable({ config: { creditLimit: 1_000_000 } });
    t.after(() => table.close());
    const r = readers(table);
    credit(table.ledger, STATION, 500_000);
    assert.equal(r.aftRoom(), 500_000);
    const journalled: number[] = [];
    const off = table.ledger.onAppended((es) => es.forEach((e) => e.type === 'config.change' && journalled.push(e.seq)));
    t.after(off);
    const answer = table.floor.configChanges.change('creditLimit', 600_000, by);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    assert.equal(answer.status, 'applied');
    assert.deepEqual(journalled, [answer.seq], 'the change is in the journal when it is answered');
    assert.deepEqual(
      configChanges(table.ledger).map((c) => [c.key, c.before, c.after]),
      [['creditLimit', 1_000_000, 600_000]],
    );
    assert.equal(table.config.creditLimit, 600_000);
    // Room 100,000 now: AFT's 0x74 says it, a 1,000.00 note and a 1,000.01 transfer fit it and no more.
    assert.equal(r.aftRoom(), 100_000);
    assert.equal(r.aftIn(100_001), AFT_STATUS.overLimit);
    assert.equal(r.moveIn(100_001), 'refused credit-limit');
    assert.equal(r.note(100_000), 'stack');
    // The note on its way fills the room: nothing else comes in.
    assert.equal(r.note(10_000), 'return');
    assert.equal(r.aftRoom(), 0);
    assert.equal(r.moveIn(1), 'refused credit-limit');
  });

  it('a change made while a round is in play is in effect at once, not queued to the round end', (t) => {
    const table = testTable({ config: { creditLimit: 1_000_000 } });
    t.after(() => table.close());
    const r = readers(table);
    credit(table.ledger, STATION, 500_000);
    // The same changes over the running configuration, with a round that never ends.
    const inPlay = new ConfigChanges({
      config: table.config,
      ledger: table.ledger,
      log: silent,
      bets: () => table.table.game.rules.bets,
      betweenRounds: () => false,
    });
    const answer = inPlay.change('creditLimit', 500_000, by);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    assert.equal(answer.status, 'applied');
    assert.deepEqual(inPlay.queued(), []);
    assert.equal(r.aftRoom(), 0);
    // A limit of the bets in the same round still waits for its end.
    assert.equal(inPlay.check('limits', table.config.limits).ok, true);
  });

  it('a ticket at a station the new limit leaves no room: returned, the authority never asked', async (t) => {
    const table = testTable({ config: { creditLimit: 1_000_000 } });
    t.after(() => table.close());
    const r = readers(table);
    credit(table.ledger, STATION, 500_000);
    assert.ok(table.floor.configChanges.change('creditLimit', 500_000, by).ok);
    assert.equal(await r.ticket(), 'return');
    assert.deepEqual(r.asked, []);
  });

  it('survives a restart: the journalled limit wins over the file', (t) => {
    const first = testTable({ config: { creditLimit: 1_000_000 } });
    t.after(() => first.close());
    assert.ok(first.floor.configChanges.change('creditLimit', 250_000, by).ok);
    first.stop();
    const again = testTable({ dir: first.dir, config: { creditLimit: 1_000_000 } });
    t.after(() => again.stop());
    assert.equal(again.config.creditLimit, 250_000);
    credit(again.ledger, STATION, 200_000);
    assert.equal(readers(again).aftRoom(), 50_000);
  });

  it('lowered below what a station holds: nothing already in is taken back, only new credit in is refused', (t) => {
    const table = testTable({ config: { creditLimit: 1_000_000 } });
    t.after(() => table.close());
    const r = readers(table);
    credit(table.ledger, STATION, 790_000);
    // A note already taken into escrow (told to stack) under the old limit.
    assert.equal(r.note(10_000), 'stack');
    const before = [...entriesOfTypes(table.ledger, ['bill.credit'])].length;
    const answer = table.floor.configChanges.change('creditLimit', 300_000, by);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    assert.equal(table.ledger.credit(STATION), 790_000, 'the credit stays what it was');
    assert.equal([...entriesOfTypes(table.ledger, ['bill.credit'])].length, before);
    // The note in the box is credited all the same: it was in before the limit came down.
    assert.equal(r.stacked('E-1', 10_000).ok, true);
    assert.equal(table.ledger.credit(STATION), 800_000);
    assert.equal(r.note(10_000), 'return');
    assert.equal(r.aftIn(1), AFT_STATUS.overLimit);
    assert.equal(r.moveIn(1), 'refused credit-limit');
    // Its credit may still leave by AFT, all of it.
    assert.equal(r.aftOut(800_000), AFT_STATUS.full);
    assert.equal(table.ledger.credit(STATION), 0);
  });

  for (const [what, value] of [
    ['negative', -1],
    ['zero (below any credit in)', 0],
    ['not whole', 100_000.5],
    ['above what SAS 0x1A can say', 100_000_000],
    ['absurd', Number.MAX_SAFE_INTEGER],
    ['a string', '500000'],
    ['null', null],
    ['an object', { limit: 1 }],
  ] as const) {
    it(`refused, nothing journalled: ${what}`, (t) => {
      const table = testTable({ config: { creditLimit: 1_000_000 } });
      t.after(() => table.close());
      const r = table.floor.configChanges.change('creditLimit', value, by);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && /creditLimit/.test(r.reason), !r.ok ? r.reason : '');
      // Refused for its value, in words a person reads, not because the setting cannot change.
      assert.ok(!r.ok && !/notChangeable/.test(r.say.key), !r.ok ? r.say.key : '');
      assert.deepEqual(configChanges(table.ledger), []);
      assert.equal(table.config.creditLimit, 1_000_000);
    });
  }

  it('one person alone, or no reference: refused as every other setting is', (t) => {
    const table = testTable({ config: { creditLimit: 1_000_000 } });
    t.after(() => table.close());
    assert.equal(table.floor.configChanges.change('creditLimit', 500_000, { ...by, witness: by.who }).ok, false);
    assert.equal(table.floor.configChanges.change('creditLimit', 500_000, { ...by, authorisation: ' ' }).ok, false);
    assert.deepEqual(configChanges(table.ledger), []);
  });
});
