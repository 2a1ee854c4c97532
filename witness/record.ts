import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { EffectsSnapshot } from './effects.js';
import { SignedHead, TerminalId } from './wire.js';

// The witness's append-only record (`record.jsonl` in its folder): one JSON line per event, each
// written and fsynced before the answer that depends on it leaves. It holds every checkpoint the
// witness signed (a second, different state at the same entry is refused against it), the first
// head of each terminal, a head at most every `headEvery` (the newest is always in the terminal's
// head slots, witness/head-slots.ts), every refusal (rate-limited: a flood of refusals cannot fill
// the disk), every loss accepted by hand (`etg witness forget`), and its fold of the entries'
// effects at each checkpoint it signed (the next start goes on from the newest). Nothing in it is rewritten.

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);

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
]);
export type RecordLine = z.infer<typeof RecordLine>;

export const RECORD_FILE = 'record.jsonl';

export class WitnessRecord {
  private fd: number | null = null;

  constructor(readonly file: string) {}

  /**
   * Every whole line of the record, in order. A last line cut short by a power cut (no newline,
   * or not JSON) is left out: it was never fsynced, so no answer depended on it.
   */
  read(): RecordLine[] {
    if (!existsSync(this.file)) return [];
    const text = readFileSync(this.file, 'utf8');
    const lines = text.split('\n');
    const out: RecordLine[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line === '') continue;
      const last = i === lines.length - 1;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        if (last) continue;
        throw new Error(`${this.file}: line ${i + 1} is not JSON: the record was edited`);
      }
      const r = RecordLine.safeParse(parsed);
      if (!r.success) throw new Error(`${this.file}: line ${i + 1} is not a record line: ${r.error.issues[0]?.message ?? ''}`);
      out.push(r.data);
    }
    return out;
  }

  /** Appends one line and fsyncs it. */
  append(line: RecordLine): void {
    if (this.fd === null) {
      // A last line torn by a power cut is ended first, so the new line stands on its own.
      const torn = existsSync(this.file) && !readFileSync(this.file, 'utf8').endsWith('\n') && readFileSync(this.file).length > 0;
      this.fd = openSync(this.file, 'a', 0o600);
      if (torn) writeSync(this.fd, '\n');
    }
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
