// A ticket printer that only speaks: the tests of what the host does with a printer's events (its
// faults, its logs) emit them by hand. It prints nothing: a print or a resolve is the test's defect.
import type { PrinterEvent } from '../../hardware/printer/types.js';
import type { PrinterDevice } from '../devices/printers.js';

export function speakingPrinter(): { device: PrinterDevice; emit: (e: PrinterEvent) => void } {
  let listener: (e: PrinterEvent) => void = () => undefined;
  const device: PrinterDevice = {
    protocol: 'tcl',
    condition: null,
    ready: false,
    on: (l) => ((listener = l), () => undefined),
    onFrame: () => () => undefined,
    start: () => undefined,
    print: () => Promise.reject(new Error('no ticket is printed in this test')),
    resolve: () => Promise.reject(new Error('no ticket is printed in this test')),
    close: async () => undefined,
  };
  return { device, emit: (e) => listener(e) };
}
