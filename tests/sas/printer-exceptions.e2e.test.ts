// The ticket printer's faults reach the casino's system (docs/sas.md, "Exceptions from the
// journal"): a real host with station 1's simulated printer and its SAS link on a socat pty pair.
// Paper out is journalled as the station's `printer-paper-out` fault and the host simulator reads
// exception 61 once, however many status polls the printer answers meanwhile; the printer's
// cable pulled (its link lost) is `printer-offline` and exception 60, once; a jam is `printer-jam`
// and 78 (carriage jam), the head open `printer-fault` and 20 (general tilt), once each. A fault
// cleared and raised again is a new exception; nothing comes twice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';

const STATION = 1;
const ADDRESS = 11;
// Table A-1 (SAS 6.02 Appendix A), written here from the document, not from the machine side.
const A1 = { powerApplied: 0x17, generalTilt: 0x20, printerCommError: 0x60, printerPaperOut: 0x61, printerCarriageJam: 0x78 } as const;

async function until(test: () => boolean, what: string, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe("the ticket printer's faults as SAS exceptions", { timeout: 180_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-printer-'));
  let running: RunningHost;
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  let io: HostIo | null = null;
  let host: SasHost;
  const held = (kind: string) => running.floor.tilts.list().some((t) => t.kind === kind && t.station === STATION);
  const printer = () => running.devices.printers.simulator(STATION) ?? assert.fail('no simulated printer');

  before(async () => {
    pair = await ptyPair(dir);
    const config = simulatedTableConfig('war');
    config.stations = config.stations.map((s) =>
      s.station === STATION ? { ...s, printer: 'sim', sas: { link: `serial:${pair.machine}`, address: ADDRESS } } : s,
    );
    running = await startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config,
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000, handpayReissueMs: 600_000 },
    });
    io = await openPtyHost(pair.host);
    host = new SasHost(io, ADDRESS);
  });
  after(async () => {
    await io?.close();
    await running?.close();
    pair?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** General polls until the machine has nothing (each poll acknowledges the last answer). */
  const drain = async (first = false): Promise<number[]> => {
    const got: number[] = [];
    if (first) {
      for (let i = 0; i < 5 && got.length === 0; i++) {
        await host.pollOther();
        const a = await host.exchange([0x80 | ADDRESS], 1, 3_000);
        if (a?.[0] !== undefined && a[0] !== 0) got.push(a[0]);
        else if (a?.[0] === 0) return got;
      }
    }
    for (let i = 0; i < 30; i++) {
      const code = await host.generalPoll();
      if (code === 0) break;
      got.push(code);
    }
    await host.pollOther(); // acknowledges the last
    return got;
  };

  it('paper out is 61 once while it lasts; paper back and out again is 61 again', async () => {
    assert.deepEqual(await drain(true), [A1.powerApplied]);
    await until(() => running.devices.printers.statuses().some((s) => s.station === STATION && s.state === 'ready'), 'the printer ready');
    printer().faults.paperOut(true);
    await until(() => held('printer-paper-out'), 'the paper-out fault');
    await sleep(1_500); // the printer answers several status polls, each still out of paper
    assert.deepEqual(await drain(), [A1.printerPaperOut]);
    printer().faults.paperOut(false);
    await until(() => !held('printer-paper-out'), 'the paper-out fault cleared');
    assert.deepEqual(await drain(), [], 'paper back has no code of its own');
    printer().faults.paperOut(true);
    await until(() => held('printer-paper-out'), 'paper out again');
    assert.deepEqual(await drain(), [A1.printerPaperOut]);
    printer().faults.paperOut(false);
    await until(() => !held('printer-paper-out'), 'cleared again');
  });

  it('a jam is 78 and the head open 20, once each while they last; cleared, nothing more', async () => {
    printer().faults.jam();
    printer().faults.openHead(true);
    await until(() => held('printer-jam') && held('printer-fault'), 'the jam and the head-open faults');
    await sleep(1_000); // several status polls, each still jammed and open
    assert.deepEqual(
      (await drain()).sort((a, b) => a - b),
      [A1.generalTilt, A1.printerCarriageJam],
    );
    printer().faults.clearJam();
    printer().faults.openHead(false);
    await until(() => !held('printer-jam') && !held('printer-fault'), 'both cleared');
    assert.deepEqual(await drain(), [], 'a fault cleared has no code of its own');
  });

  it('a printer unplugged is 60 once; plugged back, nothing more', async () => {
    printer().unplug();
    await until(() => held('printer-offline'), 'the printer-offline fault', 30_000);
    await sleep(1_000);
    assert.deepEqual(await drain(), [A1.printerCommError]);
    printer().replug();
    await until(() => !held('printer-offline'), 'the printer back', 30_000);
    assert.deepEqual(await drain(), []);
  });
});
