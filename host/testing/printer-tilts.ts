// One station's ticket printer, spoken for by the test (speaking-printer.ts), with its faults
// journalled by a real tilt manager over an in-memory ledger: the tests of which faults a
// printer's events raise and clear, and in what words, read them back from the journal as a
// reviewer would.
import assert from 'node:assert/strict';
import pino, { type Logger } from 'pino';
import type { PrinterEvent } from '../../hardware/printer/types.js';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import type { Said } from '../../locales/said.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { Printers, type PrinterDeps } from '../devices/printers.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { speakingPrinter } from './speaking-printer.js';

/** A fault's raise or clear as the journal holds it (the fields these tests read). */
export interface JournalledTilt {
  kind: string;
  station?: number;
  detail?: string;
  say?: Said;
}

export interface PrinterTilts {
  /** The printer's station (the first of the simulated table). */
  station: number;
  tilts: TiltManager;
  emit: (e: PrinterEvent) => void;
  /** Every raise or clear journalled so far, in order. */
  journalled: (type: 'tilt.raise' | 'tilt.clear') => JournalledTilt[];
  close: () => Promise<void>;
}

type Timings = Pick<PrinterDeps, 'paperBackMs' | 'stuckMs'>;

/** The printer alone: its faults go where the test says (a fake that throws, say). */
export function onePrinter(o: { log: Logger; faults: NonNullable<PrinterDeps['faults']> } & Timings) {
  const config = simulatedTableConfig();
  const first = config.stations[0];
  assert.ok(first);
  const fake = speakingPrinter();
  const printers = new Printers({
    config: { ...config, stations: [{ ...first, printer: 'fake' }] },
    log: o.log,
    open: () => fake.device,
    faults: o.faults,
    ...(o.paperBackMs === undefined ? {} : { paperBackMs: o.paperBackMs }),
    ...(o.stuckMs === undefined ? {} : { stuckMs: o.stuckMs }),
  });
  printers.start();
  return { station: first.station, emit: fake.emit, close: () => printers.close() };
}

export function printerTilts(o: { terminalId: string } & Timings): PrinterTilts {
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: o.terminalId });
  const tilts = new TiltManager({ ledger, log });
  const printer = onePrinter({ ...o, log, faults: tilts });
  return {
    station: printer.station,
    tilts,
    emit: printer.emit,
    journalled: (type) => [...entriesOfTypes(ledger, [type])].map((e) => (JSON.parse(e.body) as { payload: JournalledTilt }).payload),
    close: async () => {
      await printer.close();
      ledger.close();
    },
  };
}
