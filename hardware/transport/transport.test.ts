import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../bytes.js';
import { ByteDevice } from '../sim/device-side.js';
import { LINE_8E1_9600, LINE_8N2_9600, type BytePort, type LineSettings } from './byte-port.js';
import type { FakeUsbDevice } from './fake-usb.js';
import { ftdiBaudFromDivisor } from './fake-bridge.js';
import { FakeUsbBus } from './fake-usb.js';
import { parseSpec, formatSpec } from './spec.js';
import { TcpPort } from './tcp.js';
import { UsbSerialPort, bridgeDriverFor, cdcLineCoding, cp210xLineCtl, ftdiBaudDivisor, ftdiDataValue, stripFtdiStatus } from './usb-serial.js';

class Echo extends ByteDevice {
  constructor(readonly line: LineSettings) {
    super();
  }
  receive(bytes: Uint8Array): void {
    this.transmit(bytes);
  }
}

function collect(port: BytePort, n: number): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const got: number[] = [];
    const off = port.onData((b) => {
      got.push(...b);
      if (got.length >= n) {
        off();
        resolve(Uint8Array.from(got));
      }
    });
  });
}

describe('bridge constants (research note §2, recomputed)', () => {
  it('FTDI baud divisors', () => {
    assert.equal(ftdiBaudDivisor(9600), 0x4138);
    assert.equal(ftdiBaudDivisor(19200), 0x809c);
    assert.equal(ftdiBaudDivisor(38400), 0xc04e);
    assert.equal(ftdiBaudDivisor(115200), 0x001a);
    for (const b of [9600, 19200, 38400]) assert.equal(ftdiBaudFromDivisor(ftdiBaudDivisor(b)), b);
    // 115200 is not exact on a 48 MHz FT232 (115385, +0.16 %): within UART tolerance.
    assert.ok(Math.abs(ftdiBaudFromDivisor(ftdiBaudDivisor(115200)) - 115200) < 0.01 * 115200);
  });
  it('FTDI SET_DATA values', () => {
    assert.equal(ftdiDataValue(LINE_8E1_9600), 0x0208);
    assert.equal(ftdiDataValue({ baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 }), 0x0008);
    assert.equal(ftdiDataValue({ baudRate: 9600, dataBits: 7, parity: 'even', stopBits: 1 }), 0x0207);
    assert.equal(ftdiDataValue(LINE_8N2_9600), 0x1008);
  });
  it('CDC line coding and CP210x line control', () => {
    assert.equal(toHex(cdcLineCoding(LINE_8N2_9600)), '80 25 00 00 02 00 08');
    assert.equal(toHex(cdcLineCoding(LINE_8E1_9600)), '80 25 00 00 00 02 08');
    assert.equal(cp210xLineCtl(LINE_8E1_9600), 0x0820);
  });
  it('strips two status bytes from every 64-byte chunk and flags line errors', () => {
    const chunk1 = [0x31, 0x60, ...Array.from({ length: 62 }, (_, i) => i)];
    const chunk2 = [0x31, 0x60, 0xaa, 0xbb];
    const r = stripFtdiStatus(Uint8Array.from([...chunk1, ...chunk2]), 64);
    assert.equal(r.data.length, 64);
    assert.equal(r.data[61], 61);
    assert.equal(r.data[62], 0xaa);
    assert.equal(r.lineError, false);
    assert.equal(stripFtdiStatus(Uint8Array.from([0x01, 0x60]), 64).data.length, 0);
    assert.equal(stripFtdiStatus(Uint8Array.from([0x01, 0x64, 1]), 64).lineError, true);
  });
});

