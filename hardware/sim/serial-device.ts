// Serves a simulator's device side on a serial port: the simulator speaks its bytes on one end of
// a wire the operating system names (one side of a pseudo-terminal pair in the tests, or a real
// null-modem cable to a second port), so a driver opened with `serial:PATH` on the other end talks
// to it exactly as to a device on an RS-232 port.
import { SerialBytePort } from '../transport/serial.js';
import type { DeviceSide } from './device-side.js';

export interface SerialDevice {
  readonly description: string;
  close(): Promise<void>;
}

export async function serveDeviceOnSerial(side: DeviceSide, path: string): Promise<SerialDevice> {
  const port = await SerialBytePort.open(path, side.line);
  port.onData((bytes) => side.receive(bytes));
  side.attach((bytes) => void port.write(bytes).catch(() => undefined));
  port.onClose(() => side.attach(null));
  return { description: port.description, close: () => port.close() };
}
