// The handpay queue's reissue note per station, kept in the data folder (docs/sas.md, "Exceptions":
// SAS 6.02 §7.8.1 reissues exception 51 every 15 s while a handpay stays pending and the host has
// not asked long poll 1B since it acknowledged 51). The machine keeps the note in memory and says
// when it changes (`handpay-note`); kept here, a restart takes it back, so a host that acknowledged
// 51 and never asked 1B hears 51 again after a kill or a power cut as it would have without one
// (the journal's 51 itself was acknowledged: the feed does not raise it again).
import path from 'node:path';
import { z } from 'zod';
import { readStateFileSaid, writeStateFile, type StateFileLog } from '../tickets/state-file.js';

export const HANDPAY_NOTE_FILE = 'sas-handpay-note.json';
const Notes = z.strictObject({ v: z.literal(1), stations: z.record(z.string().regex(/^\d{1,4}$/), z.number().int().nonnegative()) });
type Notes = z.infer<typeof Notes>;

export class HandpayNotes {
  private readonly file: string;
  private state: Notes = { v: 1, stations: {} };

  constructor(dataDir: string, log?: StateFileLog) {
    this.file = path.join(dataDir, HANDPAY_NOTE_FILE);
    // Not ours (cut, overwritten): no note; a handpay still pending is reported by its journal's 51 until acknowledged.
    const consequence = 'no handpay reissue note: exception 51 is not reissued for a handpay whose 51 was acknowledged before';
    this.state = readStateFileSaid(this.file, Notes, log, consequence) ?? this.state;
  }

  /** When the host acknowledged 51 at `station` without asking 1B since (the machine's clock), or null. */
  of(station: number): number | null {
    return this.state.stations[String(station)] ?? null;
  }

  /** Written (flushed, renamed into place) as the machine reports it, before the poll that acknowledged 51 or asked 1B is answered. */
  set(station: number, ackedAt: number | null): void {
    const key = String(station);
    if ((this.state.stations[key] ?? null) === ackedAt) return;
    const stations = { ...this.state.stations };
    if (ackedAt === null) delete stations[key];
    else stations[key] = ackedAt;
    writeStateFile(this.file, { v: 1, stations });
    this.state = { v: 1, stations };
  }
}
