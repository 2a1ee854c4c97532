import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { EffectsSnapshot } from './effects.js';
import { SignedHead, TerminalId } from './wire.js';

// The witness's append-only record (`record.jsonl` in its folder): one JSON line per event, each
// written and fsynced before the answer that depends on it leaves. It holds every checkpoint the
// witness signed (a second, different state at the same entry is refused against it), the first
// head of each terminal, a head at most every `headEvery` (the newest is always in the terminal's
// head slots, witness/head-slots.ts), every refusal (rate-limited: a flood of refusals cannot fill
// the disk), every loss accepted by hand (`etg witness forget`), and its fold of the entries'
// effects at each checkpoint it signed (the next start goes on from the newest). Nothing in it is
// rewritten; past a size it is rotated (witness/rotation.ts), the new file beginning with what a start needs.

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);
/** A rotated record's name in the witness's folder: `record-`, its number (8 digits) and its UTC time to the millisecond. */
export const ArchiveName = z.string().regex(/^record-\d{8}-\d{8}T\d{9}Z\.jsonl$/);

export const RecordLine = z.discriminatedUnion('k', [
  z.strictObject({ k: z.literal('head'), head: SignedHead }),
  z.strictObject({
    k: z.literal('checkpoint'),
    terminal: TerminalId,
    seq: z.number().int().nonnegative(),
    hash: Hex64,
    stateSha256: Hex64,
    signature: z.string(),
    at: z.string(),
  }),
  z.strictObject({
    k: z.literal('refused'),
    at: z.string(),
    terminal: z.string().nullable(),
    error: z.string(),
    message: z.string(),
    repeated: z.number().int(),
  }),
  /** The witness's fold of the entries' effects where it signed a checkpoint (witness/effects.ts): a restart goes on from it. */
  z.strictObject({ k: z.literal('fold'), terminal: TerminalId, effects: EffectsSnapshot }),
  z.strictObject({ k: z.literal('forget'), at: z.string(), terminal: TerminalId, head: SignedHead.nullable(), by: z.string() }),
  /**
   * The first line of a record begun by a rotation (witness/rotation.ts): the archive it carries on
   * from, by name, length and SHA-256, so a copy kept off the cabinet can be shown to be that file.
   */
  z.strictObject({ k: z.literal('carried'), at: z.string(), archive: ArchiveName, bytes: z.number().int().nonnegative(), sha256: Hex64 }),
]);
export type RecordLine = z.infer<typeof RecordLine>;

export const RECORD_FILE = 'record.jsonl';

export interface RecordOptions {
  /** Where a torn last line cut off at the first append is logged (the witness's log). */
  log?: (line: Record<string, unknown>) => void;
  /** Writes some of `bytes` at the end, returning how many (`fs.writeSync`; tests: a disk that cuts writes short). */
  write?: (fd: number, bytes: Buffer) => number;
}

/** The record is read this much at a time: however long it grew, no one string holds it. */
const READ_CHUNK = 1024 * 1024;

export class WitnessRecord {
  private fd: number | null = null;
  /** The record's length in bytes, all whole lines: a line that fails half written is cut back to it. */
  private size = 0;

  constructor(
    readonly file: string,
    private readonly o: RecordOptions = {},
  ) {}

  /** Every whole line of the record, in order (`lines()` gathered). */
  read(): RecordLine[] {
    return [...this.lines()];
  }

  /**
   * Every whole line of the record, in order, read a chunk at a time. A last line with no newline
   * (a power cut in its write) is left out: its fsync never returned, so no answer depended on it;
   * the first append cuts it off. Any other line that is not a record line throws: the record was edited.
   */
  *lines(): Generator<RecordLine> {
    if (!existsSync(this.file)) return;
    const fd = openSync(this.file, 'r');
    try {
      const decoder = new StringDecoder('utf8');
      const buf = Buffer.alloc(READ_CHUNK);
      let pending = '';
      let n = 0;
      for (;;) {
        const got = readSync(fd, buf, 0, buf.length, null);
        if (got === 0) break;
        pending += decoder.write(buf.subarray(0, got));
        const parts = pending.split('\n');
        pending = parts.pop() ?? '';
        for (const line of parts) {
          n++;
          if (line !== '') yield this.parse(line, n);
        }
      }
    } finally {
      closeSync(fd);
    }
  }

  private parse(line: string, n: number): RecordLine {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`${this.file}: line ${n} is not JSON: the record was edited`);
    }
    const r = RecordLine.safeParse(parsed);
    if (!r.success) throw new Error(`${this.file}: line ${n} is not a record line: ${r.error.issues[0]?.message ?? ''}`);
    return r.data;
  }

  /**
   * Appends one line and fsyncs it; a write the disk cuts short goes on until the line is whole.
   * When it fails half way (a full disk), what it wrote is cut off again: the record never holds
   * half a line before the next.
   */
  append(line: RecordLine): void {
    const fd = this.open();
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    const write = this.o.write ?? ((f: number, b: Buffer) => writeSync(f, b));
    try {
      for (let done = 0; done < bytes.length;) {
        const n = write(fd, bytes.subarray(done));
        if (!(n > 0)) throw new Error(`${this.file}: a write took nothing (${done} of ${bytes.length} bytes written)`);
        done += n;
      }
      fsyncSync(fd);
    } catch (e) {
      try {
        ftruncateSync(fd, this.size);
      } catch {
        /* the next open cuts a torn tail off */
      }
      throw e;
    }
    this.size += bytes.length;
  }

  /** Opens the record to append, first cutting off a last line a power cut tore (after the last newline). */
  private open(): number {
    if (this.fd !== null) return this.fd;
    const fd = openSync(this.file, 'a+', 0o600);
    try {
      const size = fstatSync(fd).size;
      const whole = wholeLength(fd, size);
      if (whole < size) {
        ftruncateSync(fd, whole);
        fsyncSync(fd);
        this.o.log?.({
          level: 'warn',
          at: new Date().toISOString(),
          message: `${this.file}: its last ${size - whole} bytes, a line torn by a power cut (no newline), were cut off`,
        });
      }
      this.size = whole;
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    this.fd = fd;
    return fd;
  }

  /** The record's length in bytes (whole lines), opening it to append if it is not yet. */
  length(): number {
    this.open();
    return this.size;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Writes a new record of `lines` at `file` (which must not exist) and fsyncs it. */
  static create(file: string, lines: readonly RecordLine[]): void {
    const fd = openSync(file, 'wx', 0o600);
    try {
      const bytes = Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), 'utf8');
      for (let done = 0; done < bytes.length;) {
        const n = writeSync(fd, bytes, done);
        if (!(n > 0)) throw new Error(`${file}: a write took nothing (${done} of ${bytes.length} bytes written)`);
        done += n;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** The length of a file's whole lines: up to and with its last newline. */
function wholeLength(fd: number, size: number): number {
  const buf = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - buf.length);
    const got = readSync(fd, buf, 0, end - start, start);
    const nl = buf.subarray(0, got).lastIndexOf(0x0a);
    if (nl >= 0) return start + nl + 1;
    end = start;
  }
  return 0;
}
