// The casino system's validation id (long poll 0x4C) at a table switched from the upstream to SAS
// (docs/sas.md, "Why one system per table"): an id the table's older tickets were numbered under
// (the upstream's), one the upstream gave it (journalled) or its configuration's is not taken — taken, the upstream would register the
// table's new tickets as its own and one number could be paid through each authority. The real
// wiring (sasTicketAuthority) over a real ledger. And 0x71 FF after exception 0x68 (§15.12):
// the end 0x68 reports, read from the journal as the host raises it, and the station's last end
// at a start, so a restart loses neither.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { redeemApproved, redeemed, redeemRequest, redeemReturned, ticketIssue, ticketPrinted } from '../../ledger/ticket-fixtures.js';
import type { NewEntry } from '../../ledger/entries.js';
import { TRANSFER } from '../../hardware/sas/redemption.js';
import { validationNumber } from '../../terms/validation-number.js';
import { RequestId } from '../../terms/ticket-terms.js';
import { entriesOfTypes } from '../../ledger/index.js';
import { sasTicketAuthority } from './wiring.js';

const UPSTREAM_ID = 3;
const UPSTREAM_UNUSED_ID = 5;
const CONFIGURED_ID = 4801;

describe('0x4C at a table switched to SAS: the upstream’s id and the configuration’s are not the system’s to take', () => {
  it('refuses them (answering 0, none set), takes another, and then keeps it', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      const older = validationNumber(UPSTREAM_ID, 1);
      ledger.append(billCredit(1, 5_000, 'b1'));
      ledger.append(ticketIssue(older, 1, 5_000, 1, UPSTREAM_ID));
      ledger.append(ticketPrinted(older));
      // An id the upstream gave later, that no ticket used: journalled, so known to be the upstream's.
      ledger.append({ type: 'ticket.machine-id', payload: { machineId: UPSTREAM_UNUSED_ID, authority: 'upstream' } });
      const { sas } = sasTicketAuthority(ledger, pino({ level: 'silent' }), CONFIGURED_ID);
      assert.deepEqual(sas.validationId({ machineId: UPSTREAM_ID, sequence: 0 }), { machineId: 0, sequence: 1 }, 'the upstream’s id');
      assert.deepEqual(sas.validationId({ machineId: UPSTREAM_UNUSED_ID, sequence: 0 }), { machineId: 0, sequence: 1 }, 'the upstream’s id no ticket used');
      assert.deepEqual(sas.validationId({ machineId: CONFIGURED_ID, sequence: 0 }), { machineId: 0, sequence: 1 }, 'the configuration’s id');
      const sasIds = () => [...entriesOfTypes(ledger, ['ticket.machine-id'])].filter((e) => e.body.includes('"authority":"sas"')).length;
      assert.equal(sasIds(), 0, 'nothing journalled');
      assert.deepEqual(sas.validationId({ machineId: 0x0b_ee_f0, sequence: 0 }), { machineId: 0x0b_ee_f0, sequence: 1 });
      assert.deepEqual(sas.validationId({ machineId: 0x12_34_56, sequence: 0 }), { machineId: 0x0b_ee_f0, sequence: 1 }, 'the first id taken stands');
      assert.equal(sasIds(), 1, 'the id taken, journalled once');
    } finally {
      ledger.close();
    }
  });
});

