// A ticket this table issued itself is known to its journal: its amount, and whether it ended
// printed or voided (the credit given back to the station). An approval that contradicts the
// journal (a lying authority, or a register restored from an older copy, within the protocol) is
// not believed: a voided ticket's paper (a printer that lied, a person who settled it void) goes
// back `voided`, an approval for another amount than the table printed goes back `offline`; each
// approval is cancelled and nothing is credited. Before 7 December only a ticket this table had
// credited already was checked: the voided ticket was paid a second time, the other amount paid.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { ticketInTxId, ticketOutTxId } from '../../ledger/ticket-postings.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import type { RedeemRequest, TicketAuthority } from '../tickets/authority.js';
import { guardAuthority } from '../tickets/guard.js';
import { TicketIn } from './ticket-in.js';

const OWN = validationNumber(31, 7);

/** An authority that approves every ticket for `amount`, and records what it was told. */
function approving(amount: number): TicketAuthority & { words: string[] } {
  const words: string[] = [];
  const ok = async () => ({ ok: true }) as const;
  return {
    words,
    machineId: async () => ({ ok: true, machineId: 31 }),
    registerIssue: ok,
    registerPrinted: ok,
    registerVoid: ok,
    redeem: async (r: RedeemRequest) => {
      words.push('redeem');
      return { kind: 'approved', requestId: r.requestId, validation: r.validation, amount, currency: r.currency };
    },
    confirm: async () => (words.push('confirm'), { ok: true }),
    cancel: async () => (words.push('cancel'), { ok: true }),
  };
}

/** This table's journal: 40.00 credited at station 1 and cashed out to ticket OWN, ended `end`. */
function issuedHere(ledger: Ledger, config: TableConfig, end: 'printed' | 'void' | 'in-print'): void {
  ledger.append({ type: 'bill.credit', txId: 'bill-1', payload: { station: 1, device: 'ba-1', denomination: 4_000, currency: config.currency } });
  const terms = {
    validation: OWN,
    machineId: 31,
    sequence: 7,
    station: 1,
    amount: 4_000,
    currency: config.currency,
    issuedAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  };
  ledger.append({ type: 'ticket.issue', payload: terms, txId: ticketOutTxId(OWN, 'issue') });
  if (end === 'in-print') return;
  ledger.append(
    end === 'printed'
      ? { type: 'ticket.printed', payload: { validation: OWN, station: 1 }, txId: ticketOutTxId(OWN, 'end') }
      : { type: 'ticket.void', payload: { validation: OWN, station: 1, reason: 'settled by hand: not printed' }, txId: ticketOutTxId(OWN, 'end') },
  );
}

function rig(t: { after: (fn: () => void) => void }, end: 'printed' | 'void' | 'in-print', amount: number) {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 2) });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-own-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  t.after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  issuedHere(ledger, config, end);
  const authority = approving(amount);
  const tickets = new TicketIn({ config, ledger, log: silent, authority: guardAuthority(authority) });
  return { ledger, tickets, authority };
}

describe('an approval of a ticket this table issued, against its journal', () => {
  it('a ticket this table voided (its credit given back) is not paid again: returned voided, the approval cancelled', async (t) => {
    const { ledger, tickets, authority } = rig(t, 'void', 4_000);
    assert.equal(ledger.credit(1), 4_000, 'the void gave the credit back');
    const escrowed = { validationNumber: OWN, escrowId: '5d7f9b1c-3e5a-4c7e-9d1f-2a4c6e8a0b2d' };
    assert.equal(await tickets.escrow(2, escrowed), 'return');
    const last = tickets.lastAt(2);
    assert.equal(last?.state === 'returned' ? last.reason : null, 'voided');
    assert.equal(ledger.byTxId(ticketInTxId(escrowed.escrowId, 'approved')), undefined, 'its approval never journalled');
    assert.equal(ledger.credit(2), 0);
    assert.deepEqual(authority.words, ['redeem', 'cancel']);
  });

  it('an approval for another amount than this table printed is not believed: returned offline, cancelled', async (t) => {
    const { ledger, tickets, authority } = rig(t, 'printed', 400_000);
    const escrowed = { validationNumber: OWN, escrowId: '9a1c3e5f-7b2d-4e6f-8a0c-4b6d8f0a2c4e' };
    assert.equal(await tickets.escrow(2, escrowed), 'return');
    const last = tickets.lastAt(2);
    assert.equal(last?.state === 'returned' ? last.reason : null, 'offline');
    assert.equal(ledger.credit(2), 0);
    assert.deepEqual(authority.words, ['redeem', 'cancel']);
  });

  it('a ticket still in print here (its printer not yet heard) is not paid: returned unknown, as the register says of it, cancelled', async (t) => {
    // Paid now, its printer's "not printed" would then give the credit back to its station as well.
    const { ledger, tickets, authority } = rig(t, 'in-print', 4_000);
    const escrowed = { validationNumber: OWN, escrowId: '6e8a0c2e-4a6c-4e8a-8c0e-2a4c6e8a0c2e' };
    assert.equal(await tickets.escrow(2, escrowed), 'return');
    const last = tickets.lastAt(2);
    assert.equal(last?.state === 'returned' ? last.reason : null, 'unknown');
    assert.equal(ledger.credit(2), 0);
    assert.deepEqual(authority.words, ['redeem', 'cancel']);
  });

  it('its own printed ticket at the amount printed is paid as any other', async (t) => {
    const { tickets, authority } = rig(t, 'printed', 4_000);
    assert.equal(await tickets.escrow(2, { validationNumber: OWN, escrowId: '2b4d6f8a-0c1e-4a3c-9e5a-7c9e1a3c5e7a' }), 'stack');
    assert.deepEqual(authority.words, ['redeem']);
  });
});
