import type { Logger } from 'pino';
import { openPrinter, type OpenedPrinter } from '../../hardware/open.js';
import type { PrinterCondition } from '../../hardware/printer/condition.js';
import type { TicketPrinter } from '../../hardware/printer/types.js';
import type { TableConfig } from '../config/table-config.js';

/** What service mode shows of a station's printer. */
export interface PrinterStatus {
  station: number;
  device: string;
  spec: string;
  state: 'connecting' | 'ready' | 'disconnected' | 'fault';
  condition: PrinterCondition | null;
  firmware?: string;
}

export interface PrinterDeps {
  config: TableConfig;
  log: Logger;
  /** For tests: the device factory (default: the TCL driver, over the simulator for `sim`). */
  open?: typeof openPrinter;
  /** Told whenever a printer's state changes (its station's screen and service mode look again). */
  onChange?: (station: number) => void;
}

/** One ticket printer per station that has one in the configuration (`stations[].printer`), through the hardware layer. */
export class Printers {
  private readonly devices = new Map<number, OpenedPrinter>();
  private readonly status = new Map<number, PrinterStatus>();

  constructor(private readonly deps: PrinterDeps) {}

  start(): void {
    const open = this.deps.open ?? openPrinter;
    for (const s of this.deps.config.stations) {
      if (!s.printer) continue;
      const device = `PR-${s.station}`;
      this.status.set(s.station, { station: s.station, device, spec: s.printer, state: 'connecting', condition: null });
      const p = open(s.printer);
      p.on((e) => {
        const st = this.status.get(s.station);
        if (!st) return;
        if (e.type === 'connected') Object.assign(st, { state: 'ready', firmware: e.firmware });
        else if (e.type === 'disconnected') st.state = 'disconnected';
        else if (e.type === 'reconnected') st.state = 'ready';
        else if (e.type === 'condition') Object.assign(st, { condition: e.condition, state: e.condition.faults.length > 0 ? 'fault' : 'ready' });
        else if (e.type === 'protocolViolation' || e.type === 'failure') this.deps.log.warn({ station: s.station, event: e }, 'ticket printer');
        this.deps.onChange?.(s.station);
      });
      this.devices.set(s.station, p);
    }
  }

  at(station: number): TicketPrinter | undefined {
    return this.devices.get(station);
  }

  /** The simulator behind a `sim` printer (take the ticket, jam it, make it lie); null for real hardware. */
  simulator(station: number): OpenedPrinter['simulator'] | null {
    return this.devices.get(station)?.simulator ?? null;
  }

  statuses(): PrinterStatus[] {
    return [...this.status.values()].map((s) => ({ ...s }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.devices.values()].map((p) => p.close()));
    this.devices.clear();
  }
}
