// The exceptions a station's SAS link reports, fed from the ledger's journal (docs/sas.md,
// "Exceptions from the journal"): each journalled event the casino's system must hear of becomes
// one or more exceptions (sas-exceptions.ts), raised into the machine's queue in journal order and
// tagged with where they come from (`seq.part`). What the host acknowledged is kept in the data
// folder (`sas-reported.json`, written before the next poll is answered), so a host restart or a
// SAS host reconnecting gets what it had not acknowledged, and nothing it had, twice.
//
// The journal is the queue's backing store: the feed raises only while the machine's FIFO has
// room, so no journalled exception is ever lost to the queue's overflow rule (0x70 stays for what
// else may fill it); a priority exception goes before the FIFO as SAS orders, one at a time.
import path from 'node:path';
import { z } from 'zod';
import { isPriority } from '../../hardware/sas/exceptions.js';
import type { SasMachine } from '../../hardware/sas/machine.js';
import { entriesOfTypes, newestEntriesOfType, PAYLOADS, roundEntriesOfTypes, type JournalEntry, type Ledger } from '../../ledger/index.js';
import { readStateFile, writeStateFile } from '../tickets/state-file.js';
import { EXCEPTION_SOURCES, exceptionsOf, isExceptionSource, type JournalFacts } from './sas-exceptions.js';

export const REPORTED_FILE = 'sas-reported.json';

/** Per station: every exception from entries up to `through` acknowledged, and those beyond it acknowledged already (`seq.part`). */
/**
 * The acknowledged keys beyond `through` kept per station, at most (the newest, by journal order).
 * They only keep an exception from being reported twice after a restart; `through`, which keeps
 * any from being lost, is kept whole. A host that acknowledges its own priority exceptions (a
 * 1-cent transfer's 69, a lock's 6F) and never the FIFO's oldest grew them without end: past the
 * schema's 10,000 the file was refused whole at the next start and every station's unacknowledged
 * exceptions were lost, and each acknowledgement rewrote and flushed the growing file (a review).
 * Past the bound the oldest are let go: after a restart they are reported again, never lost.
 */
export const ACKED_KEPT = 1_000;

const Key = z.string().regex(/^\d{1,15}\.\d{1,3}$/);
/** The file as a whole; each station's part is read on its own (`StationReported`), so one bad part costs only that station. */
const Reported = z.strictObject({ v: z.literal(1), stations: z.record(z.string().regex(/^\d{1,4}$/), z.unknown()) });
/** Per station: every exception from entries up to `through` acknowledged, and those beyond it acknowledged already (`seq.part`). */
const StationReported = z.strictObject({ through: z.number().int().nonnegative(), acked: z.array(Key) });
type StationState = z.infer<typeof StationReported>;

/** The newest `ACKED_KEPT` keys (by journal seq, then part). */
export function keptKeys(keys: Iterable<string>): string[] {
  const all = [...keys];
  if (all.length <= ACKED_KEPT) return all;
  const order = (k: string): [number, number] => [seqOf(k), Number(k.slice(k.indexOf('.') + 1))];
  all.sort((a, b) => {
    const [sa, pa] = order(a);
    const [sb, pb] = order(b);
    return sa - sb || pa - pb;
  });
  return all.slice(all.length - ACKED_KEPT);
}

/** Where the store says what it could not believe (the host's log). */
export interface ReportedLog {
  warn(detail: object, message: string): void;
}

/** What has been reported to each station's SAS host, kept in the data folder. */
export class ReportedStore {
  private readonly stations = new Map<string, StationState>();
  private readonly file: string;

  constructor(dataDir: string, log?: ReportedLog) {
    this.file = path.join(dataDir, REPORTED_FILE);
    // A file that is not ours (or not JSON: cut, overwritten) is not believed: the feed starts from this run's power-up (docs/sas.md).
    const read = readStateFile(this.file, Reported);
    for (const [station, part] of Object.entries(read?.stations ?? {})) {
      const p = StationReported.safeParse(part);
      if (!p.success) {
        log?.warn({ file: this.file, station }, "SAS reported-exceptions file: a station's part is not ours; its feed starts from this run's power-up");
        continue;
      }
      const acked = keptKeys(p.data.acked);
      // More keys than kept (a file of an earlier build): `through` is whole and believed; the oldest keys go (reported again, never lost).
      if (acked.length < p.data.acked.length)
        log?.warn(
          { file: this.file, station, keys: p.data.acked.length, kept: acked.length },
          'SAS reported-exceptions file: more acknowledged keys than kept; the oldest are let go',
        );
      this.stations.set(station, { through: p.data.through, acked });
    }
  }

  of(station: number): { through: number; acked: readonly string[] } | null {
    return this.stations.get(String(station)) ?? null;
  }

  save(station: number, through: number, acked: readonly string[]): void {
    this.stations.set(String(station), { through, acked: keptKeys(acked) });
    writeStateFile(this.file, { v: 1, stations: Object.fromEntries(this.stations) });
  }
}

/** The part of the machine the feed raises into. */
export type FeedMachine = Pick<SasMachine, 'raise' | 'exceptions'>;

