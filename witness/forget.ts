import { rmSync } from 'node:fs';
import path from 'node:path';
import { lockWitnessFolder } from './folder-lock.js';
import { readSlots } from './head-slots.js';
import { RECORD_FILE, WitnessRecord } from './record.js';
import { TerminalId, type SignedHead } from './wire.js';

/**
 * Accepts the loss of a terminal's witnessed entries (a database restored from a backup, a disk
 * replaced): its head slots go, a `forget` line saying who and what is recorded first, and its next
 * head is taken from genesis again. Only whoever may write the witness's folder can do it (root on
 * a cabinet), and only with the witness stopped (it keeps the head in memory). Returns the head
 * forgotten, or null when there was none.
 */
export function forgetTerminal(dir: string, terminal: string, by: string, clock: () => Date = () => new Date()): SignedHead | null {
  // Checked before anything is written: a `forget` line the record refuses would keep the witness
  // from starting, and an id that is a path would remove another file than a head file.
  const problem = terminalIdProblem(terminal);
  if (problem) throw new Error(problem);
  // Never beside a running witness (WitnessFolderBusy): it would go on from the head in its memory,
  // writing into the head file removed here, and the next start would find the forget undone.
  const lock = lockWitnessFolder(dir, { create: false });
  try {
    return forgetHeld(dir, terminal, by, clock);
  } finally {
    lock?.release();
  }
}

function forgetHeld(dir: string, terminal: string, by: string, clock: () => Date): SignedHead | null {
  const file = path.join(dir, 'heads', terminal);
  // Both slots read as found (the key is not needed to forget): the newest well-formed one is named.
  let head: SignedHead | null = null;
  let best = -1;
  for (const slot of readSlots(file)) {
    if (slot.n > best) {
      best = slot.n;
      head = slot.head;
    }
  }
  const record = new WitnessRecord(path.join(dir, RECORD_FILE));
  try {
    record.append({ k: 'forget', at: clock().toISOString(), terminal, head, by });
  } finally {
    record.close();
  }
  rmSync(file, { force: true });
  return head;
}

/** Why `terminal` is no terminal id the witness knows (witness/wire.ts `TerminalId`), or null when it is one. */
export function terminalIdProblem(terminal: string): string | null {
  if (TerminalId.safeParse(terminal).success) return null;
  return `${JSON.stringify(terminal)} is not a terminal id: letters, digits, _, - and ., not . first, at most 64 (nothing was forgotten)`;
}