describe('USB-serial bridges over the fake USBDevice', () => {
  for (const kind of ['cdc-acm', 'ftdi', 'cp210x', 'pl2303'] as const) {
    it(`${kind}: sets the line, claims interfaces, and moves bytes both ways`, async () => {
      const bus = new FakeUsbBus();
      const dev = bus.plug(new Echo(LINE_8E1_9600), { kind });
      assert.equal(bridgeDriverFor(dev), kind);
      const port = await UsbSerialPort.open(dev, LINE_8E1_9600, { bus, readTimeoutMs: 50 });
      assert.deepEqual(dev.bridge.line, LINE_8E1_9600);
      assert.equal(dev.bridge.dtr, true);
      const payload = Uint8Array.from({ length: 200 }, (_, i) => (i * 7) & 0xff); // several packets
      const got = collect(port, payload.length);
      await port.write(payload);
      assert.deepEqual(await got, payload);
      if (kind === 'ftdi') assert.equal(dev.bridge.latencyMs, 2);
      if (kind === 'pl2303')
        assert.deepEqual(dev.bridge.vendorWrites, [
          [0x0404, 0],
          [0x0404, 1],
          [0, 1],
          [1, 0],
          [2, 0x44],
        ]);
      await port.close();
    });
  }

  it('FTDI: a chunk flagged with a parity error is dropped, later bytes flow', async () => {
    const bus = new FakeUsbBus();
    const dev = bus.plug(new Echo(LINE_8E1_9600), { kind: 'ftdi' });
    const port = (await UsbSerialPort.open(dev, LINE_8E1_9600, { bus, readTimeoutMs: 50 })) as UsbSerialPort;
    dev.bridge.faults.parityErrorNext = true;
    await port.write(fromHex('01 02 03'));
    const got = collect(port, 2);
    await new Promise((r) => setTimeout(r, 30));
    await port.write(fromHex('04 05'));
    assert.equal(toHex(await got), '04 05');
    assert.equal(port.lineErrors, 1);
    await port.close();
  });

  it('a wedged (stalling) IN endpoint closes the port instead of spinning', async () => {
    const bus = new FakeUsbBus();
    const dev = bus.plug(new Echo(LINE_8E1_9600), { kind: 'cdc-acm' });
    const port = await UsbSerialPort.open(dev, LINE_8E1_9600, { bus, readTimeoutMs: 50 });
    const closed = new Promise<Error | undefined>((r) => port.onClose(r));
    dev.bridge.faults.stallIn = true;
    assert.match(String((await closed)?.message), /stall/);
  });

  it('wrong line settings garble the bytes (the device expects 8E1)', async () => {
    const bus = new FakeUsbBus();
    const dev = bus.plug(new Echo(LINE_8E1_9600), { kind: 'cdc-acm' });
    const port = await UsbSerialPort.open(dev, LINE_8N2_9600, { bus, readTimeoutMs: 50 });
    const got = collect(port, 2);
    await port.write(fromHex('FC 05'));
    assert.notEqual(toHex(await got), 'FC 05');
    await port.close();
  });

  it('unplug closes the port; replug gives a new device that opens again', async () => {
    const bus = new FakeUsbBus();
    const dev = bus.plug(new Echo(LINE_8E1_9600), { kind: 'ftdi' });
    const port = await UsbSerialPort.open(dev, LINE_8E1_9600, { bus, readTimeoutMs: 50 });
    const closed = new Promise<Error | undefined>((r) => port.onClose(r));
    const dev2 = bus.replug(dev);
    assert.match(String((await closed)?.message), /unplugged/);
    await assert.rejects(port.write(fromHex('00')));
    assert.equal((await bus.getDevices()).length, 1);
    const port2 = await UsbSerialPort.open(dev2 as FakeUsbDevice, LINE_8E1_9600, { bus, readTimeoutMs: 50 });
    const got = collect(port2, 1);
    await port2.write(fromHex('7F'));
    assert.equal(toHex(await got), '7F');
    await port2.close();
  });
});

describe('device specs', () => {
  it('parses and formats', () => {
    assert.deepEqual(parseSpec('sim'), { kind: 'sim' });
    assert.deepEqual(parseSpec('usb:0403:6001'), { kind: 'usb', vendorId: 0x403, productId: 0x6001 });
    assert.deepEqual(parseSpec('usb:191c:4104:ABC'), { kind: 'usb', vendorId: 0x191c, productId: 0x4104, serial: 'ABC' });
    assert.deepEqual(parseSpec('tcp:127.0.0.1:4555'), { kind: 'tcp', host: '127.0.0.1', port: 4555 });
    assert.deepEqual(parseSpec('serial:/dev/ttyS0'), { kind: 'serial', path: '/dev/ttyS0' });
    assert.deepEqual(parseSpec('serial:/dev/serial/by-id/usb-FTDI_FT232R-if00'), { kind: 'serial', path: '/dev/serial/by-id/usb-FTDI_FT232R-if00' });
    assert.equal(formatSpec(parseSpec('usb:191c:4104:ABC')), 'usb:191c:4104:ABC');
    assert.equal(formatSpec(parseSpec('serial:/dev/ttyS0')), 'serial:/dev/ttyS0');
    for (const bad of ['', 'usb:xyz:1', 'tcp:host', 'tcp:h:99999', 'serial:', 'serial:ttyS0', 'serial:/dev/tty S0', 'serial:/dev/$(x)', 'ttyS0'])
      assert.throws(() => parseSpec(bad), bad);
  });
});

describe('TCP transport', () => {
  it('moves bytes and reports a dropped connection', async () => {
    const server = net.createServer((s) => {
      s.on('data', (d) => {
        s.write(d);
        s.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = await TcpPort.open('127.0.0.1', (server.address() as net.AddressInfo).port);
    const closed = new Promise((r) => port.onClose(r));
    const got = collect(port, 3);
    await port.write(fromHex('01 02 03'));
    assert.equal(toHex(await got), '01 02 03');
    await closed;
    assert.equal(port.closed, true);
    server.close();
  });

  it('a device server that stops reading: a write gives up within its timeout and the link is lost', async () => {
    const held: net.Socket[] = [];
    const server = net.createServer((s) => {
      s.pause(); // accepts, never reads: the kernel's buffers fill, the write's callback never comes
      held.push(s);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = await TcpPort.open('127.0.0.1', (server.address() as net.AddressInfo).port, { writeTimeoutMs: 300 });
    const closed = new Promise((r) => port.onClose(r));
    const t0 = Date.now();
    const outcome = await Promise.race([
      port.write(new Uint8Array(64 * 1024 * 1024)).then(
        () => 'written',
        (e: Error) => e.message,
      ),
      new Promise<string>((r) => setTimeout(() => r('still waiting after 5 s'), 5000).unref()),
    ]);
    assert.match(outcome, /write timed out/);
    assert.ok(Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
    await closed;
    assert.equal(port.closed, true);
    for (const s of held) s.destroy();
    server.close();
  });
});
