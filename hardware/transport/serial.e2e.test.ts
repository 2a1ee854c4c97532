// The `serial:` transport end to end: the ID-003 driver on one end of a pseudo-terminal pair made
// by socat, the ID-003 simulator on the other, a note inserted, escrowed, stacked and credited
// once. Both ends open their tty through the `serialport` package with ID-003's line (9600 8E1).
// A pty takes the termios settings but frames nothing: parity and the baud rate are not on any
// wire, so this tests the transport and the driver over a real tty, not the UART's framing (that
// is the USB bridges' fake in transport.test.ts, which garbles a mismatched line).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Id003Simulator } from '../billacceptor/id003/simulator.js';
import type { BillAcceptorEvent, Credit } from '../billacceptor/types.js';
import { openBillAcceptor } from '../open.js';
import { runBillCommand } from '../sim/commands.js';
import { EventRecorder } from '../sim/recorder.js';
import { serveDeviceOnSerial } from '../sim/serial-device.js';
import { LINE_8E1_9600 } from './byte-port.js';

const FAST = { pollIntervalMs: 20, replyTimeoutMs: 300, reconnectBaseMs: 20, reconnectMaxMs: 200, escrowTimeoutMs: 2000 };

/** A linked pair of pseudo-terminals, `a` and `b`, as long as socat runs. */
async function ptyPair(dir: string): Promise<{ a: string; b: string; socat: ChildProcess }> {
  const a = path.join(dir, 'host-end');
  const b = path.join(dir, 'device-end');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  socat.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    socat.once('error', (e) => reject(new Error(`socat could not start (${e.message}): apt-get install socat`)));
    socat.once('exit', (code) => reject(new Error(`socat exited with ${code}: ${stderr}`)));
    const started = Date.now();
    const poll = setInterval(() => {
      if (existsSync(a) && existsSync(b)) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > 5000) {
        clearInterval(poll);
        reject(new Error(`socat made no pty pair in 5 s: ${stderr}`));
      }
    }, 20);
  });
  socat.removeAllListeners('exit');
  return { a, b, socat };
}

describe('serial: transport over a pseudo-terminal pair (socat)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'serial-e2e-'));
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  before(async () => {
    pair = await ptyPair(dir);
  });
  after(() => {
    pair?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ID-003 at 9600 8E1: a note inserted at the device end is escrowed, stacked and credited once at the serial: end', async () => {
    const sim = new Id003Simulator({ currency: 'HKD' });
    assert.deepEqual(sim.line, LINE_8E1_9600);
    const device = await serveDeviceOnSerial(sim, pair.b);
    const credits: Credit[] = [];
    const spec = `serial:${pair.a}`;
    const acceptor = openBillAcceptor(spec, { protocol: 'id003', currency: 'HKD', enabled: true, ...FAST, onCredit: (c) => void credits.push(c) });
    const rec = new EventRecorder<BillAcceptorEvent>();
    acceptor.on(rec.listener);
    try {
      await rec.until(() => rec.of('idle').some((e) => e.enabled), 10_000, 'the acceptor enabled and idle');
      assert.equal(runBillCommand(sim, 'insert 100'), 'ok inserted 100');
      await rec.until(() => credits.length === 1 && sim.cashbox.length === 1, 10_000, 'the note credited and in the cashbox');
      assert.deepEqual(
        credits.map((c) => c.amount),
        [10_000],
        'HK$100 credited as 10,000 cents',
      );
      assert.deepEqual(sim.cashbox, [100]);
      assert.ok(rec.types().includes('escrowed') && rec.types().includes('stacking'), `events: ${rec.types().join(', ')}`);
      console.log(`${spec} ⇄ ${device.description} (9600 8E1 set; the pty ignores parity): ${rec.types().join(' → ')}; credited ${credits[0]?.amount}`);
      // Nothing more is credited for the same note.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(credits.length, 1);
    } finally {
      await acceptor.close();
      await device.close();
    }
  });

  it('a port that goes away (the pty pair closed) is a lost link: the driver reports it disconnected', async () => {
    const own = await ptyPair(mkdtempSync(path.join(dir, 'gone-')));
    const sim = new Id003Simulator({ currency: 'HKD' });
    const device = await serveDeviceOnSerial(sim, own.b);
    const acceptor = openBillAcceptor(`serial:${own.a}`, { protocol: 'id003', currency: 'HKD', enabled: true, ...FAST });
    const rec = new EventRecorder<BillAcceptorEvent>();
    acceptor.on(rec.listener);
    try {
      await rec.until(() => rec.of('idle').some((e) => e.enabled), 10_000, 'the acceptor enabled and idle');
      // The read side of a pty may not notice; the driver's next poll (a write) fails with EIO.
      own.socat.kill();
      await rec.untilCount('disconnected', 1, 10_000);
    } finally {
      await acceptor.close();
      await device.close();
    }
  });

  it('refuses a second opener of a port in use, and a port that does not exist, with the path in the error', async () => {
    const { SerialBytePort } = await import('./serial.js');
    const first = await SerialBytePort.open(pair.a, LINE_8E1_9600);
    try {
      await assert.rejects(SerialBytePort.open(pair.a, LINE_8E1_9600), new RegExp(`serial:${pair.a}`));
    } finally {
      await first.close();
    }
    await assert.rejects(SerialBytePort.open(path.join(dir, 'no-such-port'), LINE_8E1_9600), /serial:.*no-such-port/);
  });
});
