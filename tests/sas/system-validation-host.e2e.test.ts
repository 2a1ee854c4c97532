// SAS system validation at a station (docs/sas.md, "System validation at a station"), through the
// real host start: station 1 configured `sas.validation: "system"` on a socat pty pair, with a
// simulated printer, driven by the host simulator (tests/sas/host, from the document). The
// station's cash-out (its gate, as the screen's Cash-out button) journals the wait, raises 57,
// and prints only under the number the system's 0x58 gave; the system lies first in every way the
// two polls allow — a number with no cash-out waiting, not BCD, one already on the floor, twice,
// too late — and each is refused with nothing journalled and no credit moved. A denial and a
// silence become handpays of the whole credit. Money is conserved after each step. The ticket the
// system numbered is then inserted at station 2 (on its own SAS link, the table's own numbering):
// the system redeems it (0x67, 0x70, 0x71), credited once; the same paper again is already paid.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import type { WiredFloorServices } from '../../host/floor/floor-services.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { entryCount, newestEntriesOfType } from '../../ledger/index.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import { SV, awaitException, pendingCashout57, receive58 } from './host/system-validation.js';
import * as T from './host/tickets.js';
import * as A from './host/aft.js';

const ADDRESS = 12;
/** Station 1's AFT asset number: the casino system may also lock it (0x74) for a transfer. */
const ASSET = 48_000_012;
// Long enough that a loaded machine finishes the lying steps before it (a run at load 16 took 14 s for them).
const TIMEOUT_MS = 30_000;
// The silent system's host: nothing but the wait runs before its timeout, so it need not be long.
const SILENT_TIMEOUT_MS = 2_000;