interface Item {
  key: string;
  seq: number;
  code: number;
  raised: boolean;
}

const Body = z.object({ payload: z.unknown() });

/** The ledger's answers to what the mapping asks (sas-exceptions.ts). */
export function journalFacts(ledger: Ledger): JournalFacts {
  const stationsOf = (entries: readonly JournalEntry[]): { seq: number; station: number }[] =>
    entries.flatMap((e) => {
      const p = PAYLOADS['bet.place'].safeParse(payloadOf(e));
      return p.success ? [{ seq: e.seq, station: p.data.station }] : [];
    });
  return {
    betBefore: (roundId, station, seq) => stationsOf(roundEntriesOfTypes(ledger, roundId, ['bet.place'])).some((b) => b.station === station && b.seq < seq),
    roundStations: (roundId) => [...new Set(stationsOf(roundEntriesOfTypes(ledger, roundId, ['bet.place'])).map((b) => b.station))],
    runBefore: (seq) => {
      const first = entriesOfTypes(ledger, ['power.reset']).next();
      return first.done !== true && first.value.seq < seq;
    },
  };
}

function payloadOf(e: JournalEntry): unknown {
  const b = Body.safeParse(JSON.parse(e.body));
  return b.success ? b.data.payload : undefined;
}

/** One station's feed: the journal's exceptions for it, raised in order as the queue has room, acknowledged into the store. */
export class StationFeed {
  private readonly items: Item[] = [];
  private readonly acked: Set<string>;
  private through: number;
  private readSeq: number;

  constructor(
    readonly station: number,
    private readonly d: { ledger: Ledger; store: ReportedStore; machine: FeedMachine; facts: JournalFacts },
  ) {
    const kept = d.store.of(station);
    // Never reported on before: from this run's power-up on (the journal's history is the system's to read as meters).
    this.through = kept?.through ?? Math.max(0, (newestEntriesOfType(d.ledger, 'power.reset', 1)[0]?.seq ?? 1) - 1);
    this.acked = new Set(kept?.acked ?? []);
    this.readSeq = this.through;
    for (const e of entriesOfTypes(d.ledger, EXCEPTION_SOURCES, this.through + 1)) this.take(e);
    this.feed();
  }

  /** Entries just journalled (the ledger's append listener). */
  appended(entries: readonly JournalEntry[]): void {
    for (const e of entries) if (e.seq > this.readSeq) this.take(e);
    this.feed();
  }

  /** The host acknowledged the exception tagged `key`: it is reported, kept so, and the next may be raised. */
  acknowledged(key: string): void {
    const i = this.items.findIndex((it) => it.key === key);
    if (i < 0) return;
    this.items.splice(i, 1);
    this.acked.add(key);
    this.through = this.items.length > 0 ? (this.items[0]?.seq ?? 1) - 1 : this.readSeq;
    for (const k of this.acked) if (seqOf(k) <= this.through) this.acked.delete(k);
    // Bounded as the file keeps them: a key let go is reported again after a restart, never lost.
    if (this.acked.size > ACKED_KEPT) {
      const kept = new Set(keptKeys(this.acked));
      for (const k of this.acked) if (!kept.has(k)) this.acked.delete(k);
    }
    this.d.store.save(this.station, this.through, [...this.acked]);
    this.feed();
  }

  /** The queue lost it after all (something else overflowed it): raised again when there is room. */
  lost(key: string): void {
    const it = this.items.find((x) => x.key === key);
    if (it) it.raised = false;
    this.feed();
  }

  /** Exceptions derived and not yet acknowledged (raised or waiting for room). */
  get outstanding(): number {
    return this.items.length;
  }

  private take(e: JournalEntry): void {
    this.readSeq = e.seq;
    if (!isExceptionSource(e.type)) return;
    const codes = exceptionsOf({ seq: e.seq, type: e.type, payload: payloadOf(e) }, this.station, this.d.facts);
    codes.forEach((code, part) => {
      const key = `${e.seq}.${part}`;
      if (!this.acked.has(key)) this.items.push({ key, seq: e.seq, code, raised: false });
    });
  }

  /**
   * Raises what waits, in journal order, while the queue takes it without losing anything. A
   * priority exception waits for the one before it to be acknowledged: the flags would report a
   * handpay reset (0x52) before its pending (0x51), a ticket inserted before the one printed; one
   * at a time, they keep the journal's order among themselves and still go before the FIFO.
   */
  private feed(): void {
    const q = this.d.machine.exceptions;
    let priorityOut = this.items.some((it) => it.raised && isPriority(it.code));
    for (const it of this.items) {
      if (it.raised) continue;
      const priority = isPriority(it.code);
      if (priority ? priorityOut || q.flagged(it.code) : q.queued >= q.capacity) return;
      it.raised = true;
      priorityOut ||= priority;
      this.d.machine.raise(it.code, it.key);
    }
  }
}

/** The journal entry a feed's tag (`seq.part`) comes from. */
export function seqOf(key: string): number {
  return Number(key.slice(0, key.indexOf('.')));
}
