import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Tells a clean restart from a power cut or a kill: a marker file exists while the host runs and
 * is removed by a clean stop. Found at start, it means the last run ended without stopping.
 */
export class PowerMarker {
  private readonly file: string;
  /** An unclean stop found at start and not yet journalled (`recorded`): the marker stays for the next start to tell it. */
  private unrecorded = false;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'host.running');
  }

  /** Marks the host as running; returns whether the previous run stopped cleanly. */
  start(): boolean {
    const clean = !existsSync(this.file);
    this.unrecorded = !clean;
    writeFileSync(this.file, `${process.pid}\n`, { flush: true });
    return clean;
  }

  /** The start's `power.reset` is journalled: what `start` found is on record. */
  recorded(): void {
    this.unrecorded = false;
  }

  /**
   * The marker removed, unless an unclean stop it told is not yet on record: a start that could
   * not journal its `power.reset` (a full disk) and gave up left the next start reading a clean
   * stop, and the kill or power cut before was in no entry.
   */
  stop(): void {
    if (this.unrecorded) return;
    rmSync(this.file, { force: true });
  }
}
