import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSpec } from '../../hardware/index.js';
import { DeviceSpec } from './device-spec.js';

describe("a station's device spec in the table configuration", () => {
  it('takes sim, usb:, tcp: and serial: with an absolute device path, as the hardware layer parses them', () => {
    for (const spec of [
      'sim',
      'usb:0403:6001',
      'usb:191c:4104:ABC',
      'tcp:10.0.0.5:4001',
      'serial:/dev/ttyS0',
      'serial:/dev/serial/by-id/usb-FTDI_FT232R-if00',
    ]) {
      assert.equal(DeviceSpec.parse(spec), spec);
      assert.doesNotThrow(() => parseSpec(spec), spec);
    }
  });

  it('refuses a relative or empty serial path, and anything else, with the shape it expects', () => {
    for (const spec of ['serial:', 'serial:ttyS0', 'serial:/dev/tty S0', 'ttyS0', 'com1']) {
      const r = DeviceSpec.safeParse(spec);
      assert.equal(r.success, false, spec);
      assert.throws(() => parseSpec(spec), spec);
    }
    assert.match(JSON.stringify(DeviceSpec.safeParse('serial:ttyS0').error?.issues), /serial:PATH/);
  });
});
