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
    open: () =>
      ({
        on: (l: (e: PrinterEvent) => void) => {
          listener = l;
          return () => undefined;
        },
        close: async () => undefined,
      }) as never,
  });
  printers.start();
  return { printers, emit: (e) => listener(e) };
}