describe('0x71 FF after exception 0x68: the end the journal holds for the entry 0x68 was raised for', () => {
  const STATION = 2;
  const t = (n: number) => validationNumber(0x0b_ee_f0, n);
  /** The entries' last one is the end; what 0x71 FF says once 0x68 is raised for it (as the host's feed does). */
  const reported = (entries: NewEntry[]) => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      for (const e of entries) ledger.append(e);
      const { sas } = sasTicketAuthority(ledger, pino({ level: 'silent' }));
      sas.transferComplete(STATION, ledger.headOf().seq);
      const { status, amount, validation } = sas.redemption(STATION).redeem(TRANSFER.statusRequest, 0, '');
      return { status, amount, validation };
    } finally {
      ledger.close();
    }
  };

  it('stacked: 00, redeemed, with the amount credited', () => {
    assert.deepEqual(reported(redeemed('r-000001', t(1), STATION, 2_345)), { status: 0x00, amount: 2_345, validation: t(1) });
  });

  it('returned: 8B after an approval, 84 over the limit, 80 a refusal, 88 no answer believed in time', () => {
    const returned = (reason: Parameters<typeof redeemReturned>[3], approved = false) => [
      redeemRequest('r-000002', t(2), STATION),
      ...(approved ? [redeemApproved('r-000002', t(2), STATION, 500)] : []),
      redeemReturned('r-000002', t(2), STATION, reason),
    ];
    const rejected = (status: number) => ({ status, amount: 0, validation: t(2) });
    assert.deepEqual(reported(returned('acceptor-returned', true)), rejected(0x8b));
    assert.deepEqual(reported(returned('over-limit')), rejected(0x84));
    assert.deepEqual(reported(returned('already-paid')), rejected(0x80));
    assert.deepEqual(reported(returned('unknown')), rejected(0x80));
    // The upstream's refusal of a number two tables printed: a refusal, not a timeout (before: 88).
    assert.deepEqual(reported(returned('contested')), rejected(0x80));
    assert.deepEqual(reported(returned('offline')), rejected(0x88));
    assert.deepEqual(reported(returned('player-cancelled')), rejected(0x88));
  });

  it('an entry of another station’s, or none that is an end, changes nothing', () => {
    assert.deepEqual(reported(redeemed('r-000003', t(3), STATION + 1, 100)), { status: 0xff, amount: 0, validation: null });
    assert.deepEqual(reported([redeemRequest('r-000004', t(4), STATION)]), { status: 0xff, amount: 0, validation: null });
  });

  it('at a start the station’s last end is answered (its 0x68 read before a restart, its 0x71 FF perhaps not)', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      for (const e of [...redeemed('r-000005', t(5), STATION, 800), ...redeemed('r-000006', t(6), STATION + 1, 900)]) ledger.append(e);
      const { sas } = sasTicketAuthority(ledger, pino({ level: 'silent' }));
      const { status, amount, validation } = sas.redemption(STATION).redeem(TRANSFER.statusRequest, 0, '');
      assert.deepEqual({ status, amount, validation }, { status: 0x00, amount: 800, validation: t(5) });
    } finally {
      ledger.close();
    }
  });
});

describe('a ticket at a station whose SAS line its own machine relays: that machine is not the casino system', () => {
  it('is refused without asking the line, unless the floor opted in (relayedMoney); an opted-in line is asked', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      const { sas } = sasTicketAuthority(ledger, pino({ level: 'silent' }), undefined, new Set([101]));
      const ask = (station: number, n: number) =>
        sas.redeem({ requestId: RequestId.parse(`r-00000${n}`), validation: validationNumber(0x0b_ee_f0, n), station, currency: 'MOP', limit: 5_000_000 });
      for (const station of [101, 102]) sas.redemption(station);
      // Refused at once: 0x70/0x71 at station 101 would be the forger's to answer.
      assert.deepEqual(await ask(101, 7), { kind: 'refused', requestId: 'r-000007', reason: 'offline' });
      assert.equal(sas.redemption(101).escrow(), null, "nothing in the station's cycle for its line to answer");
      void ask(102, 8);
      assert.deepEqual(sas.redemption(102).escrow(), { validation: validationNumber(0x0b_ee_f0, 8) }, 'the opted-in line is asked');
    } finally {
      ledger.close();
    }
  });
});

