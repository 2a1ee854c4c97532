import { statfsSync } from 'node:fs';
import type { Logger } from 'pino';
import { tiltDetailSaid } from '../../locales/said.js';
import { Repeating, type Timers } from '../table/timers.js';
import type { TiltManager } from './tilt-manager.js';

/** Free and total bytes of the file system under a folder, as an unprivileged process may use them. */
export interface DiskSpace {
  free: number;
  total: number;
}

export type StatFs = (dir: string) => DiskSpace;

/** `statfs(2)` through Node: `bavail` (not `bfree`), the blocks this process may still write. */
export const nodeStatFs: StatFs = (dir) => {
  const s = statfsSync(dir);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
};

/**
 * New bets stop below this much free space. A round's journal is a few kilobytes, a checkpoint
 * some more, and SQLite's WAL grows to ~4 MB between checkpoints: 256 MiB lets every round in play
 * settle, every player cash out and the service mode journal its work long after the tilt.
 */
export const DISK_LOW_BYTES = 256 * 1024 * 1024;
/** …and start again only above this, so a disk at the edge does not raise and clear the fault at every look. */
export const DISK_OK_BYTES = 320 * 1024 * 1024;

export interface DiskSpaceOptions {
  dir: string;
  tilts: TiltManager;
  log: Logger;
  timers: Timers;
  statfs?: StatFs;
  lowBytes?: number;
  okBytes?: number;
  /** How often to look (default every 10 s). */
  everyMs?: number;
}

/**
 * Watches the free space under the data folder and raises the `disk-low` fault (new bets stop)
 * before SQLite would refuse a write with SQLITE_FULL. It is the early warning: a write the
 * ledger refuses anyway is refused as a whole, the bet with it (host/table/runtime.ts).
 */
export class DiskSpaceMonitor {
  private readonly looks: Repeating;
  private low = false;
  private readonly statfs: StatFs;
  private readonly lowBytes: number;
  private readonly okBytes: number;

  constructor(private readonly o: DiskSpaceOptions) {
    this.statfs = o.statfs ?? nodeStatFs;
    this.lowBytes = o.lowBytes ?? DISK_LOW_BYTES;
    this.okBytes = Math.max(this.lowBytes, o.okBytes ?? DISK_OK_BYTES);
    this.looks = new Repeating(o.timers, o.everyMs ?? 10_000, () => void this.check());
  }

  /** Looks once now, then every `everyMs`. A fault restored from the journal is cleared by the first look that finds room. */
  start(): void {
    this.low = this.o.tilts.list().some((t) => t.kind === 'disk-low');
    this.looks.start();
  }

  stop(): void {
    this.looks.stop();
  }

  /** One look: the space found (null when statfs failed, which is logged and changes nothing). */
  check(): DiskSpace | null {
    let space: DiskSpace;
    try {
      space = this.statfs(this.o.dir);
    } catch (e) {
      this.o.log.error({ err: e, dir: this.o.dir }, 'the free space of the data folder could not be read');
      return null;
    }
    const nowLow = this.low ? space.free < this.okBytes : space.free < this.lowBytes;
    try {
      const said = tiltDetailSaid('diskLow', { free: mib(space.free), total: mib(space.total), dir: this.o.dir });
      if (nowLow) this.o.tilts.raise('disk-low', { say: said });
      else if (this.low) this.o.tilts.conditionGone('disk-low', undefined, said);
      this.low = nowLow;
    } catch (e) {
      // The disk is fuller than the threshold allowed for: nothing else will journal either, and
      // the table refuses every bet it cannot journal. The next look tries again.
      this.o.log.error({ err: e, free: space.free }, 'the disk-low fault could not be journalled');
    }
    return space;
  }
}

function mib(bytes: number): number {
  return Math.floor(bytes / (1024 * 1024));
}
