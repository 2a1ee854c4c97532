import { createHash } from 'node:crypto';
import { closeSync, existsSync, linkSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { syncPath } from './sync-path.js';
import { ArchiveName, RECORD_FILE, WitnessRecord, type RecordLine } from './record.js';

// The witness's record rotated. Each checkpoint adds the witness's fold (every balance and meter
// not zero: about 7 KB at 40 stations), so a stadium's record grows by tens of MB a day, and every
// start parsed all of it. What a start needs of it is small and known: per terminal, the loss
// accepted by hand (its `forget` lines), its first and newest head, and its newest fold and
// checkpoint (a checkpoint is signed only at the witness's head, which only moves on, so an older
// one can never be asked for again). So once the record has grown `rotateBytes` past what it
// carried, it is archived (numbered, and named by its time), a new one begun with those lines, and
// the archives beyond `keepArchives` removed, oldest first.

/** The next record while it is written: renamed over `record.jsonl` once whole and fsynced. */
export const NEXT_FILE = 'record.next.jsonl';
/** Rotate once the record holds this much (64 MiB: about two days of a 200-station stadium). */
export const ROTATE_BYTES = 64 * 1024 * 1024;
/** Archives kept (with the current record, about 0.5 GiB at most). */
export const KEEP_ARCHIVES = 8;
/** A rotation that failed (a full disk) is tried again after this long: each try reads the whole record. */
export const ROTATE_RETRY_MS = 60_000;

interface Carried {
  forgets: RecordLine[];
  first?: RecordLine;
  head?: RecordLine;
  fold?: RecordLine;
  checkpoint?: RecordLine;
}

/** What a rotation carries into the next record, kept up to date line by line. */
export class Carry {
  private readonly terminals = new Map<string, Carried>();

  take(line: RecordLine): void {
    if (line.k === 'refused' || line.k === 'carried') return;
    const terminal = line.k === 'head' ? line.head.terminal : line.terminal;
    const t = this.terminals.get(terminal) ?? { forgets: [] };
    // A loss accepted starts the terminal again: what came before it is not carried (it stays in the archives).
    if (line.k === 'forget') this.terminals.set(terminal, { forgets: [...t.forgets, line] });
    else {
      if (line.k === 'head') t.first ??= line;
      t[line.k] = line;
      this.terminals.set(terminal, t);
    }
  }

  /** The length of `lines()` as the record writes them. */
  bytes(): number {
    let n = 0;
    for (const l of this.lines()) n += Buffer.byteLength(JSON.stringify(l)) + 1;
    return n;
  }

  /** The lines, in the order a start reads them: per terminal its forgets, then what came after the last. */
  lines(): RecordLine[] {
    const out: RecordLine[] = [];
    for (const t of this.terminals.values()) {
      out.push(...t.forgets);
      for (const l of [t.first, t.head, t.fold, t.checkpoint]) if (l && !out.includes(l)) out.push(l);
    }
    return out;
  }
}

export interface Rotated {
  archive: string;
  /** The record's length when it was archived. */
  bytes: number;
  /** The new record's length: the `carried` line and the lines carried. */
  carriedBytes: number;
  removed: string[];
  /** What failed once the rotation had taken (an archive not removed, the folder not synced): logged, never thrown. */
  problems: string[];
}

/**
 * Archives `record.jsonl` as the next `record-<n>-<time>.jsonl` and puts a new record in its
 * place: a `carried` line naming the archive, then `carried`. The new record is written and
 * fsynced under another name first, the archive is a hard link, and the rename over the record is
 * atomic: a power cut at any point leaves a whole record (a leftover next file, or an archive that
 * is a second name of the record, is removed at the start). A failure before the rename undoes
 * what it made (a full disk is not held fuller by a half-written next file) and throws; once the
 * rename has taken nothing throws, as the caller must then go on in the new record.
 */
export function rotateRecord(dir: string, carried: readonly RecordLine[], now: Date, o: { keepArchives: number; after: string | null }): Rotated {
  const record = path.join(dir, RECORD_FILE);
  const { sha256, bytes } = digestOf(record);
  const archive = nextArchiveName(dir, now, o.after);
  const next = path.join(dir, NEXT_FILE);
  let linked = false;
  try {
    rmSync(next, { force: true });
    WitnessRecord.create(next, [{ k: 'carried', at: now.toISOString(), archive, bytes, sha256 }, ...carried]);
    linkSync(record, path.join(dir, archive));
    linked = true;
    // rename(2) replaces the record in one step: a start sees the old record or the new one, never neither.
    renameSync(next, record);
  } catch (e) {
    attempt(() => rmSync(next, { force: true }));
    if (linked) attempt(() => rmSync(path.join(dir, archive), { force: true }));
    throw e;
  }
  const problems: string[] = [];
  const carriedBytes = attempt(() => statSync(record).size, problems) ?? 0;
  const all = archivesIn(dir);
  const removed = all.slice(0, Math.max(0, all.length - o.keepArchives)).filter(
    (f) =>
      attempt(() => {
        rmSync(path.join(dir, f), { force: true });
        return true;
      }, problems) === true,
  );
  attempt(() => syncPath(dir), problems);
  return { archive, bytes, carriedBytes, removed, problems };
}

/**
 * What a power cut left of a rotation, removed at the start: a next record not yet renamed, and an
 * archive linked to the record the rename never replaced (a second name of the live record, which
 * would grow with it and hold a place among those kept). What they held is in the record.
 */
export function clearUnfinishedRotation(dir: string): string[] {
  const cleared: string[] = [];
  const next = path.join(dir, NEXT_FILE);
  if (existsSync(next)) {
    rmSync(next, { force: true });
    cleared.push(next);
  }
  const record = path.join(dir, RECORD_FILE);
  const live = existsSync(record) ? statSync(record).ino : null;
  for (const f of archivesIn(dir)) {
    if (statSync(path.join(dir, f)).ino !== live) continue;
    rmSync(path.join(dir, f), { force: true });
    cleared.push(path.join(dir, f));
  }
  if (cleared.length > 0) syncPath(dir);
  return cleared;
}

/** The archives in the folder, oldest first (their names sort by their number). */
export function archivesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => ArchiveName.safeParse(f).success)
    .sort();
}

/**
 * The next archive's name: numbered one past the newest in the folder or named by the record's
 * `carried` line (`after`), so the archives sort in the order they were made whatever the clock
 * says (a clock set back once named the newest archive oldest, and it was removed at once).
 */
function nextArchiveName(dir: string, now: Date, after: string | null): string {
  const numberOf = (f: string) => Number(f.slice('record-'.length, 'record-'.length + 8));
  const n = Math.max(0, ...archivesIn(dir).map(numberOf), after ? numberOf(after) : 0) + 1;
  return `record-${String(n).padStart(8, '0')}-${now.toISOString().replace(/[-:.]/g, '')}.jsonl`;
}

/** `f()`, its failure kept in `problems` (or dropped) rather than thrown: undefined when it failed. */
function attempt<T>(f: () => T, problems?: string[]): T | undefined {
  try {
    return f();
  } catch (e) {
    problems?.push(e instanceof Error ? e.message : String(e));
    return undefined;
  }
}

function digestOf(file: string): { sha256: string; bytes: number } {
  const h = createHash('sha256');
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1024 * 1024);
  let bytes = 0;
  try {
    for (let got = readSync(fd, buf, 0, buf.length, null); got > 0; got = readSync(fd, buf, 0, buf.length, null)) {
      h.update(buf.subarray(0, got));
      bytes += got;
    }
  } finally {
    closeSync(fd);
  }
  return { sha256: h.digest('hex'), bytes };
}
