// The host's Printers over a printer the test speaks for: station 1 of the simulated table has a
// printer whose every event the test emits (`emit`), nothing on a wire.
import assert from 'node:assert/strict';
import type { PrinterEvent } from '../../hardware/printer/types.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { Printers, type PrinterDeps } from '../../host/devices/printers.js';

export function scriptedPrinters(deps: Omit<PrinterDeps, 'config' | 'open'>): { printers: Printers; emit: (e: PrinterEvent) => void } {
  const c = simulatedTableConfig();
  const first = c.stations[0];
  assert.ok(first);
  let listener: (e: PrinterEvent) => void = () => undefined;
  const printers = new Printers({
    ...deps,
    config: { ...c, stations: [{ ...first, printer: 'script' }] },
    open: () => ({
      protocol: 'tcl',
      condition: null,
      ready: false,
      on: (l) => {
        listener = l;
        return () => undefined;
      },
      onFrame: () => () => undefined,
      start: () => undefined,
      // The scripted printer only speaks: a ticket printed on it would be the test's defect.
      print: () => Promise.reject(new Error('the scripted printer prints nothing')),
      resolve: () => Promise.reject(new Error('the scripted printer prints nothing')),
      close: async () => undefined,
    }),
  });
  printers.start();
  return { printers, emit: (e) => listener(e) };
}