describe('the approved amounts the authority keeps for 0x71 FF: bounded for a process that runs for weeks', () => {
  const APPROVALS = 300;
  const kept = (sas: object) => (Reflect.get(sas, 'attempts') as Map<unknown, unknown>).size;
  const rid = (n: number) => RequestId.parse(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);

  it('one per station however many approvals no confirm or cancel follows (each left for a person, a newer ticket begun), and a confirm still reports its amount', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      const { sas } = sasTicketAuthority(ledger, pino({ level: 'silent' }));
      const approve = async (n: number, station: number) => {
        const validation = validationNumber(0x0b_ee_f0, n);
        const asked = sas.redeem({ requestId: rid(n), validation, station, currency: 'MOP', limit: 5_000_000 });
        const cycle = sas.redemption(station);
        assert.deepEqual(cycle.escrow(), { validation }, '0x70 names the ticket');
        cycle.redeem(TRANSFER.cashable, 100 + n, validation);
        assert.deepEqual(await asked, { kind: 'approved', requestId: rid(n), validation, amount: 100 + n, currency: 'MOP' });
        return validation;
      };
      for (const station of [1, 2]) sas.redemption(station);
      // Approved, then neither confirmed nor cancelled: the acceptor left each (held for a person), the next ticket came.
      for (let n = 1; n <= APPROVALS; n++) await approve(n, 1 + (n % 2));
      assert.equal(kept(sas), 2, `one per station, not one per approval (${APPROVALS})`);
      // The station's newest approval confirmed: 0x71 FF says redeemed, with the amount approved.
      const last = APPROVALS;
      sas.confirm(rid(last), { station: 1 + (last % 2), validation: validationNumber(0x0b_ee_f0, last) });
      const { status, amount } = sas.redemption(1 + (last % 2)).redeem(TRANSFER.statusRequest, 0, '');
      assert.deepEqual({ status, amount }, { status: 0x00, amount: 100 + last });
      // The other station's newest approval cancelled: none kept.
      sas.cancel(rid(last - 1), { station: 1 + ((last - 1) % 2), validation: validationNumber(0x0b_ee_f0, last - 1) });
      assert.equal(kept(sas), 0);
    } finally {
      ledger.close();
    }
  });
});

describe('an end for an older attempt of the same ticket at the station: not the current cycle’s end', () => {
  const rid = (n: number) => RequestId.parse(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);

  it('a held attempt settled returned by a person while the same ticket, inserted again, is approved there leaves the new cycle approved and then redeemed', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      const { sas } = sasTicketAuthority(ledger, pino({ level: 'silent' }));
      const validation = validationNumber(0x0b_ee_f0, 5);
      const cycle = sas.redemption(1);
      const approve = async (n: number) => {
        const asked = sas.redeem({ requestId: rid(n), validation, station: 1, currency: 'MOP', limit: 5_000_000 });
        assert.deepEqual(cycle.escrow(), { validation });
        cycle.redeem(TRANSFER.cashable, 2_500, validation);
        assert.equal((await asked).kind, 'approved');
      };
      // Attempt 1 approved, then left by the acceptor (held for a person); the ticket came back out and is inserted again.
      await approve(1);
      await approve(2);
      // The person settles attempt 1: not in the cashbox, returned. Attempt 2 is still approved and about to stack.
      await sas.cancel(rid(1), { station: 1, validation });
      const mid = cycle.redeem(TRANSFER.statusRequest, 0, '');
      assert.equal(mid.status, 0x40, 'attempt 2 still pending at 0x71 FF (not 8B, validator failure: the system would release a ticket being paid)');
      // Attempt 2 stacks and the station is credited: the system must read it redeemed.
      await sas.confirm(rid(2), { station: 1, validation });
      const { status, amount } = cycle.redeem(TRANSFER.statusRequest, 0, '');
      assert.deepEqual({ status, amount }, { status: 0x00, amount: 2_500 });
    } finally {
      ledger.close();
    }
  });
});

describe('0x4C when the journal cannot take the id (a full disk)', () => {
  it('is not taken (0x4C answers none set) and the log says why', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      const said: unknown[] = [];
      const log = pino({ level: 'error' }, { write: (line: string) => void said.push(JSON.parse(line)) });
      const append = ledger.append.bind(ledger);
      ledger.append = (e) => {
        if (e.type === 'ticket.machine-id') throw new Error('SQLITE_FULL: database or disk is full');
        return append(e);
      };
      const { sas } = sasTicketAuthority(ledger, log, CONFIGURED_ID);
      assert.deepEqual(sas.validationId({ machineId: 77, sequence: 0 }), { machineId: 0, sequence: 0 });
      const lines = said.filter((l) => typeof l === 'object' && l !== null && 'machineId' in l && l.machineId === 77);
      assert.equal(lines.length, 1, 'one error line naming the id');
    } finally {
      ledger.close();
    }
  });
});
