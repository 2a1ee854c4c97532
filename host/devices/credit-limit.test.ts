// A station's credit limit (docs/sas.md, "The station credit limit"): credit in that would take a
// station past the table's `creditLimit` is refused before any money is taken. A note in escrow
// goes back (ID-003 RETURN through the real driver and its simulator), a ticket goes back with
// its redemption cancelled (it stays valid on the floor), and nothing is journalled as moved.
// The authority here is a hostile peer as far as its protocol allows: it names any amount.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { entriesOfTypes, openLedger, type Ledger } from '../../ledger/index.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import type { RedeemAnswer, RedeemRequest, TicketAuthority } from '../tickets/authority.js';
import { BillAcceptors } from './bill-acceptors.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';
import { TicketIn } from './ticket-in.js';

/** MOP 1,010.00: a 1,000 note and a 10 note fill it exactly. */
const LIMIT = 101_000;

/** An authority that approves every ticket for whatever amount `amount` says, and records what it was told. */
function lyingAuthority(amount: (r: RedeemRequest) => number): TicketAuthority & { words: string[] } {
  const words: string[] = [];
  const ok = async () => ({ ok: true }) as const;
  return {
    words,
    machineId: async () => ({ ok: true, machineId: 1 }),
    registerIssue: ok,
    registerPrinted: ok,
    registerVoid: ok,
    redeem: async (r): Promise<RedeemAnswer> => {
      words.push(`redeem ${r.validation}`);
      return { kind: 'approved', requestId: r.requestId, validation: r.validation, amount: amount(r), currency: r.currency };
    },
    confirm: async (id) => (words.push(`confirm ${id.slice(0, 4)}`), { ok: true }),
    cancel: async (id) => (words.push(`cancel ${id.slice(0, 4)}`), { ok: true }),
  };
}

function rig(t: { after: (fn: () => void | Promise<void>) => void }, authority: TicketAuthority | null, limit = LIMIT) {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1), creditLimit: limit });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-limit-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  const tickets = new TicketIn({ config, ledger, log: silent, authority });
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
    tickets,
  });
  acceptors.start();
  t.after(async () => {
    await acceptors.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sim = acceptors.simulator(1);
  assert.ok(sim?.insertTicket);
  return { ledger, acceptors, tickets, sim, insertTicket: sim.insertTicket.bind(sim) };
}

async function until(ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const moved = (ledger: Ledger) => [...entriesOfTypes(ledger, ['bill.escrow', 'bill.credit', 'ticket.redeem.approved', 'ticket.redeem.stacked'])].length;

describe('the station credit limit', () => {
  it('the limit is a house choice in minor units: a positive integer, at most 99,999,999 (SAS 0x1A’s 8 digits), 99,999,999 by default', () => {
    const base = simulatedTableConfig('war');
    assert.equal(TableConfig.parse(base).creditLimit, 99_999_999);
    assert.equal(TableConfig.parse({ ...base, creditLimit: 5_000_000 }).creditLimit, 5_000_000);
    for (const bad of [0, -1, 1.5, 100_000_000, Number.MAX_SAFE_INTEGER, '5000'])
      assert.equal(TableConfig.safeParse({ ...base, creditLimit: bad }).success, false, `creditLimit ${String(bad)} refused`);
  });

  it('a note that would pass the limit is returned from escrow, nothing journalled; one that reaches it exactly is taken', async (t) => {
    const { ledger, acceptors, sim } = rig(t, null);
    await until(() => acceptors.statuses().some((s) => s.state === 'ready'));
    sim.insertNote(1000);
    await until(() => ledger.credit(1) === 100_000);
    const before = moved(ledger);
    // 1,000.00 + 20.00 = 1,020.00 > 1,010.00 (limit + 1,000 units): back to the player.
    sim.insertNote(20);
    await until(() => sim.returned.length === 1);
    assert.equal(ledger.credit(1), 100_000);
    assert.equal(moved(ledger), before, 'no escrow, no credit journalled for the note returned');
    // 1,000.00 + 10.00 = the limit exactly: taken.
    sim.insertNote(10);
    await until(() => ledger.credit(1) === LIMIT);
    // At the limit, the smallest note goes back.
    sim.insertNote(10);
    await until(() => sim.returned.length === 2);
    assert.equal(ledger.credit(1), LIMIT);
    assert.deepEqual(sim.cashbox.length, 2);
  });

  for (const [name, over, credited] of [
    ['one unit under the room: credited', -1, true],
    ['the room exactly: credited', 0, true],
    ['one unit over the room: returned, its redemption cancelled (it stays valid on the floor)', 1, false],
  ] as const) {
    it(`a ticket for ${name}`, async (t) => {
      const room = LIMIT - 100_000;
      const authority = lyingAuthority(() => room + over);
      const { ledger, acceptors, tickets, sim, insertTicket } = rig(t, authority);
      await until(() => acceptors.statuses().some((s) => s.state === 'ready'));
      sim.insertNote(1000);
      await until(() => ledger.credit(1) === 100_000);
      insertTicket(validationNumber(31, 5));
      await until(() => ['credited', 'returned'].includes(tickets.lastAt(1)?.state ?? ''));
      const last = tickets.lastAt(1);
      if (credited) {
        assert.equal(last?.state, 'credited');
        assert.equal(ledger.credit(1), 100_000 + room + over);
        return;
      }
      assert.equal(last?.state === 'returned' ? last.reason : last?.state, 'credit-limit');
      assert.equal(ledger.credit(1), 100_000);
      assert.equal([...entriesOfTypes(ledger, ['ticket.redeem.approved', 'ticket.redeem.stacked'])].length, 0, 'nothing journalled as moved');
      await until(() => authority.words.some((w) => w.startsWith('cancel')));
      assert.deepEqual(
        authority.words.map((w) => w.split(' ')[0]),
        ['redeem', 'cancel'],
      );
    });
  }

  it('a station at its limit returns a ticket without asking the authority; an amount past any safe integer is returned too', async (t) => {
    const authority = lyingAuthority(() => Number.MAX_SAFE_INTEGER);
    const { ledger, acceptors, tickets, sim, insertTicket } = rig(t, authority, 100_000);
    await until(() => acceptors.statuses().some((s) => s.state === 'ready'));
    insertTicket(validationNumber(31, 6));
    await until(() => tickets.lastAt(1)?.state === 'returned');
    assert.equal(ledger.credit(1), 0);
    sim.insertNote(1000);
    await until(() => ledger.credit(1) === 100_000);
    const asked = authority.words.length;
    insertTicket(validationNumber(31, 7));
    await until(() => tickets.lastAt(1)?.state === 'returned' && tickets.lastAt(1)?.validation === validationNumber(31, 7));
    const last = tickets.lastAt(1);
    assert.equal(last?.state === 'returned' ? last.reason : null, 'credit-limit');
    assert.equal(authority.words.length, asked, 'the authority was not asked: the ticket was never held pending');
    assert.equal(ledger.credit(1), 100_000);
  });
});
