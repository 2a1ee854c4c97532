import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeUsbBus, Id003Simulator, ShoeSimulator, SspSimulator } from '../../hardware/index.js';
import { describeDevice } from './list.js';

describe('devices list', () => {
  it('names the driver that would claim each device', async () => {
    const bus = new FakeUsbBus();
    bus.plug(new SspSimulator(), { kind: 'cdc-acm', serialNumber: 'NV9-1' });
    bus.plug(new Id003Simulator(), { kind: 'ftdi', serialNumber: 'A1' });
    bus.plug(new ShoeSimulator({ protocol: 'framed' }), { kind: 'pl2303' });
    const rows = (await bus.getDevices()).map(describeDevice);
    assert.deepEqual(
      rows.map((r) => [r.spec, r.bridge, r.protocols[0]]),
      [
        ['usb:191c:4104:NV9-1', 'cdc-acm', 'ssp'],
        ['usb:0403:6001:A1', 'ftdi', 'id003'],
        ['usb:067b:2303:SIM0001', 'pl2303', 'id003'],
      ],
    );
  });
});
