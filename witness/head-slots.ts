import type { KeyObject } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { headStatement, statementSigned } from './statement.js';
import { SignedHead } from './wire.js';

/** One slot: a JSON line padded to a sector, so that each write replaces one slot whole or not at all. */
const SLOT_BYTES = 512;

/**
 * A terminal's head file that cannot stand for "no head yet": it holds bytes but no slot that
 * verifies, or the record shows a newer head than it does. The witness never signs that terminal
 * from genesis again on its own: its requests are answered `failed` with this message until the
 * file is restored or the loss accepted by hand (`etg witness forget`).
 */
export class HeadLost extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    const terminal = file.split('/').pop() ?? '';
    super(
      `${file} ${why}: the head file was damaged, lost or replaced, and the witness does not sign ${terminal} from genesis again; restore the file, or accept the loss with \`etg witness forget --terminal ${terminal}\``,
    );
    this.name = 'HeadLost';
  }
}

/**
 * The newest head the witness signed for one terminal, kept in two alternating slots of one file:
 * each write goes to the slot not holding the newest, then is fsynced, so a power cut in the
 * middle of a write leaves the other slot — the previous head — whole. Read back, a slot counts
 * only if it parses and carries the witness's own signature.
 */
export class HeadSlots {
  private fd: number | null = null;
  private counter = 0;

  constructor(
    readonly file: string,
    private readonly publicKey: KeyObject,
    /** The terminal whose file it is: a slot naming another (another head file copied over this one) does not count. */
    private readonly terminal: string,
  ) {}

  /**
   * The newest valid head in the file, or null when there is none yet (no file, or an empty one: a
   * crash before the first write landed). A file that holds bytes but no slot that verifies (both
   * slots damaged, written under another key, or heads of another terminal) throws `HeadLost`: it
   * is never taken for "none yet", nor another terminal's head for this one's (the witness signed
   * on from it: a head of this terminal off its chain).
   */
  read(): SignedHead | null {
    let best: { n: number; head: SignedHead } | null = null;
    const slots = readSlots(this.file);
    const signed = slots.filter((s) => statementSigned(this.publicKey, headStatement(s.head), s.head.signature));
    for (const parsed of signed) {
      if (parsed.head.terminal !== this.terminal) continue;
      if (!best || parsed.n > best.n) best = parsed;
    }
    if (!best && existsSync(this.file) && statSync(this.file).size > 0) {
      const other = signed[0]?.head.terminal;
      throw new HeadLost(
        this.file,
        other !== undefined
          ? `holds a head of ${other}, not of ${this.terminal}`
          : slots.length > 0
            ? "holds no slot that verifies with this witness's key"
            : 'holds no slot that verifies (neither slot is a head)',
      );
    }
    this.counter = best?.n ?? 0;
    return best?.head ?? null;
  }

  /** Writes `head` as the newest, durably (fsync) before returning. */
  write(head: SignedHead): void {
    this.fd ??= openSync(this.file, existsSync(this.file) ? 'r+' : 'w+', 0o600);
    const n = this.counter + 1;
    const line = JSON.stringify({ n, head });
    if (line.length >= SLOT_BYTES) throw new Error('a head does not fit its slot');
    writeSync(this.fd, line.padEnd(SLOT_BYTES - 1, ' ') + '\n', (n % 2) * SLOT_BYTES, 'utf8');
    fsyncSync(this.fd);
    this.counter = n;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The slots of a head file that parse, signature unchecked (`forgetTerminal` names what it forgets without the key). */
export function readSlots(file: string): { n: number; head: SignedHead }[] {
  if (!existsSync(file)) return [];
  const fd = openSync(file, 'r');
  const out: { n: number; head: SignedHead }[] = [];
  try {
    for (let slot = 0; slot < 2; slot++) {
      const buf = Buffer.alloc(SLOT_BYTES);
      const got = readSync(fd, buf, 0, SLOT_BYTES, slot * SLOT_BYTES);
      const parsed = parseSlot(buf.subarray(0, got).toString('utf8'));
      if (parsed) out.push(parsed);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

function parseSlot(text: string): { n: number; head: SignedHead } | null {
  try {
    const v = JSON.parse(text.replace(/\0/g, '').trim()) as { n?: unknown; head?: unknown };
    const head = SignedHead.safeParse(v.head);
    if (!head.success || typeof v.n !== 'number' || !Number.isSafeInteger(v.n) || v.n < 1) return null;
    return { n: v.n, head: head.data };
  } catch {
    return null;
  }
}
