// The exceptions a station's SAS link reports come from its journal (docs/sas.md, "Exceptions
// from the journal"): a real host (startHost) with station 1 on a socat pty pair, and the host
// simulator (tests/sas/host, written from the document) draining its general polls. After a note,
// a round, a ticket out and in, a door, a handpay, a power cycle (the host stopped and started on
// the same data folder, with exceptions journalled and not yet read) and the link killed and made
// again, the simulator has seen every exception once, in journal order except where SAS's
// priority exceptions go first, and none twice. Along the way its meters (0x1C, 0x1A, 0x2F with
// the ticket meters) equal the station's ledger meters after the round, the ticket out, the
// handpay and the restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, type TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { ticketInTxId } from '../../ledger/ticket-postings.js';
import { RequestId } from '../../terms/ticket-terms.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as P from './host/polls.js';

const STATION = 1;
const ADDRESS = 9;
// Table A-1 (SAS 6.02 Appendix A), written here from the document, not from the machine side.
const A1 = {
  slotDoorOpened: 0x11,
  slotDoorClosed: 0x12,
  powerApplied: 0x17,
  powerLost: 0x18,
  billJam: 0x28,
  ticketPrinted: 0x3d,
  bill100: 0x4c,
  handpayPending: 0x51,
  handpayReset: 0x52,
  ticketInserted: 0x67,
  ticketTransferComplete: 0x68,
  gameStarted: 0x7e,
  gameEnded: 0x7f,
} as const;

