// A `uart:` SAS line's termios, applied for real to a socat pseudo-terminal and read back with
// `stty -F PATH -a` by a separate process (docs/sas.md "Framing"). A pty has no line and no parity
// bit: its driver clears PARENB whatever is asked (so a `uart:` link refuses a pty, naming it) and
// never checks parity, so the wire itself — a wake-up byte marked FF 00 b, the chirp's mark parity
// — cannot be seen here; what a pty does show is that every other setting is taken, that the
// kernel's PARMRK doubles a received data FF, and that the mark/space switch reaches the device.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SerialPort } from 'serialport';
import { openSasLink } from '../../hardware/sas/link.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { SasUartError, configureSasUart, setStickParity } from '../../hardware/sas/uart-stty.js';
import { SasUartPort, serialUartLine } from '../../hardware/sas/uart.js';
import { encodeWire } from '../../hardware/sas/wire.js';
import { SerialBytePort } from '../../hardware/transport/serial.js';
import { MemoryGame } from './fixture.js';
import { ptyPair } from './host/io.js';

/** The flags of `stty -F file -a`, read by a process of its own. */
const sttyA = (file: string): string[] => execFileSync('stty', ['-F', file, '-a'], { encoding: 'utf8' }).split(/[\s;]+/);

async function until(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SAS on a real UART: the termios over a socat pty pair', () => {
  let dir = '';
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-uart-'));
    pair = await ptyPair(dir);
  });
  after(() => {
    pair.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('configured through our code: cmspar parmrk inpck -parodd -ignpar -istrip ignbrk taken; parenb not (a pty clears it), so refused naming it; a data FF from the far end read as FF FF', async () => {
    // Locked as a uart: link locks it (an advisory flock, which `stty -F` does not contend for).
    const port = new SerialPort({ path: pair.machine, baudRate: 19_200, lock: true, autoOpen: false });
    await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(e) : ok())));
    const host = await SerialBytePort.open(pair.host, { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 });
    try {
      assert.ok(!sttyA(pair.machine).includes('parmrk'), 'not marked before');
      await assert.rejects(
        configureSasUart(pair.machine),
        (e: unknown) => e instanceof SasUartError && e.fault === 'refused' && /did not take parenb:/.test(e.message),
      );
      const flags = sttyA(pair.machine);
      for (const f of ['cmspar', 'parmrk', 'inpck', '-parodd', '-ignpar', '-istrip', 'ignbrk', '-brkint', 'cs8', '-icanon', '-echo', '-ixon', '-opost'])
        assert.ok(flags.includes(f), `${f} in ${flags.join(' ')}`);
      assert.ok(flags.includes('-parenb'), 'the pty driver cleared PARENB');
      assert.match(execFileSync('stty', ['-F', pair.machine, 'speed'], { encoding: 'utf8' }), /^19200/);

      const got: number[] = [];
      port.on('data', (b: Buffer) => got.push(...b));
      await host.write(Uint8Array.of(0x01, 0xff, 0x80));
      await until('the bytes', () => got.length >= 4);
      assert.deepEqual(got, [0x01, 0xff, 0xff, 0x80], 'PARMRK doubles a valid FF; no ISTRIP keeps the eighth bit');

      await setStickParity(pair.machine, true);
      assert.ok(sttyA(pair.machine).includes('parodd'), 'mark');
      await setStickParity(pair.machine, false);
      assert.ok(sttyA(pair.machine).includes('-parodd'), 'space again');
    } finally {
      await host.close();
      await new Promise<void>((r) => port.close(() => r()));
    }
  });

  it('sending on the configured pty: the chirp leaves as the bare byte (the mark parity it went under is invisible on a pty), a data FF as one byte; a serial: link sends the fallback escapes instead', async () => {
    const port = new SerialPort({ path: pair.machine, baudRate: 19_200, lock: true, autoOpen: false });
    await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(e) : ok())));
    await configureSasUart(pair.machine).catch(() => undefined); // refused for parenb alone (above): the rest is set
    const uart = new SasUartPort(serialUartLine(port, pair.machine));
    const host = await SerialBytePort.open(pair.host, { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 });
    const got: number[] = [];
    host.onData((b) => got.push(...b));
    try {
      await Promise.all([uart.write(encodeWire(Uint8Array.of(0x09), true)), uart.write(encodeWire(Uint8Array.of(0x09, 0xff, 0x01)))]);
      await until('the bytes', () => got.length >= 4);
      assert.deepEqual(got, [0x09, 0x09, 0xff, 0x01]);
      assert.ok(sttyA(pair.machine).includes('-parodd'), 'back to space after the chirp');
      await uart.close();
      // The port's lock is let go at its close (a reopen below takes it): nothing of ours holds the device.
      got.length = 0;
      const serial = await SerialBytePort.open(pair.machine, { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 });
      await serial.write(encodeWire(Uint8Array.of(0x09), true));
      await until('the bytes', () => got.length >= 3);
      assert.deepEqual(got, [0xff, 0x00, 0x09], 'serial: carries the stream as bytes');
      await serial.close();
    } finally {
      await uart.close();
      await host.close();
    }
  });

  it('a uart: link that cannot be a SAS line is a fault with its reason, never a crash: a pty (no parity), a missing device, /dev/null (no terminal)', async () => {
    const game = new MemoryGame();
    const onPty = openSasLink(`uart:${pair.machine}`, { address: 9, game, silenceMs: 300, chirpMs: 100, reconnectBaseMs: 50, reconnectMaxMs: 200 });
    const missing = openSasLink(`uart:${path.join(dir, 'no-such-tty')}`, { address: 9, game, silenceMs: 300, reconnectBaseMs: 50, reconnectMaxMs: 200 });
    const events: SasLinkEvent[] = [];
    onPty.machine.events.on((e) => events.push(e));
    try {
      await until('the reasons', () => onPty.portProblem !== null && missing.portProblem !== null && events.length > 0);
      assert.match(onPty.portProblem?.report ?? '', /^uart:.*sas-machine: the device did not take parenb: it cannot carry the SAS wake-up bit by parity/);
      assert.equal(onPty.portProblem?.why, 'refused');
      assert.match(missing.portProblem?.report ?? '', /^uart:.*no-such-tty: .*(ENOENT|No such file)/);
      assert.equal(missing.portProblem?.why, 'open');
      assert.deepEqual(events[0], { type: 'link-down', reason: 'no-address' });
    } finally {
      await onPty.close();
      await missing.close();
    }
    await assert.rejects(configureSasUart('/dev/null'), (e: unknown) => e instanceof SasUartError && e.fault === 'not-a-tty');
    await assert.rejects(configureSasUart(path.join(dir, 'no-such-tty')), (e: unknown) => e instanceof SasUartError && e.fault === 'open');
    assert.throws(() => openSasLink('uart:dev/ttyS4', { address: 9, game }), /expected uart:PATH with an absolute device path/);
  });
});
