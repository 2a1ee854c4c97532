import type { WireFrame } from '../../../hardware/wire-frame.js';
import type { BillAcceptorEvent } from '../../../hardware/billacceptor/types.js';
import type { ShoeEvent } from '../../../hardware/shoe/types.js';
import type { DeviceEvent } from '../../../protocol/index.js';
import { FrameTrace } from '../frame-trace.js';
import type { DevicesPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { eventText } from './event-text.js';

const TRACE_KEEP = 200;

/** The decoded events and wire frames of every device, kept for the Devices page; what the shoe said of itself. */
export interface DeviceTrace extends Pick<DevicesPart, 'trace' | 'frames'> {
  /** What the shoe said of itself when it connected (the host's shoe status keeps neither). */
  shoeIdentity(): { serial?: string; firmware?: string };
  dispose(): void;
}

export function deviceTrace(d: Pick<LiveBackendDeps, 'billAcceptors' | 'shoe'>, now: () => number, changes: Changes): DeviceTrace {
  const traceRows: { ts: string; device: string; event: DeviceEvent; facts: string }[] = [];
  const lastTraced = new Map<string, string>();
  const frameTrace = new FrameTrace(80);
  /** Frames come several times a second: the pages hear of them at most once a second. */
  let frameTimer: ReturnType<typeof setTimeout> | null = null;
  let shoeIdentity: { serial?: string; firmware?: string } = {};

  const traced = (device: string, e: BillAcceptorEvent | ShoeEvent): void => {
    if (device === 'shoe' && e.type === 'connected') {
      shoeIdentity = { ...(e.serial ? { serial: e.serial } : {}), ...(e.firmware ? { firmware: e.firmware } : {}) };
    }
    const { event, facts: all } = eventText(e);
    const facts = all.slice(0, 400);
    // ID-003 reports idle at every status poll, a framed shoe its status at every idle heartbeat: a
    // repeat says nothing new and would redraw the page several times a second per acceptor.
    if (lastTraced.get(device) === `${event} ${facts}` && (e.type === 'idle' || e.type === 'status')) return;
    lastTraced.set(device, `${event} ${facts}`);
    traceRows.push({ ts: new Date(now()).toISOString(), device, event, facts });
    if (traceRows.length > TRACE_KEEP) traceRows.splice(0, traceRows.length - TRACE_KEEP);
    changes.changed();
  };
  const framed = (device: string, f: WireFrame): void => {
    frameTrace.add(device, f, new Date(now()).toISOString());
    frameTimer ??= setTimeout(() => {
      frameTimer = null;
      changes.changed();
    }, 1000);
    frameTimer.unref?.();
  };
  const unlisten = [
    d.billAcceptors.onEvent((station, e) => traced(`BA-${station}`, e)),
    d.shoe.onEvent((e) => traced('shoe', e)),
    d.billAcceptors.onFrame((station, f) => framed(`BA-${station}`, f)),
    d.shoe.onFrame((f) => framed('shoe', f)),
  ];

  return {
    trace(device, limit) {
      const rows = device === null ? traceRows : traceRows.filter((r) => r.device === device);
      return rows.slice(-limit).reverse();
    },
    frames(device, limit) {
      return frameTrace.of(device, limit).map((f) => ({ ts: f.ts, dir: f.dir, hex: f.hex.slice(0, 400), meaning: f.meaning.slice(0, 400), count: f.count }));
    },
    shoeIdentity: () => shoeIdentity,
    dispose() {
      if (frameTimer) clearTimeout(frameTimer);
      for (const u of unlisten) u();
    },
  };
}
