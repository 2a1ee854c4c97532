// Tickets through SAS (issue 48 item 4; docs/sas.md, "Tickets through SAS") over a socat pty
// pair: the casino's system, played by the host simulator (tests/sas/host/tickets.ts, from the
// document's layouts), is the validation authority of the station, reached through the same
// guard as the upstream (host/tickets/guard.ts). The system lies in every way 0x70/0x71 let it:
// another number, the same ticket twice, a second amount, an answer after the deadline, a
// damaged CRC, a refusal; the station is to pay each ticket once, for the first amount approved
// within the deadline, and never on a late or damaged word.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSasLink, type SasLink } from '../../hardware/sas/link.js';
import type { RedeemAnswer, TicketAuthority } from '../../host/tickets/authority.js';
import { guardAuthority } from '../../host/tickets/guard.js';
import { journalledSasId, SasAuthority } from '../../host/tickets/sas-authority.js';
import { Ledger } from '../../ledger/ledger.js';
import { journalledMachineId } from '../../ledger/machine-id-queries.js';
import { RequestId } from '../../terms/ticket-terms.js';
import { validationNumber, type ValidationNumber } from '../../terms/validation-number.js';
import { MemoryGame } from './fixture.js';
import { SasHost } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as T from './host/tickets.js';

const ADDRESS = 4;
const STATION = 2;
const DEADLINE_MS = 2_000;
const LIMIT = 100_000;

interface Rig {
  host: SasHost;
  guarded: TicketAuthority;
  sas: SasAuthority;
  paid: Set<string>;
  numbering: { lastSequence: number };
  /** The table's journal: where the id 0x4C set is recorded. */
  ledger: Ledger;
  close(): Promise<void>;
}

async function rig(dir: string): Promise<Rig> {
  const pair = await ptyPair(dir);
  const paid = new Set<string>();
  const numbering: Rig['numbering'] = { lastSequence: 0 };
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-sas' });
  const sas = new SasAuthority({
    store: journalledSasId(ledger),
    lastSequence: () => numbering.lastSequence,
    paidHere: (v) => paid.has(v),
    idTaken: () => false,
    ticketEnd: () => null,
    lastTicketEnd: () => null,
  });
  const game = new MemoryGame();
  game.tickets = { redemption: sas.redemption(STATION), validationId: (r) => sas.validationId(r), validationInfo: () => null };
  const link: SasLink = openSasLink(`serial:${pair.machine}`, { address: ADDRESS, game });
  const io = await openPtyHost(pair.host);
  const host = new SasHost(io, ADDRESS);
  await host.pollOther();
  const guarded = guardAuthority(sas, { deadlineMs: DEADLINE_MS });
  return {
    host,
    guarded,
    sas,
    paid,
    numbering,
    ledger,
    close: async () => {
      ledger.close();
      await link.close();
      await io.close();
      pair.socat.kill();
    },
  };
}

let n = 0;
function ticket(): { validation: ValidationNumber; requestId: RequestId } {
  n++;
  return { validation: validationNumber(0x4d2, 100 + n), requestId: RequestId.parse(`sas-test-${n}-${process.pid}`) };
}

function ask(r: Rig, t: ReturnType<typeof ticket>): Promise<RedeemAnswer> {
  return r.guarded.redeem({ requestId: t.requestId, validation: t.validation, station: STATION, currency: 'MOP', limit: LIMIT });
}

