import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Tells a clean restart from a power cut or a kill: a marker file exists while the host runs and
 * is removed by a clean stop. Found at start, it means the last run ended without stopping.
 */
export class PowerMarker {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'host.running');
  }

  /** Marks the host as running; returns whether the previous run stopped cleanly. */
  start(): boolean {
    const clean = !existsSync(this.file);
    writeFileSync(this.file, `${process.pid}\n`, { flush: true });
    return clean;
  }

  stop(): void {
    rmSync(this.file, { force: true });
  }
}
