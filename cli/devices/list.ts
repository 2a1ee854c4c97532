// `devices list [--json]`: USB devices seen, with the driver that would claim them.
import { defineCommand, options } from '../command.js';
import { KNOWN_BRIDGES, bridgeDriverFor, nodeUsbBus, type UsbDeviceLike } from '../../hardware/index.js';

const h4 = (n: number): string => n.toString(16).padStart(4, '0');

export function describeDevice(d: UsbDeviceLike): { spec: string; product: string; bridge: string | null; protocols: string[] } {
  const bridge = bridgeDriverFor(d);
  const known = KNOWN_BRIDGES.find((b) => b.vid === d.vendorId && b.pid === d.productId);
  // ITL validators enumerate as CDC-ACM 191c:4104 and speak SSP; a plain serial bridge may carry
  // an ID-003 acceptor or a shoe, which the technician selects with --protocol.
  const protocols = d.vendorId === 0x191c ? ['ssp'] : bridge ? ['id003', 'ssp', 'framed', 'ascii'] : [];
  return {
    spec: `usb:${h4(d.vendorId)}:${h4(d.productId)}${d.serialNumber ? ':' + d.serialNumber : ''}`,
    product: [d.manufacturerName, d.productName].filter(Boolean).join(' ') || known?.name || '',
    bridge,
    protocols,
  };
}

export const command = defineCommand({
  name: 'devices list',
  summary: 'USB devices seen, with the driver that would claim them and the protocols they may speak.',
  usage: 'usage: etg devices list [--json]',
  options: { json: { type: 'boolean', default: false, help: 'print JSON' } },
});

export function run(argv: string[]): Promise<number> {
  return list(options(command, argv));
}

async function list(values: { readonly json: boolean }): Promise<number> {
  let devices: UsbDeviceLike[];
  try {
    devices = await (await nodeUsbBus()).getDevices();
  } catch (e) {
    // No USB subsystem (CI, containers): not an error of the tool.
    console.error(`devices list: no USB bus available (${(e as Error).message})`);
    devices = [];
  }
  const rows = devices.map(describeDevice);
  if (values.json) {
    console.log(JSON.stringify(rows));
    return 0;
  }
  if (rows.length === 0) {
    console.log('No USB devices. Use the spec "sim" for the simulators, or tcp:HOST:PORT for a serial device server.');
    return 0;
  }
  for (const r of rows) console.log(`${r.spec.padEnd(28)} ${(r.bridge ?? '(no serial driver)').padEnd(18)} ${r.protocols.join('|').padEnd(24)} ${r.product}`);
  return 0;
}