/** The system reads the ticket in escrow by 0x70 (retrying until the station has begun: the journal's 0x67 would say when). */
async function escrowed(h: SasHost): Promise<NonNullable<Awaited<ReturnType<typeof T.ticketData70>>>> {
  for (let i = 0; i < 50; i++) {
    const e = await T.ticketData70(h);
    if (e) return e;
  }
  throw new Error('no ticket in escrow');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('tickets through SAS: the casino system validates the station’s tickets over a socat pty pair', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-tickets-'));
  let r: Rig;
  before(async () => {
    r = await rig(dir);
  });
  after(async () => {
    await r?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an honest system: 0x70 reads the number, 0x71 approves it, the station stacks it and 0x71 FF reads it redeemed', async () => {
    const t = ticket();
    assert.equal(await T.ticketData70(r.host), null, 'no ticket in escrow yet');
    assert.deepEqual(await T.status71(r.host), { status: 0xff, amount: null, validation: null }, 'nothing to report before the first ticket');
    const answer = ask(r, t);
    const e = await escrowed(r.host);
    assert.deepEqual(e, { amount: 0, parsing: 0, validation: t.validation });
    assert.deepEqual(await T.status71(r.host), { status: 0x20, amount: 0, validation: t.validation }, 'waiting for 0x71');
    assert.deepEqual(await T.redeem71(r.host, 0x00, 12_345, t.validation), { status: 0x40, amount: 12_345, validation: t.validation });
    assert.deepEqual(await answer, { kind: 'approved', requestId: t.requestId, validation: t.validation, amount: 12_345, currency: 'MOP' });
    assert.deepEqual(await r.guarded.confirm(t.requestId, { validation: t.validation, station: STATION }), { ok: true });
    assert.deepEqual(await T.status71(r.host), { status: 0x00, amount: 12_345, validation: t.validation });
    assert.equal(await T.ticketData70(r.host), null, 'out of escrow');
  });

  it('a system that names another number is told so (0x81) and approves nothing; the deadline returns the ticket', async () => {
    const t = ticket();
    const other = ticket();
    const answer = ask(r, t);
    await escrowed(r.host);
    assert.equal((await T.redeem71(r.host, 0x00, 5_000, other.validation)).status, 0x81);
    assert.deepEqual(await answer, { kind: 'refused', requestId: t.requestId, reason: 'offline' });
    assert.equal((await T.status71(r.host)).status, 0x88, 'rejected: timeout');
    assert.equal((await T.redeem71(r.host, 0x00, 5_000, t.validation)).status, 0xc0, 'the right number after the deadline approves nothing');
  });

  it('a second 0x71 with another amount changes nothing: the first amount stands, once', async () => {
    const t = ticket();
    const answer = ask(r, t);
    await escrowed(r.host);
    assert.equal((await T.redeem71(r.host, 0x00, 700, t.validation)).status, 0x40);
    assert.deepEqual(await T.redeem71(r.host, 0x00, 90_000, t.validation), { status: 0xc0, amount: null, validation: null });
    const a = await answer;
    assert.equal(a.kind === 'approved' && a.amount, 700);
    assert.deepEqual(await T.status71(r.host), { status: 0x40, amount: 700, validation: t.validation });
    await r.guarded.confirm(t.requestId, { validation: t.validation, station: STATION });
    r.paid.add(t.validation);
    assert.deepEqual(await T.status71(r.host), { status: 0x00, amount: 700, validation: t.validation });
    assert.equal((await T.redeem71(r.host, 0x00, 700, t.validation)).status, 0xc0, 'redeemed again after it stacked: not this cycle');
  });

  it('the same paper inserted again, approved again by a lying system: refused already paid without a cycle', async () => {
    const first = ticket();
    r.paid.add(first.validation);
    const again = { ...first, requestId: RequestId.parse(`${first.requestId}-again`) };
    const answer = ask(r, again);
    assert.deepEqual(await answer, { kind: 'refused', requestId: again.requestId, reason: 'already-paid' });
    assert.equal(await T.ticketData70(r.host), null, 'never offered to the system');
  });

  it('an approval after the deadline pays nothing; the cycle ends as a timeout', async () => {
    const t = ticket();
    const answer = ask(r, t);
    await escrowed(r.host);
    assert.deepEqual(await answer, { kind: 'refused', requestId: t.requestId, reason: 'offline' });
    await sleep(50);
    assert.deepEqual(await T.redeem71(r.host, 0x00, 4_000, t.validation), { status: 0xc0, amount: null, validation: null });
    assert.equal((await T.status71(r.host)).status, 0x88);
  });

  it('a 0x71 with a damaged CRC is not answered and approves nothing; the good one then does', async () => {
    const t = ticket();
    const answer = ask(r, t);
    await escrowed(r.host);
    const bytes = T.redeem71Bytes(ADDRESS, 0x00, 2_500, t.validation);
    const last = bytes.length - 1;
    bytes[last] = (bytes[last] ?? 0) ^ 0x01;
    await r.host.pollOther();
    assert.equal(await r.host.exchange(bytes, 'variable', 200), null, 'ignored');
    assert.equal((await T.status71(r.host)).status, 0x20, 'still waiting for 0x71');
    assert.equal((await T.redeem71(r.host, 0x00, 2_500, t.validation)).status, 0x40);
    const a = await answer;
    assert.equal(a.kind === 'approved' && a.amount, 2_500);
    await r.guarded.cancel(t.requestId, { validation: t.validation, station: STATION });
    assert.equal((await T.status71(r.host)).status, 0x8b, 'approved, then the acceptor gave it back');
  });

  it('each refusal code is the player’s reason; a promotional code or an amount above the limit approves nothing', async () => {
    const cases: [number, number, string, number][] = [
      [0x84, 1_000, 'already-paid', 0x80],
      [0x83, 1_000, 'pending-elsewhere', 0x80],
      [0x85, 1_000, 'expired', 0x80],
      [0x82, 1_000, 'unknown', 0x80],
      [0x00, LIMIT + 1, 'over-limit', 0x84],
    ];
    for (const [code, amount, reason, status] of cases) {
      const t = ticket();
      const answer = ask(r, t);
      await escrowed(r.host);
      assert.equal((await T.redeem71(r.host, code, amount, t.validation)).status, status, `code ${code}`);
      assert.deepEqual(await answer, { kind: 'refused', requestId: t.requestId, reason });
      await r.guarded.cancel(t.requestId, { validation: t.validation, station: STATION });
      assert.equal((await T.status71(r.host)).status, status, 'the outcome stands after the ticket went back');
    }
    const promo = ticket();
    const answer = ask(r, promo);
    await escrowed(r.host);
    assert.equal((await T.redeem71(r.host, 0x01, 1_000, promo.validation)).status, 0x82, 'restricted promotional credits: not a valid function here');
    assert.deepEqual(await answer, { kind: 'refused', requestId: promo.requestId, reason: 'offline' });
  });

  it('0x4C: reads 0 until the system sets an id, then keeps the first id it set, with the journal’s last sequence', async () => {
    assert.deepEqual(await T.validationId4C(r.host, 0, 0), { machineId: 0, sequence: 0 });
    assert.deepEqual(await r.sas.machineId(), { ok: false, detail: 'the casino system has not set a validation id (long poll 0x4C)' });
    assert.deepEqual(await T.validationId4C(r.host, 0x0a0b0c, 0), { machineId: 0x0a0b0c, sequence: 0 });
    assert.deepEqual(await r.sas.machineId(), { ok: true, machineId: 0x0a0b0c });
    assert.equal(journalledMachineId(r.ledger, 'sas'), 0x0a0b0c, 'journalled');
    r.numbering.lastSequence = 41;
    assert.deepEqual(
      await T.validationId4C(r.host, 0x111111, 5),
      { machineId: 0x0a0b0c, sequence: 41 },
      'the first id stays the table’s; the journal’s count goes on',
    );
    assert.deepEqual(await T.validationId4C(r.host, 0, 0), { machineId: 0x0a0b0c, sequence: 41 });
  });

  it('a repeated 0x71 (the host lost the answer) is answered with the same bytes and approves once', async () => {
    const t = ticket();
    let approvals = 0;
    const answer = ask(r, t).then((a) => {
      if (a.kind === 'approved') approvals++;
      return a;
    });
    await escrowed(r.host);
    const bytes = T.redeem71Bytes(ADDRESS, 0x00, 3_300, t.validation);
    await r.host.pollOther();
    const one = await r.host.exchange(bytes, 'variable');
    const two = await r.host.exchange(bytes, 'variable');
    assert.deepEqual(two, one, 'the implied NACK: the same answer again');
    assert.equal((await answer).kind, 'approved');
    assert.equal(approvals, 1);
  });
});
