// The exceptions a station's SAS link reports, fed from the ledger's journal (docs/sas.md,
// "Exceptions from the journal"): each journalled event the casino's system must hear of becomes
// one or more exceptions (sas-exceptions.ts), raised into the machine's queue in journal order and
// tagged with where they come from (`seq.part`). What the host acknowledged is kept in the data
// folder (`sas-reported.json`, written before the next poll is answered), so a host restart or a
// SAS host reconnecting gets what it had not acknowledged, and nothing it had, twice.
//
// The journal is the queue's backing store: the feed raises only while the machine's FIFO has
// room, so the machine's queue never loses a journalled exception to its overflow rule; a priority
// exception goes before the FIFO as SAS orders, one at a time. What waits behind the machine's
// queue is bounded as SAS bounds a machine's (§2.2.1: a fixed queue that loses its oldest and
// reports 70): past `FIFO_KEPT` the oldest is dropped and 70 raised, once for the episode.
import path from 'node:path';
import { z } from 'zod';
import { EXC } from '../../hardware/sas/constants.js';
import { isPriority } from '../../hardware/sas/exceptions.js';
import type { SasMachine } from '../../hardware/sas/machine.js';
import { entriesOfTypes, newestEntriesOfType, PAYLOADS, roundEntriesOfTypes, type JournalEntry, type Ledger } from '../../ledger/index.js';
import { readStateFileChecked, writeStateFile } from '../tickets/state-file.js';
import { EXCEPTION_SOURCES, exceptionsOf, isExceptionSource, type JournalFacts } from './sas-exceptions.js';

export const REPORTED_FILE = 'sas-reported.json';

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

/**
 * The queued (FIFO) exceptions a station's feed keeps, at most, acknowledged or not: the machine's
 * queue of 20 and what waits behind it. A casino system that polls meters and never general polls
 * (or a line down for a day) had the feed keep every one, two a round, without end (a review:
 * 4,002 after 2,000 rounds; ~2,900 a station a day, each append and acknowledgement a walk of them
 * all). SAS 6.02 §2.2.1 gives a machine a fixed queue that loses its oldest and reports 70 (buffer
 * overflow); the feed does the same past this many, about two hours of play, every one of them
 * still in the journal and counted by the meters the system reads.
 */
export const FIFO_KEPT = 256;
/** Priority exceptions kept at most (tickets, transfers, handpays: each has its own long poll too, 4D, 72, 1B); past it the oldest goes as the FIFO's do. */
export const PRIORITY_KEPT = 4 * ACKED_KEPT;
/** While it drops, the feed writes `through` every this many drops: a restart reads at most this much of the journal again. */
export const FEED_SAVE_EVERY = 64;
/**
 * How far back, in journal entries before this run's `power.reset`, a station whose kept state is
 * lost (`sas-reported.json` and its `.prev` both damaged) reads again, at most: from the run
 * before this one, or this many entries, the nearer. What the system had acknowledged in them is
 * reported again (a duplicate is harmless; a handpay never reported is not), with `70`.
 */
export const DAMAGED_REREAD = 10_000;
/** The tag of the feed's own 70: its acknowledgement ends the overflow episode. */
const OVERFLOW_TAG = 'overflow';

const Key = z.string().regex(/^\d{1,15}\.\d{1,3}$/);
/** The file as a whole; each station's part is read on its own (`StationReported`), so one bad part costs only that station. */
const Reported = z.strictObject({ v: z.literal(1), stations: z.record(z.string().regex(/^\d{1,4}$/), z.unknown()) });
/**
 * Per station: every exception from entries up to `through` acknowledged (or dropped: `FIFO_KEPT`)
 * but the priority ones in `pending` (raised or waiting, not acknowledged: a system that never
 * acknowledges one held `through` before it for ever), and those beyond it acknowledged already
 * (`seq.part`); `overflow`: exceptions were dropped and the system has not acknowledged the 70
 * that said so (raised again at a start). `pending` is absent in an earlier build's file (none).
 */
const StationReported = z.strictObject({
  through: z.number().int().nonnegative(),
  acked: z.array(Key),
  pending: z.array(Key).optional(),
  overflow: z.literal(true).optional(),
});
type StationState = z.infer<typeof StationReported>;
/** What a station's feed writes and reads back. */
export interface StationKept {
  through: number;
  acked: readonly string[];
  pending?: readonly string[];
  overflow?: true;
}

