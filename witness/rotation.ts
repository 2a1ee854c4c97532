import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, readSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ArchiveName, RECORD_FILE, WitnessRecord, type RecordLine } from './record.js';

// The witness's record rotated. Each checkpoint adds the witness's fold (every balance and meter
// not zero: about 7 KB at 40 stations), so a stadium's record grows by tens of MB a day, and every
// start parsed all of it. What a start needs of it is small and known: per terminal, the loss
// accepted by hand (its `forget` lines), its first and newest head, and its newest fold and
// checkpoint (a checkpoint is signed only at the witness's head, which only moves on, so an older
// one can never be asked for again). So past `rotateBytes` the record is archived under its time,
// a new one begun with those lines, and the archives beyond `keepArchives` removed, oldest first.

/** The next record while it is written: renamed over `record.jsonl` once whole and fsynced. */
export const NEXT_FILE = 'record.next.jsonl';
/** Rotate once the record holds this much (64 MiB: about two days of a 200-station stadium). */
export const ROTATE_BYTES = 64 * 1024 * 1024;
/** Archives kept (with the current record, about 0.5 GiB at most). */
export const KEEP_ARCHIVES = 8;

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
  bytes: number;
  removed: string[];
}

/**
 * Archives `record.jsonl` as `record-<time>.jsonl` and puts a new record in its place: a `carried`
 * line naming the archive, then `carried`. The new record is written and fsynced under another
 * name first, the archive is a hard link, and the rename over the record is atomic: a power cut
 * at any point leaves a whole record (a leftover next file is removed at the start).
 */
export function rotateRecord(dir: string, carried: readonly RecordLine[], now: Date, keepArchives: number): Rotated {
  const record = path.join(dir, RECORD_FILE);
  const { sha256, bytes } = digestOf(record);
  const archive = freeArchiveName(dir, now);
  const next = path.join(dir, NEXT_FILE);
  rmSync(next, { force: true });
  WitnessRecord.create(next, [{ k: 'carried', at: now.toISOString(), archive, bytes, sha256 }, ...carried]);
  linkSync(record, path.join(dir, archive));
  // rename(2) replaces the record in one step: a start sees the old record or the new one, never neither.
  renameSync(next, record);
  const all = archivesIn(dir);
  const removed = all.slice(0, Math.max(0, all.length - keepArchives));
  for (const f of removed) rmSync(path.join(dir, f), { force: true });
  syncDir(dir);
  return { archive, bytes, removed };
}

/** A next record a power cut left behind (the rename never happened): removed; what it held is in the record. */
export function clearUnfinishedRotation(dir: string): string | null {
  const next = path.join(dir, NEXT_FILE);
  if (!existsSync(next)) return null;
  rmSync(next, { force: true });
  syncDir(dir);
  return next;
}

/** The archives in the folder, oldest first (their names sort by time). */
export function archivesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => ArchiveName.safeParse(f).success)
    .sort();
}

function freeArchiveName(dir: string, now: Date): string {
  for (let t = now.getTime(); ; t++) {
    const name = `record-${new Date(t).toISOString().replace(/[-:.]/g, '')}.jsonl`;
    if (!existsSync(path.join(dir, name))) return name;
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

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
