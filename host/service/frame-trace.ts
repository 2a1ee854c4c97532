import type { WireFrame } from '../../hardware/wire-frame.js';

export interface TracedFrame extends WireFrame {
  /** When it was last seen. */
  ts: string;
  /** How many times in a row (a poll and its answer repeat several times a second). */
  count: number;
}

const same = (a: WireFrame | undefined, b: WireFrame) => a !== undefined && a.dir === b.dir && a.hex === b.hex;

/**
 * The last frames of each device, bounded. A device polled several times a second says the same
 * thing over and over (STATUS REQUEST / ENABLE): a frame, or a request-and-answer pair, that
 * repeats the one before is counted on it instead of pushing the rest off the trace.
 */
export class FrameTrace {
  private readonly rows = new Map<string, TracedFrame[]>();
  /** A frame equal to the one two back: the start of a repeated pair, if the next matches too. */
  private readonly pending = new Map<string, TracedFrame>();

  constructor(private readonly keep = 80) {}

  add(device: string, f: WireFrame, ts: string): void {
    const rows = this.rows.get(device) ?? [];
    this.rows.set(device, rows);
    const waiting = this.pending.get(device);
    if (waiting) {
      this.pending.delete(device);
      const a = rows.at(-2);
      const b = rows.at(-1);
      if (a && b && same(b, f)) {
        a.count++;
        b.count++;
        a.ts = waiting.ts;
        b.ts = ts;
        return;
      }
      this.push(rows, waiting);
    }
    const last = rows.at(-1);
    if (last && same(last, f)) {
      last.count++;
      last.ts = ts;
      return;
    }
    if (same(rows.at(-2), f)) {
      this.pending.set(device, { ...f, ts, count: 1 });
      return;
    }
    this.push(rows, { ...f, ts, count: 1 });
  }

  /** A device's frames, newest first. */
  of(device: string, limit: number): TracedFrame[] {
    const rows = [...(this.rows.get(device) ?? [])];
    const waiting = this.pending.get(device);
    if (waiting) rows.push(waiting);
    return rows
      .slice(-limit)
      .reverse()
      .map((r) => ({ ...r }));
  }

  private push(rows: TracedFrame[], f: TracedFrame): void {
    rows.push(f);
    if (rows.length > this.keep) rows.splice(0, rows.length - this.keep);
  }
}
