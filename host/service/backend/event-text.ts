import type { BillAcceptorEvent } from '../../../hardware/billacceptor/types.js';
import type { ShoeEvent } from '../../../hardware/shoe/types.js';
import type { DeviceEvent } from '../../../protocol/index.js';

/**
 * A device event as the trace shows it: its name, which the screen words, and its facts as codes
 * (`500 MOP`, `where=acceptor`, `protocol=id003 firmware=…`), never a JSON dump nor a sentence.
 */
export function eventText(e: BillAcceptorEvent | ShoeEvent): { event: DeviceEvent; facts: string } {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || v === undefined) continue;
    if (k === 'note' && typeof v === 'object' && v !== null) {
      const n = v as { denomination?: unknown; currency?: unknown };
      parts.push(`${String(n.denomination)} ${String(n.currency)}`);
    } else if (typeof v !== 'object') parts.push(`${k}=${String(v)}`);
  }
  return { event: e.type, facts: parts.join(' ') };
}

/** The station of a bill acceptor's name (`BA-3` → 3); null for any other device. */
export function stationOfDevice(device: string): number | null {
  const m = /^BA-(\d+)$/.exec(device);
  return m ? Number(m[1]) : null;
}
