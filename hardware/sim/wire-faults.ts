import type { WireFault } from '../billacceptor/sim-controls.js';

/** Applies queued wire faults to outgoing frames (deterministically: no randomness needed). */
export class WireFaults {
  private queue: WireFault[] = [];

  add(kind: WireFault, count = 1): void {
    for (let i = 0; i < count; i++) this.queue.push(kind);
  }

  /** Returns the bytes to send (possibly damaged), or null to send nothing. */
  apply(frame: Uint8Array): Uint8Array | null {
    const f = this.queue.shift();
    if (!f) return frame;
    const out = Uint8Array.from(frame);
    switch (f) {
      case 'drop':
        return null;
      case 'truncate':
        return out.slice(0, Math.max(1, Math.floor(out.length / 2)));
      case 'garble': {
        const i = Math.min(out.length - 1, 2 + Math.floor((out.length - 2) / 2));
        out[i] = (out[i] ?? 0) ^ 0x5a;
        return out;
      }
      case 'noise':
        return Uint8Array.from([0x00, 0x13, 0x37, 0xa5, ...out]);
    }
  }
}