async function until(test: () => boolean, what: string, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('SAS exceptions from the journal, through the host start', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-journal-'));
  const dataDir = path.join(dir, 'data');
  let running: RunningHost | null = null;
  let pair: Awaited<ReturnType<typeof ptyPair>> | null = null;
  let io: HostIo | null = null;
  let host: SasHost;
  /** Every exception the simulator acknowledged, in the order it saw them. */
  const seen: number[] = [];

  const config: TableConfig = (() => {
    const c = simulatedTableConfig('war');
    c.stations = c.stations.map((s) =>
      s.station === STATION ? { ...s, printer: 'sim', sas: { link: `serial:${path.join(dir, 'sas-machine')}`, address: ADDRESS } } : s,
    );
    c.tickets = { ...c.tickets, machineId: 4801 };
    return c;
  })();
  const start = async (): Promise<RunningHost> =>
    (running = await startHost({
      dataDir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config,
      simulatedDealer: { dealMs: 5 },
      timings: { bettingMs: 300, decisionMs: 300, resultsMs: 100 },
      // No silence in this test is long enough to be a link-down: the link's faults have their own test.
      // Nor is any wait long enough for 51 to be reissued (§7.8.1: its own test, handpay-reissue.e2e.test.ts): a
      // restart under load can outlast 15 s, and the note kept across it would bring 51 again into the drains.
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000, handpayReissueMs: 600_000 },
    }));
  const connect = async (): Promise<void> => {
    pair = await ptyPair(dir);
    io = await openPtyHost(pair.host);
    host = new SasHost(io, ADDRESS);
  };
  /** General polls until the machine has nothing (each poll first acknowledges the last answer); then a meters poll, whose answer shows the last acknowledgement was heard. */
  const drain = async (): Promise<number[]> => {
    const got: number[] = [];
    for (let i = 0; i < 60; i++) {
      const code = i === 0 ? await firstPoll() : await host.generalPoll();
      if (code === 0) break;
      got.push(code);
    }
    await P.meters1C(host);
    seen.push(...got);
    return got;
  };
  /**
   * A general poll answered, after a start or a reconnect: the machine opens its port after a
   * moment, and a poll written before then is read when it does (the pty keeps it). So one poll
   * with a long window, never a quick retry whose late answer would be read as the next one's.
   */
  const firstPoll = async (): Promise<number> => {
    for (let i = 0; i < 5; i++) {
      await host.pollOther();
      const a = await host.exchange([0x80 | ADDRESS], 1, 3_000);
      if (a?.[0] !== undefined) return a[0];
    }
    return assert.fail('the machine never answered a general poll');
  };
  /** A 100-pataca note inserted and credited. */
  const note = async (): Promise<void> => {
    const before = r().ledger.credit(STATION);
    r().devices.billAcceptors.simulator(STATION)?.insertNote(100);
    await until(() => r().ledger.credit(STATION) === before + 10_000, 'the note credited');
  };
  /** What the host simulator reads of the station's meters equals what the ledger says of it (the meter map, docs/sas.md). */
  const metersMatch = async (what: string): Promise<void> => {
    const m = r().ledger.meters(`station:${STATION}`);
    const v = (name: string): number => m[name] ?? 0;
    assert.deepEqual(
      await P.meters1C(host),
      {
        coinIn: v('creditsWagered'),
        coinOut: v('creditsWon'),
        drop: v('totalIn'),
        jackpot: v('jackpotHandpays'),
        gamesPlayed: v('gamesPlayed'),
        gamesWon: v('gamesWon'),
        slotDoorOpened: v('doorOpens'),
        powerResets: r().ledger.meters('table').powerResets ?? 0,
      },
      `0x1C ${what}`,
    );
    assert.equal(await P.singleMeter(host, 0x1a), r().ledger.credit(STATION), `current credits ${what}`);
    const selected = await P.selected2F(host, [0x03, 0x04, 0x07, 0x0b, 0x15, 0x16]);
    assert.deepEqual(
      Object.fromEntries(selected),
      {
        3: v('handpaidCancelledCredits'),
        4: v('cancelledCredits'),
        7: v('gamesLost'),
        11: v('totalBillsIn'),
        21: v('ticketsInAmount'),
        22: v('ticketsOutAmount'),
      },
      `0x2F ${what}`,
    );
  };
  const r = (): RunningHost => {
    assert.ok(running);
    return running;
  };

  before(async () => {
    await connect();
    await start();
  });
  after(async () => {
    await io?.close();
    await running?.close();
    pair?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the first start is power applied; a note is its denomination; a round starts and ends', async () => {
    assert.deepEqual(await drain(), [A1.powerApplied], 'no run before this one: no power lost');
    await note();
    assert.deepEqual(await drain(), [A1.bill100], 'a 100-pataca note: Table A-1 0x4C by face value');
    const settled = r().ledger.rounds.recall({ station: STATION }).length;
    await until(() => r().table.reads.view().phase === 'betting' && r().table.reads.station(STATION).betting.open, 'a betting window');
    assert.deepEqual(r().table.commands.placeBet(STATION, { bet: 'main' }, 10_000), { ok: true });
    await until(() => r().ledger.rounds.recall({ station: STATION }).length > settled, 'the round settled');
    assert.deepEqual(await drain(), [A1.gameStarted, A1.gameEnded]);
    assert.equal(r().ledger.meters(`station:${STATION}`).gamesPlayed, 1);
    await metersMatch('after a note and a round');
  });

  it('a ticket out and in, and a door: the priority exceptions first, then the queue in journal order', async () => {
    await note();
    assert.deepEqual(await drain(), [A1.bill100]);
    await until(() => r().floor.tickets.whyNot(STATION, r().ledger.credit(STATION)) === null, 'the printer ready');
    const out = await r().floor.tickets.cashOut(STATION);
    assert.equal(out.kind, 'printed');
    if (out.kind !== 'printed') return;
    // The door opened before the ticket is inserted: the door is queued, the ticket's exceptions are priority ones.
    r().ledger.append({ type: 'door.open', payload: { door: 'main', station: STATION } });
    const requestId = RequestId.parse('sas-journal-0001');
    r().ledger.append({
      type: 'ticket.redeem.request',
      payload: { requestId, validation: out.validation, station: STATION },
      txId: ticketInTxId(requestId, 'request'),
    });
    r().ledger.append({
      type: 'ticket.redeem.returned',
      payload: { requestId, validation: out.validation, station: STATION, reason: 'player-cancelled' },
      txId: ticketInTxId(requestId, 'end'),
    });
    r().ledger.append({ type: 'door.close', payload: { door: 'main', station: STATION } });
    // The priority exceptions first (§2.2.1), in the journal's order among themselves; then the FIFO: the door opened, closed.
    assert.deepEqual(await drain(), [A1.ticketPrinted, A1.ticketInserted, A1.ticketTransferComplete, A1.slotDoorOpened, A1.slotDoorClosed]);
    assert.ok((r().ledger.meters(`station:${STATION}`).ticketsOutAmount ?? 0) > 0, 'the ticket is on the ledger’s ticket-out meter');
    await metersMatch('after a ticket out');
  });

  it('a power cycle: what was journalled and not acknowledged comes after the restart, then power lost and applied', async () => {
    await note();
    const cash = r().floor.handpays.cashOut(STATION);
    assert.ok(cash.ok);
    // The host reads the handpay pending (a priority exception, before the note) and acknowledges it; the note it never reads.
    assert.equal(await host.generalPoll(), A1.handpayPending);
    await P.meters1C(host);
    seen.push(A1.handpayPending);
    await r().close();
    running = null;
    await start();
    assert.deepEqual(await drain(), [A1.bill100, A1.powerLost, A1.powerApplied]);
    const paid = r().floor.handpays.confirm(cash.requestTxId, 'attendant-1');
    assert.ok(paid.ok);
    assert.deepEqual(await drain(), [A1.handpayReset]);
    assert.ok((r().ledger.meters(`station:${STATION}`).handpaidCancelledCredits ?? 0) > 0);
    await metersMatch('after a handpay and a restart');
  });

  it('the link killed and made again: what was journalled meanwhile comes once; a device fault too; nothing twice', async () => {
    await io?.close();
    io = null;
    pair?.socat.kill();
    pair = null;
    r().ledger.append({ type: 'door.open', payload: { door: 'main', station: STATION } });
    r().ledger.append({ type: 'door.close', payload: { door: 'main', station: STATION } });
    await connect();
    // The machine reopens its port after its backoff: the first polls may go unanswered (drain's first poll waits).
    assert.deepEqual(await drain(), [A1.slotDoorOpened, A1.slotDoorClosed]);
    r().devices.billAcceptors.simulator(STATION)?.faults.jam();
    await until(
      () =>
        r()
          .floor.tilts.list()
          .some((t) => t.kind === 'bill-jam'),
      'the jam',
    );
    assert.deepEqual(await drain(), [A1.billJam]);
    assert.deepEqual(await drain(), []);
    assert.deepEqual(seen, [
      A1.powerApplied,
      A1.bill100,
      A1.gameStarted,
      A1.gameEnded,
      A1.bill100,
      A1.ticketPrinted,
      A1.ticketInserted,
      A1.ticketTransferComplete,
      A1.slotDoorOpened,
      A1.slotDoorClosed,
      A1.handpayPending,
      A1.bill100,
      A1.powerLost,
      A1.powerApplied,
      A1.handpayReset,
      A1.slotDoorOpened,
      A1.slotDoorClosed,
      A1.billJam,
    ]);
  });
});
