// A table whose tickets the casino's system validates (`tickets.authority: "sas"`, docs/sas.md
// "Tickets through SAS"), through the real host start, stations 1 and 2 each on a socat pty pair
// driven by the host simulator (tests/sas/host, from the document): no ticket before the system
// sets the validation id (0x4C; the configuration's id is not used under SAS); a ticket printed at
// station 1 is read by 0x4D after exception 0x3D, once; inserted at station 2, it is offered by
// 0x67 and 0x70, approved by 0x71, stacked and credited, reported by 0x68 and 0x71 FF; the same
// paper again, approved again by a lying system, is returned already paid and credits nothing. A
// ticket's end is what 0x71 FF says after its 0x68 (SAS 6.02 §15.12, steps 6–8): a second ticket
// inserted before the system asked does not take its place, and after a restart the 0x68 the
// journal gives again is answered from the journal (redeemed with its amount, or rejected).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, type TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { entryCount, newestEntriesOfType } from '../../ledger/index.js';
import { validationNumber } from '../../terms/validation-number.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as T from './host/tickets.js';

const ADDRESS = 9;
// Table A-1, from the document.
const TICKET_PRINTED = 0x3d;
const TICKET_INSERTED = 0x67;
const TRANSFER_COMPLETE = 0x68;

async function until(test: () => boolean, what: string, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('tickets validated by the casino system over SAS, through the host start', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-host-tickets-'));
  let running: RunningHost;
  let config: TableConfig;
  const pairs: Awaited<ReturnType<typeof ptyPair>>[] = [];
  const ios: HostIo[] = [];
  const hosts: SasHost[] = [];
  const r = (): RunningHost => running;
  const start = (): Promise<RunningHost> =>
    startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config,
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
    });

  before(async () => {
    for (const s of [1, 2]) pairs.push(await ptyPair(mkdtempSync(path.join(dir, `s${s}-`))));
    config = simulatedTableConfig('war');
    config.stations = config.stations.map((s) =>
      s.station <= 2 ? { ...s, printer: 'sim', sas: { link: `serial:${pairs[s.station - 1]?.machine ?? ''}`, address: ADDRESS } } : s,
    );
    config.tickets = { ...config.tickets, machineId: 4801, authority: 'sas' };
    running = await start();
    for (const p of pairs) {
      const io = await openPtyHost(p.host);
      ios.push(io);
      hosts.push(new SasHost(io, ADDRESS));
    }
  });
  after(async () => {
    for (const io of ios) await io.close();
    await running?.close();
    for (const p of pairs) p.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const h = (station: 1 | 2): SasHost => {
    const x = hosts[station - 1];
    assert.ok(x);
    return x;
  };
  /** General polls until `code` (each acknowledging the last answer); throws if the machine runs dry first. */
  const expectException = async (station: 1 | 2, code: number): Promise<void> => {
    for (let i = 0; i < 100; i++) {
      const got = await h(station).generalPoll();
      if (got === code) return;
      if (got === 0) await sleep(20);
    }
    assert.fail(`exception ${code.toString(16)} never came at station ${station}`);
  };
  const note = async (station: number): Promise<void> => {
    const before = r().ledger.credit(station);
    r().devices.billAcceptors.simulator(station)?.insertNote(100);
    await until(() => r().ledger.credit(station) === before + 10_000, 'the note credited');
  };

  it('no ticket before the system sets the validation id: the configuration’s id is not used under SAS', async () => {
    await note(1);
    await until(() => r().floor.tickets.whyNot(1, r().ledger.credit(1)) === null, 'the printer ready');
    const out = await r().floor.tickets.cashOut(1);
    assert.equal(out.kind, 'no-ticket');
    assert.equal(entryCount(r().ledger, ['ticket.issue']), 0);
    assert.deepEqual(await T.validationId4C(h(1), 0, 0), { machineId: 0, sequence: 0 });
    assert.deepEqual(await T.validationId4C(h(1), 0x00beef, 1), { machineId: 0x00beef, sequence: 0 });
    assert.deepEqual(await T.validationId4C(h(2), 0, 0), { machineId: 0x00beef, sequence: 0 }, 'one id for the table’s stations');
  });

  let validation = '';
  let amount = 0;

  it('a ticket printed at station 1: exception 0x3D, then 0x4D reads it once, under the system’s id', async () => {
    amount = r().ledger.credit(1);
    const out = await r().floor.tickets.cashOut(1);
    assert.equal(out.kind, 'printed');
    if (out.kind !== 'printed') return;
    validation = out.validation;
    await expectException(1, TICKET_PRINTED);
    const look = await T.validationInfo4D(h(1), 0xff);
    assert.ok(look);
    assert.equal(look.validation, validation);
    assert.equal(look.amount, amount);
    assert.equal(look.type, 0x00, 'a cashable ticket from a cash-out');
    const read = await T.validationInfo4D(h(1), 0x00);
    assert.deepEqual(read, look, 'look-ahead and read give the same record');
    assert.equal(await T.validationInfo4D(h(1), 0x00), null, 'read once: nothing more to read');
    assert.equal((await T.validationInfo4D(h(1), 0x01))?.validation, validation, 'still in the buffer at position 1');
    assert.deepEqual(await T.validationId4C(h(1), 0, 0), { machineId: 0x00beef, sequence: 1 });
  });

  it('inserted at station 2: 0x67, 0x70, 0x71 approves, stacked and credited once, 0x68 and 0x71 FF say redeemed', async () => {
    const before = r().ledger.credit(2);
    r().devices.billAcceptors.simulator(2)?.insertTicket?.(validation);
    await expectException(2, TICKET_INSERTED);
    const e = await T.ticketData70(h(2));
    assert.deepEqual(e, { amount: 0, parsing: 0, validation });
    assert.equal((await T.redeem71(h(2), 0x00, amount, validation)).status, 0x40);
    await until(() => r().ledger.credit(2) === before + amount, 'station 2 credited');
    await expectException(2, TRANSFER_COMPLETE);
    assert.deepEqual(await T.status71(h(2)), { status: 0x00, amount, validation });
    assert.equal(r().ledger.meters('station:2').ticketsInAmount, amount);
  });

  it('the same paper again, approved again by a lying system: returned already paid, nothing credited', async () => {
    const before = r().ledger.credit(2);
    const returned = entryCount(r().ledger, ['ticket.redeem.returned']);
    r().devices.billAcceptors.simulator(2)?.insertTicket?.(validation);
    await until(() => entryCount(r().ledger, ['ticket.redeem.returned']) === returned + 1, 'the ticket returned');
    const last = newestEntriesOfType(r().ledger, 'ticket.redeem.returned', 1)[0];
    assert.match(last?.body ?? '', /"reason":"already-paid"/);
    assert.equal(await T.ticketData70(h(2)), null, 'never offered to the system');
    assert.equal((await T.redeem71(h(2), 0x00, amount, validation)).status, 0xc0, 'a lying approval finds no cycle');
    await sleep(200);
    assert.equal(r().ledger.credit(2), before);
    assert.equal(entryCount(r().ledger, ['ticket.redeem.stacked']), 1);
  });

  /**
   * Inserted at station 2, read by 0x70 and decided by 0x71 (`code`, `amount`); resolved once the
   * journal ends it. `heard`: after its 0x67; else without a general poll, so that no exception
   * the station has (a 0x68 before it) is acknowledged.
   */
  const redeemAt2 = async (validation: string, code: number, amount: number, heard = true): Promise<void> => {
    const ended = entryCount(r().ledger, ['ticket.redeem.stacked', 'ticket.redeem.returned']);
    r().devices.billAcceptors.simulator(2)?.insertTicket?.(validation);
    if (heard) await expectException(2, TICKET_INSERTED);
    let escrow = await T.ticketData70(h(2));
    for (const t0 = Date.now(); !escrow && Date.now() - t0 < 10_000; await sleep(20)) escrow = await T.ticketData70(h(2));
    assert.deepEqual(escrow, { amount: 0, parsing: 0, validation });
    assert.equal((await T.redeem71(h(2), code, amount, validation)).status, code === 0x00 ? 0x40 : 0x80);
    await until(() => entryCount(r().ledger, ['ticket.redeem.stacked', 'ticket.redeem.returned']) === ended + 1, 'the ticket’s end journalled');
  };
  /**
   * A general poll answered after a start: the machine opens its port a moment after it, and a
   * poll written before then is read when it does (the pty keeps it). So one poll with a long
   * window, never a quick retry whose late answer would be read as the next one's.
   */
  const firstPoll = async (station: 1 | 2): Promise<number> => {
    for (let i = 0; i < 5; i++) {
      await h(station).pollOther();
      const a = await h(station).exchange([0x80 | ADDRESS], 1, 3_000);
      if (a?.[0] !== undefined) return a[0];
    }
    return assert.fail('the machine never answered a general poll');
  };
  /** General polls until the machine has nothing left to report. */
  const drain = async (station: 1 | 2): Promise<void> => {
    for (let i = 0; i < 100; i++) if ((await h(station).generalPoll()) === 0) return;
    assert.fail(`station ${station} never ran dry`);
  };

  it('a second ticket inserted before the system asked 0x71 FF of the first: 0x71 FF still says the first redeemed, then the second', async () => {
    await drain(2);
    const first = validationNumber(0x00beef, 201);
    const second = validationNumber(0x00beef, 202);
    const before = r().ledger.credit(2);
    await redeemAt2(first, 0x00, 2_000);
    const requests = entryCount(r().ledger, ['ticket.redeem.request']);
    r().devices.billAcceptors.simulator(2)?.insertTicket?.(second);
    await until(() => entryCount(r().ledger, ['ticket.redeem.request']) === requests + 1, 'the second ticket asked about');
    await sleep(100); // the station's cycle for it has begun
    await expectException(2, TRANSFER_COMPLETE);
    // §15.12: exception 0x68, then 0x71 FF, then the final status: of the ticket 0x68 reported.
    assert.deepEqual(await T.status71(h(2)), { status: 0x00, amount: 2_000, validation: first }, 'the first ticket’s end, not the second’s wait');
    await expectException(2, TICKET_INSERTED);
    assert.deepEqual(await T.ticketData70(h(2)), { amount: 0, parsing: 0, validation: second });
    assert.deepEqual(await T.status71(h(2)), { status: 0x20, amount: 0, validation: second }, 'read once: now the second ticket’s cycle');
    assert.equal((await T.redeem71(h(2), 0x00, 3_000, second)).status, 0x40);
    await until(() => r().ledger.credit(2) === before + 5_000, 'both credited');
    await expectException(2, TRANSFER_COMPLETE);
    assert.deepEqual(await T.status71(h(2)), { status: 0x00, amount: 3_000, validation: second });
    await sleep(200);
    assert.equal(r().ledger.credit(2), before + 5_000, 'each credited once, by its stacked entry');
  });

  it('a restart before the system asked 0x71 FF: the 0x68 given again is answered from the journal, redeemed with its amount or rejected', async () => {
    await drain(2);
    const paid = validationNumber(0x00beef, 203);
    const refused = validationNumber(0x00beef, 204);
    await redeemAt2(paid, 0x00, 4_000);
    // The system has not read the 0x68 of the first: the second's 0x67 waits behind it (one priority exception at a time).
    await redeemAt2(refused, 0x82, 4_000, false);
    const credit = r().ledger.credit(2);
    const stacked = entryCount(r().ledger, ['ticket.redeem.stacked']);
    await running.close();
    running = await start();
    if ((await firstPoll(2)) !== TRANSFER_COMPLETE) await expectException(2, TRANSFER_COMPLETE);
    assert.deepEqual(await T.status71(h(2)), { status: 0x00, amount: 4_000, validation: paid }, 'redeemed, with its amount');
    await expectException(2, TRANSFER_COMPLETE);
    assert.deepEqual(await T.status71(h(2)), { status: 0x80, amount: 0, validation: refused }, 'rejected by the system');
    assert.equal(r().ledger.credit(2), credit, 'nothing credited again');
    assert.equal(entryCount(r().ledger, ['ticket.redeem.stacked']), stacked);
  });
});