/** `keys` in journal order (seq, then part). */
function inJournalOrder(keys: Iterable<string>): string[] {
  const order = (k: string): [number, number] => [seqOf(k), partOf(k)];
  return [...keys].sort((a, b) => {
    const [sa, pa] = order(a);
    const [sb, pb] = order(b);
    return sa - sb || pa - pb;
  });
}

/** The newest `bound` keys (by journal seq, then part); `ACKED_KEPT` unless told. */
export function keptKeys(keys: Iterable<string>, bound = ACKED_KEPT): string[] {
  const all = [...keys];
  if (all.length <= bound) return all;
  return inJournalOrder(all).slice(all.length - bound);
}

/** Where the store says what it could not believe or write (the host's log). */
export interface ReportedLog {
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

/** A station's part, if it is the feed's; its keys bounded as the feed keeps them (logged when cut). */
function stationPart(part: unknown, where: { file: string; station: string }, log?: ReportedLog): StationState | null {
  const p = StationReported.safeParse(part);
  if (!p.success) return null;
  const acked = keptKeys(p.data.acked);
  // More keys than kept (a file of an earlier build): `through` is whole and believed; the oldest keys go (reported again, never lost).
  if (acked.length < p.data.acked.length)
    log?.warn(
      { ...where, keys: p.data.acked.length, kept: acked.length },
      'SAS reported-exceptions file: more acknowledged keys than kept; the oldest are let go',
    );
  const named = new Set(p.data.pending ?? []);
  const pending = keptKeys(named, PRIORITY_KEPT);
  // More than the feed ever keeps (an edited file): each costs a journal read at the start, so the newest only, as the feed drops its oldest.
  if (pending.length < named.size)
    log?.warn(
      { ...where, keys: named.size, kept: pending.length },
      'SAS reported-exceptions file: more pending priority keys than kept; the oldest are let go',
    );
  const { pending: _named, ...rest } = p.data;
  return { ...rest, acked, ...(pending.length > 0 ? { pending } : {}) };
}

/**
 * What has been reported to each station's SAS host, kept in the data folder, the file it replaced
 * beside it (`.prev`). A missing file is first use; a damaged one (unreadable, a folder, not JSON,
 * not ours: a bad sector, an edit) is logged as an error and its `.prev` read instead (older: what
 * it says acknowledged is, and what it does not say is reported again); a station whose part is in
 * neither is `damaged`, and its feed re-reads a bounded stretch of the journal (`DAMAGED_REREAD`).
 */
export class ReportedStore {
  private readonly stations = new Map<string, StationState>();
  private readonly lost = new Set<string>();
  /** The file was not believed: a station absent from its previous copy may have been in it. */
  private notBelieved = false;
  readonly file: string;

  constructor(dataDir: string, log?: ReportedLog) {
    this.file = path.join(dataDir, REPORTED_FILE);
    const prevFile = `${this.file}.prev`;
    const main = readStateFileChecked(this.file, Reported);
    // Read only when the file is not believed whole: it is older, never newer.
    let prev: Record<string, unknown> | null | undefined;
    const previous = (): Record<string, unknown> | null => {
      if (prev !== undefined) return prev;
      const read = readStateFileChecked(prevFile, Reported);
      if (read.state === 'damaged') log?.error({ file: prevFile, why: read.why }, 'SAS reported-exceptions file: its previous copy is damaged too');
      prev = read.state === 'ok' ? read.value.stations : null;
      return prev;
    };
    let parts: Record<string, unknown> = {};
    if (main.state === 'ok') parts = main.value.stations;
    else if (main.state === 'damaged' || readStateFileChecked(prevFile, Reported).state !== 'missing') {
      // Gone while its previous copy is there is damage too (removed by hand): never first use, which would start at this run.
      const why = main.state === 'damaged' ? main.why : 'missing while its previous copy is there';
      parts = previous() ?? {};
      this.notBelieved = true;
      log?.error(
        { file: this.file, why, previous: prev === null ? 'not usable' : 'read' },
        prev === null
          ? 'SAS reported-exceptions file damaged, its previous copy too: each feed reads a bounded stretch of the journal again and raises 70'
          : 'SAS reported-exceptions file damaged: its previous copy is read (some exceptions are reported again, none lost)',
      );
    }
    for (const [station, part] of Object.entries(parts)) {
      const where = { file: main.state === 'ok' ? this.file : prevFile, station };
      const own = stationPart(part, where, log);
      const got = own ?? (main.state === 'ok' ? stationPart(previous()?.[station], { ...where, file: prevFile }, log) : null);
      if (got) this.stations.set(station, got);
      else this.lost.add(station);
      if (!own)
        log?.error(
          { ...where, previous: got ? 'read' : 'not usable' },
          got
            ? "SAS reported-exceptions file: a station's part is not ours; its previous copy is read"
            : "SAS reported-exceptions file: a station's part is not ours, nor in its previous copy; its feed reads a bounded stretch of the journal again and raises 70",
        );
    }
  }

