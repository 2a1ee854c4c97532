import path from 'node:path';
import { z } from 'zod';
import { readStateFileSaid, writeStateFile, type StateFileLog } from './state-file.js';

const Stored = z.strictObject({ v: z.literal(1), machineId: z.number().int().min(1).max(0xff_ff_ff) });

/**
 * The machine validation id an authority assigned this table, kept in the data folder (null: none,
 * or a file that is not ours): the casino system's by long poll 0x4C (`sas-validation.json`,
 * sas-authority.ts) or the upstream's (`floor-validation.json`, floor-id.ts). Each names its file
 * and what a damaged one costs. It was `ValidationIdStore` in sas-authority.ts, its default the
 * SAS file, until the upstream's id was kept too (7 December).
 */
export class AssignedValidationId {
  private readonly file: string;
  private id: number | null = null;

  constructor(dataDir: string, log: StateFileLog | undefined, kept: { file: string; consequence: string }) {
    this.file = path.join(dataDir, kept.file);
    this.id = readStateFileSaid(this.file, Stored, log, kept.consequence)?.machineId ?? null;
  }

  get(): number | null {
    return this.id;
  }

  /** Written (flushed, renamed into place) before the answer that assigned it is used. */
  set(machineId: number): void {
    writeStateFile(this.file, { v: 1, machineId });
    this.id = machineId;
  }
}