async function until(test: () => boolean, what: string, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const payloadOf = (body: string | undefined): Record<string, unknown> => (JSON.parse(body ?? '{}') as { payload: Record<string, unknown> }).payload;

/**
 * The real host start, station 1 numbered by the system (`systemValidationMs` its wait's timeout)
 * with a simulated printer, station 2 on its own SAS link; each link on a socat pty pair, the host
 * simulator at its other end. Helpers for station 1's money, its notes and its gate.
 */
function systemValidationFloor(name: string, timeoutMs: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `sas-sysval-${name}-`));
  let running: RunningHost;
  let io: HostIo | null = null;
  let io2: HostIo | null = null;
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  let pair2: Awaited<ReturnType<typeof ptyPair>>;
  const f = {
    h: null as unknown as SasHost,
    h2: null as unknown as SasHost,
    inserted: 0,
    r: (): RunningHost => running,
    /** What the station's money is: its credit, its handpays waiting, its tickets printed or in print. */
    held: (): number => {
      const m = running.ledger.meters('station:1');
      const handpays = running.floor.handpays.pendingAt(1)?.amount ?? 0;
      return running.ledger.credit(1) + handpays + (m.ticketsOutAmount ?? 0) + (running.floor.tickets.pendingAt(1)?.terms.amount ?? 0);
    },
    note: async (): Promise<void> => {
      const before = running.ledger.credit(1);
      running.devices.billAcceptors.simulator(1)?.insertNote(100);
      await until(() => running.ledger.credit(1) === before + 10_000, 'the note credited');
      f.inserted += 10_000;
    },
    gate: () => (running.floor as WiredFloorServices).gate,
  };
  before(async () => {
    pair = await ptyPair(mkdtempSync(path.join(dir, 's1-')));
    pair2 = await ptyPair(mkdtempSync(path.join(dir, 's2-')));
    const config: TableConfig = simulatedTableConfig('war');
    config.stations = config.stations.map((s) =>
      s.station === 1
        ? {
            ...s,
            printer: 'sim',
            sas: { link: `serial:${pair.machine}`, address: ADDRESS, validation: 'system', aft: { assetNumber: ASSET, limit: 500_000 } },
          }
        : s.station === 2
          ? { ...s, sas: { link: `serial:${pair2.machine}`, address: ADDRESS } }
          : s,
    );
    config.tickets = { ...config.tickets, authority: 'sas' };
    running = await startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config,
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000, systemValidationMs: timeoutMs },
    });
    io = await openPtyHost(pair.host);
    f.h = new SasHost(io, ADDRESS);
    await f.h.pollOther();
    io2 = await openPtyHost(pair2.host);
    f.h2 = new SasHost(io2, ADDRESS);
    await f.h2.pollOther();
  });
  after(async () => {
    await io?.close();
    await io2?.close();
    await running?.close();
    pair?.socat.kill();
    pair2?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  return f;
}

describe('SAS system validation at a station, through the host start', () => {
  const f = systemValidationFloor('host', TIMEOUT_MS);
  const { r, held, note, gate } = f;

  it('the configuration: "system" without tickets.authority "sas" is refused with a clear error', () => {
    const c = simulatedTableConfig('war');
    c.stations = c.stations.map((s) => (s.station === 1 ? { ...s, printer: 'sim', sas: { link: 'tcp:127.0.0.1:9', address: 1, validation: 'system' } } : s));
    const r1 = TableConfig.safeParse(c);
    assert.equal(r1.success, false);
    assert.match(r1.error?.issues.map((i) => i.message).join('\n') ?? '', /sas\.validation "system" needs tickets\.authority "sas"/);
    const r2 = TableConfig.safeParse({ ...c, stations: c.stations.map((s) => (s.station === 1 ? { ...s, sas: { ...s.sas, validation: 'casino' } } : s)) });
    assert.equal(r2.success, false, 'an unknown kind');
  });

  it('a lying system with no cash-out waiting: 0x57 says none, 0x58 is 80 and journals nothing', async () => {
    assert.deepEqual(await pendingCashout57(f.h), { type: SV.notWaiting, amount: 0 });
    assert.equal(await receive58(f.h, 12, '1234567890123456'), SV.notInCashout);
    assert.equal(entryCount(r().ledger, ['ticket.validation.request', 'ticket.validation.end', 'ticket.issue']), 0);
  });

  let first = '';
  it('a cash-out waits (journalled, 57, the station locked), lies refused (81, nothing journalled), the number taken once and printed', async () => {
    await note();
    const raisedBefore = entryCount(r().ledger, ['tilt.raise']);
    await until(() => r().floor.tickets.whyNot(1, r().ledger.credit(1)) === null, 'the printer ready');
    assert.deepEqual(gate().cashOut(1), { ok: true });
    await awaitException(f.h, 0x57);
    assert.equal(entryCount(r().ledger, ['ticket.validation.request']), 1, 'the wait journalled before 57');
    assert.equal(r().ledger.credit(1), 10_000, 'the credit still on the meter');
    assert.match(gate().refuse(1, 'place-bet')?.reason ?? '', /waits for the casino system/);
    assert.equal(gate().cashOut(1).ok, false, 'a second cash-out meanwhile is refused');
    // The AFT game lock is not taken while the cash-out is under way (docs/sas.md, "The game lock"):
    // the ticket's issue would take the credit off the locked station (a review of 6 December).
    for (const condition of [0x00, 0x01])
      assert.equal((await A.status74(f.h, 0x00, condition, 500)).lock, A.LOCK.none, `a lock (condition ${condition}) granted while the cash-out waits`);
    assert.equal(entryCount(r().ledger, ['tilt.raise']) - raisedBefore, 0, 'no sas-aft-locked fault');
    assert.deepEqual(await pendingCashout57(f.h), { type: SV.cashable, amount: 10_000 }, 'the amount is the machine’s: 0x58 carries none');
    assert.equal(await receive58(f.h, 0, '', [0x1a, ...Array<number>(8).fill(0x11)]), SV.rejected, 'system id not BCD');
    assert.equal(await receive58(f.h, 0, '', [0x12, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0xf1]), SV.rejected, 'number not BCD');
    assert.equal(entryCount(r().ledger, ['ticket.validation.end', 'ticket.issue']), 0, 'nothing journalled for a lie');
    assert.equal(await receive58(f.h, 12, '0000000000004801'), SV.acknowledged);
    assert.equal(await receive58(f.h, 13, '0000000000009999'), SV.notInCashout, 'the same answer twice, another number: no cash-out waits');
    await until(() => r().ledger.meters('station:1').ticketsOut === 1, 'the ticket printed');
    first = '120000000000004801';
    const issue = payloadOf(newestEntriesOfType(r().ledger, 'ticket.issue', 1)[0]?.body);
    assert.equal(issue.validation, first, 'printed under the number the system gave');
    assert.equal(issue.systemId, 12);
    assert.equal(issue.amount, 10_000);
    assert.equal(entryCount(r().ledger, ['ticket.validation.end']), 1);
    assert.equal(r().ledger.credit(1), 0);
    assert.equal(held(), f.inserted);
    r().devices.printers.simulator(1)?.takeTicket();
  });

  it('the same number again for the next cash-out (a duplicate) is refused 81; a fresh one is taken', async () => {
    await note();
    await until(() => r().floor.tickets.whyNot(1, r().ledger.credit(1)) === null, 'the printer ready');
    assert.deepEqual(gate().cashOut(1), { ok: true });
    await awaitException(f.h, 0x57);
    assert.equal(await receive58(f.h, 12, '0000000000004801'), SV.rejected, 'a number already printed here');
    assert.equal(await receive58(f.h, 12, '0000000000004802'), SV.acknowledged);
    await until(() => r().ledger.meters('station:1').ticketsOut === 2, 'the second ticket printed');
    assert.equal(held(), f.inserted);
    r().devices.printers.simulator(1)?.takeTicket();
  });

  it('a denial (system id 00) is a handpay of the whole credit; nothing is issued', async () => {
    await note();
    await until(() => r().floor.tickets.whyNot(1, r().ledger.credit(1)) === null, 'the printer ready');
    const issued = entryCount(r().ledger, ['ticket.issue']);
    assert.deepEqual(gate().cashOut(1), { ok: true });
    await awaitException(f.h, 0x57);
    assert.equal(await receive58(f.h, 0, '0000000000000000'), SV.acknowledged);
    await until(() => r().floor.handpays.pendingAt(1) !== null, 'the handpay');
    assert.equal(r().floor.handpays.pendingAt(1)?.amount, 10_000);
    assert.equal(entryCount(r().ledger, ['ticket.issue']), issued);
    assert.equal(payloadOf(newestEntriesOfType(r().ledger, 'ticket.validation.end', 1)[0]?.body).outcome, 'denied');
    assert.equal(held(), f.inserted);
    const pending = r().floor.handpays.pendingAt(1);
    assert.ok(pending);
    assert.equal(r().floor.handpays.confirm(pending.requestTxId, 'attendant-1').ok, true, 'the denial’s handpay paid');
    f.inserted -= 10_000;
    assert.equal(held(), f.inserted);
  });

  it('the ticket the system numbered, inserted at station 2: the system redeems it (67, 0x70, 0x71), credited once; again, already paid', async () => {
    const before = r().ledger.credit(2);
    r().devices.billAcceptors.simulator(2)?.insertTicket?.(first);
    await awaitException(f.h2, 0x67);
    assert.deepEqual(await T.ticketData70(f.h2), { amount: 0, parsing: 0, validation: first }, 'offered to the system with its number');
    assert.equal((await T.redeem71(f.h2, 0x00, 10_000, first)).status, 0x40);
    await until(() => r().ledger.credit(2) === before + 10_000, 'station 2 credited');
    await awaitException(f.h2, 0x68);
    assert.deepEqual(await T.status71(f.h2), { status: 0x00, amount: 10_000, validation: first });
    const returned = entryCount(r().ledger, ['ticket.redeem.returned']);
    r().devices.billAcceptors.simulator(2)?.insertTicket?.(first);
    await until(() => entryCount(r().ledger, ['ticket.redeem.returned']) === returned + 1, 'the same paper returned');
    assert.match(newestEntriesOfType(r().ledger, 'ticket.redeem.returned', 1)[0]?.body ?? '', /"reason":"already-paid"/);
    assert.equal(r().ledger.credit(2), before + 10_000, 'credited once');
    assert.equal(entryCount(r().ledger, ['ticket.redeem.stacked']), 1);
  });
});

// The system never answers: the wait times out. A host of its own, whose timeout is short (nothing
// lies first here), so that the test does not sit out the first host's 30 s.
describe('SAS system validation at a station: the system silent', () => {
  const f = systemValidationFloor('silent', SILENT_TIMEOUT_MS);
  const { r, held, note, gate } = f;

  it('no answer in time is a handpay; the late number finds no cash-out (80) and moves nothing', async () => {
    await note();
    await until(() => r().floor.tickets.whyNot(1, r().ledger.credit(1)) === null, 'the printer ready');
    assert.deepEqual(gate().cashOut(1), { ok: true });
    await awaitException(f.h, 0x57);
    await until(() => r().floor.handpays.pendingAt(1) !== null, 'the handpay after the timeout', SILENT_TIMEOUT_MS + 10_000);
    assert.equal(r().floor.handpays.pendingAt(1)?.amount, 10_000, 'a handpay of the whole credit');
    assert.equal(payloadOf(newestEntriesOfType(r().ledger, 'ticket.validation.end', 1)[0]?.body).outcome, 'timeout');
    assert.equal(await receive58(f.h, 12, '0000000000004803'), SV.notInCashout);
    assert.equal(entryCount(r().ledger, ['ticket.issue']), 0, 'nothing issued');
    assert.equal(held(), f.inserted);
  });
});