  /** What the station's feed kept is lost (its part damaged in both copies): its feed reads the journal again from further back. */
  damaged(station: number): boolean {
    return this.lost.has(String(station)) || (this.notBelieved && !this.stations.has(String(station)));
  }

  of(station: number): StationKept | null {
    return this.stations.get(String(station)) ?? null;
  }

  /**
   * Where a station's feed starts when the file holds no part of it (a first use, or a part lost):
   * kept with the others, so the next save of any station writes it. Before, such a station had no
   * part until its own first save, and a restart meanwhile took it for a first use again: what its
   * system had not acknowledged in the run before (or, lost, the stretch it re-read) was dropped.
   */
  remember(station: number, kept: StationKept): void {
    if (this.stations.has(String(station))) return;
    this.stations.set(String(station), { through: kept.through, acked: [], ...(kept.overflow === true ? { overflow: true as const } : {}) });
  }

  save(station: number, kept: StationKept): void {
    const { through, acked, pending = [], overflow } = kept;
    this.stations.set(String(station), {
      through,
      acked: keptKeys(acked),
      // Written only when some wait: a file without them is an earlier build's, read the same.
      ...(pending.length > 0 ? { pending: keptKeys(pending, PRIORITY_KEPT) } : {}),
      ...(overflow === true ? { overflow: true as const } : {}),
    });
    writeStateFile(this.file, { v: 1, stations: Object.fromEntries(this.stations) }, { keepPrevious: true });
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
  /** In journal order; `byKey` finds one by its tag. */
  private readonly items: Item[] = [];
  private readonly byKey = new Map<string, Item>();
  /** Kept items by kind, and priority ones raised and not yet acknowledged (one at a time: `feed`). */
  private readonly count = { fifo: 0, priority: 0, priorityOut: 0 };
  private readonly acked: Set<string>;
  private through: number;
  private readSeq: number;
  /** The episode's 70 raised and not acknowledged; drops since `through` was last written. */
  private overflow: boolean;
  private droppedUnsaved = 0;
  /** A save failed (the disk refusing the file): made at the next append or acknowledgement; nothing read waits on it. */
  private saveOwed = 0;
  /** Journal entries the start read (from `through + 1`): what a restart costs grows with it. */
  readonly readAtStart: number;

  constructor(
    readonly station: number,
    private readonly d: { ledger: Ledger; store: ReportedStore; machine: FeedMachine; facts: JournalFacts; log?: ReportedLog | undefined },
  ) {
    const kept = d.store.of(station);
    // Lost (both copies damaged): what the system had not acknowledged may lie before this run; 70 says some may be gone.
    const lost = kept === null && d.store.damaged(station);
    this.through = kept?.through ?? startOf(d.ledger, lost);
    this.acked = new Set(kept?.acked ?? []);
    this.readSeq = this.through;
    this.overflow = kept?.overflow === true || lost;
    if (kept === null) d.store.remember(station, { through: this.through, acked: [], ...(lost ? { overflow: true as const } : {}) });
    if (this.overflow) this.d.machine.raise(EXC.bufferOverflow, OVERFLOW_TAG);
    this.takePending(kept?.pending ?? []);
    let read = 0;
    for (const e of entriesOfTypes(d.ledger, EXCEPTION_SOURCES, this.through + 1)) {
      read++;
      this.take(e);
    }
    this.readAtStart = read;
    // A lost part is written at once (its re-read stretch and its 70), not only with the next save.
    if (lost) this.trySave();
    this.feed();
  }

  /** Entries just journalled (the ledger's append listener). */
  appended(entries: readonly JournalEntry[]): void {
    for (const e of entries) if (e.seq > this.readSeq) this.take(e);
    if (this.saveOwed > 0) this.trySave();
    this.feed();
  }

  /** The host acknowledged the exception tagged `key`: it is reported, kept so, and the next may be raised. */
  acknowledged(key: string): void {
    if (key === OVERFLOW_TAG) this.overflow = false;
    else {
      const it = this.byKey.get(key);
      // One dropped while the machine's queue held it, behind `through`: nothing to keep, but the queue has room.
      if (!it && seqOf(key) <= this.through) return this.feed();
      if (it) this.remove(it);
      this.acked.add(key);
    }
    // A failed save is owed, not thrown: the next exception is still raised (before, the feed stalled until the next append).
    this.trySave();
    this.feed();
  }

  /** The queue lost it after all (something else overflowed it): raised again when there is room. */
  lost(key: string): void {
    const it = this.byKey.get(key);
    if (it?.raised === true) {
      it.raised = false;
      if (isPriority(it.code)) this.count.priorityOut--;
    }
    this.feed();
  }

  /** Exceptions derived and not yet acknowledged (raised or waiting for room). */
  get outstanding(): number {
    return this.items.length;
  }

  private take(e: JournalEntry): void {
    this.readSeq = e.seq;
    this.codesOf(e).forEach((code, part) => {
      const key = `${e.seq}.${part}`;
      if (!this.acked.has(key)) this.keep({ key, seq: e.seq, code, raised: false });
    });
    while (this.count.fifo > FIFO_KEPT) this.drop(false);
    while (this.count.priority > PRIORITY_KEPT) this.drop(true);
  }

  private codesOf(e: JournalEntry): number[] {
    return isExceptionSource(e.type) ? exceptionsOf({ seq: e.seq, type: e.type, payload: payloadOf(e) }, this.station, this.d.facts) : [];
  }

  private keep(it: Item): void {
    this.items.push(it);
    this.byKey.set(it.key, it);
    if (isPriority(it.code)) this.count.priority++;
    else this.count.fifo++;
  }

  /**
   * The priority exceptions behind `through` the system had not acknowledged, each derived again
   * from its own entry. The file is not the journal's: a key whose entry gives no priority
   * exception at that part for this station (a door's, another station's handpay, a seq past the
   * journal) or lies past `through` (read with the journal anyway: it would come twice) raises
   * nothing and is logged; a true one named twice is kept once.
   */
  private takePending(keys: readonly string[]): void {
    const ignored: string[] = [];
    for (const key of inJournalOrder(new Set(keys))) {
      const seq = seqOf(key);
      const e = seq <= this.through ? this.d.ledger.entry(seq) : undefined;
      const code = e ? this.codesOf(e)[partOf(key)] : undefined;
      if (code === undefined || !isPriority(code) || this.acked.has(key)) ignored.push(key);
      else this.keep({ key, seq, code, raised: false });
    }
    if (ignored.length > 0)
      this.d.log?.warn(
        { station: this.station, through: this.through, ignored: ignored.slice(0, 20), count: ignored.length },
        "SAS reported-exceptions file: pending keys that name no priority exception of the station's behind `through` are ignored",
      );
  }

  /**
   * SAS's overflow (§2.2.1): the oldest kept of its kind goes, raised or not (one the machine's
   * queue holds is still reported; its acknowledgement finds nothing here), and 70 says so once
   * for the episode, which the system's acknowledgement of it ends. `through` moves past it, so a
   * restart does not read again what was dropped.
   */
  private drop(priority: boolean): void {
    const it = this.items.find((x) => isPriority(x.code) === priority);
    if (!it) return;
    this.remove(it);
    this.droppedUnsaved++;
    if (!this.overflow) {
      this.overflow = true;
      this.d.machine.raise(EXC.bufferOverflow, OVERFLOW_TAG);
      this.trySave();
    } else if (this.droppedUnsaved >= FEED_SAVE_EVERY) this.trySave();
  }

  private remove(it: Item): void {
    this.items.splice(this.items.indexOf(it), 1);
    this.byKey.delete(it.key);
    if (!isPriority(it.code)) this.count.fifo--;
    else {
      this.count.priority--;
      if (it.raised) this.count.priorityOut--;
    }
  }

  /**
   * `through` to the oldest kept FIFO exception (or all read), the priority ones behind it by key,
   * the keys beyond it, the episode: written before the poll is answered. A priority exception the
   * system never acknowledges no longer holds `through` (and, with it, each restart's read and the
   * acknowledged keys, whose oldest past the bound were reported again).
   */
  private save(): void {
    const fifo = this.items.find((x) => !isPriority(x.code));
    this.through = fifo ? fifo.seq - 1 : this.readSeq;
    const pending = this.items.filter((x) => x.seq <= this.through).map((x) => x.key);
    for (const k of this.acked) if (seqOf(k) <= this.through) this.acked.delete(k);
    // Bounded as the file keeps them: a key let go is reported again after a restart, never lost.
    if (this.acked.size > ACKED_KEPT) {
      const kept = new Set(keptKeys(this.acked));
      for (const k of this.acked) if (!kept.has(k)) this.acked.delete(k);
    }
    this.droppedUnsaved = 0;
    this.d.store.save(this.station, { through: this.through, acked: [...this.acked], pending, ...(this.overflow ? { overflow: true as const } : {}) });
  }

  /**
   * `save`, a failure owed rather than thrown: thrown inside `take` it cut the batch short and the
   * entries after it were never taken though `readSeq` had passed them (lost for good: a review).
   * The file on disk stays the last written, older than the feed: a restart before a save succeeds
   * reports some exceptions again and loses none. Logged when it begins to fail and when it is
   * written again (not at each attempt: a disk that refuses every write would log each poll).
   */
  private trySave(): void {
    try {
      this.save();
    } catch (err) {
      if (this.saveOwed++ === 0)
        this.d.log?.error(
          { err, station: this.station, file: this.d.store.file },
          'SAS reported-exceptions file not written: tried again at the next append or acknowledgement (a restart before then reports some exceptions again, loses none)',
        );
      return;
    }
    if (this.saveOwed > 0)
      this.d.log?.warn({ station: this.station, file: this.d.store.file, failed: this.saveOwed }, 'SAS reported-exceptions file written again');
    this.saveOwed = 0;
  }

  /**
   * Raises what waits, in journal order, while the queue takes it without losing anything. A
   * priority exception waits for the one before it to be acknowledged: the flags would report a
   * handpay reset (0x52) before its pending (0x51), a ticket inserted before the one printed; one
   * at a time, they keep the journal's order among themselves and still go before the FIFO.
   */
  private feed(): void {
    const q = this.d.machine.exceptions;
    for (const it of this.items) {
      if (it.raised) continue;
      const priority = isPriority(it.code);
      // A flag of its code raised untagged (the machine's copy of 51) is taken over: its one report is this exception's.
      if (priority ? this.count.priorityOut > 0 || q.claimed(it.code) : q.queued >= q.capacity) return;
      it.raised = true;
      if (priority) this.count.priorityOut++;
      this.d.machine.raise(it.code, it.key);
    }
  }
}

/**
 * Where a station's feed starts without a kept `through`: never reported on before, this run's
 * power-up (the journal's history is the system's to read as meters); its kept state lost, the run
 * before this one, at most `DAMAGED_REREAD` entries back.
 */
function startOf(ledger: Ledger, lost: boolean): number {
  const [now, before] = newestEntriesOfType(ledger, 'power.reset', 2);
  const thisRun = Math.max(0, (now?.seq ?? 1) - 1);
  return lost ? Math.max(0, (before?.seq ?? 1) - 1, thisRun - DAMAGED_REREAD) : thisRun;
}

/** The journal entry a feed's tag (`seq.part`) comes from. */
export function seqOf(key: string): number {
  return Number(key.slice(0, key.indexOf('.')));
}

/** Which of its entry's exceptions a tag is (`seq.part`). */
function partOf(key: string): number {
  return Number(key.slice(key.indexOf('.') + 1));
}
