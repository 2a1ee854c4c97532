import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { WireFrame } from '../../hardware/wire-frame.js';

/** Where a note is, as the device knows it: held in escrow, in the stacker (money taken), given back. */
export type NotePlace = 'escrow' | 'stacker' | 'returned';

/** One acceptor's notes as its record file tells them, read by whoever outlived the last kill. */
export interface DeviceTruth {
  device: string;
  nextNote: number;
  notes: Map<string, { amount: number; where: NotePlace }>;
  /** Stacked notes whose credit the host has not acknowledged: the device reports them again. */
  owed: string[];
}

/**
 * One line of the record: what physically happened to a note, appended by the device *before* it
 * reports it to the host. A SIGKILL of the host process cannot undo a line the kernel already has,
 * so the process that outlives the kill (the campaign's parent) knows every note that reached the
 * stacker, whatever the host journalled.
 */
type RecordLine = { e: 'escrow'; id: string; amount: number } | { e: 'stack'; id: string } | { e: 'return'; id: string } | { e: 'ack'; id: string };

/** Thrown when a record file holds a line this format does not write (a torn line is not one: see readDeviceTruth). */
export class DeviceRecordError extends Error {
  override readonly name = 'DeviceRecordError';
}

/**
 * The device's notes from its record file. The last line may be torn (the kill landed inside the
 * `write`): such a line was never followed by a report, so it is dropped, and the next append
 * starts on a line of its own.
 */
export function readDeviceTruth(file: string, device: string): DeviceTruth {
  const truth: DeviceTruth = { device, nextNote: 1, notes: new Map(), owed: [] };
  if (!existsSync(file)) return truth;
  const text = readFileSync(file, 'utf8');
  // Ending in a newline, the last piece is empty; otherwise it is the torn line: dropped either way.
  const complete = text.split('\n').slice(0, -1);
  for (const [i, raw] of complete.entries()) {
    if (raw === '') continue;
    let line: RecordLine;
    try {
      line = JSON.parse(raw) as RecordLine;
    } catch {
      throw new DeviceRecordError(`${file}: line ${i + 1} is not a record line: ${raw.slice(0, 80)}`);
    }
    apply(truth, line, `${file}: line ${i + 1}`);
  }
  return truth;
}

function apply(truth: DeviceTruth, line: RecordLine, where: string): void {
  if (line.e === 'escrow') {
    truth.notes.set(line.id, { amount: line.amount, where: 'escrow' });
    truth.nextNote = Math.max(truth.nextNote, Number(line.id.slice(1)) + 1);
    return;
  }
  const n = truth.notes.get(line.id);
  if (!n) throw new DeviceRecordError(`${where}: note ${line.id} was never in escrow`);
  if (line.e === 'stack') {
    n.where = 'stacker';
    truth.owed.push(line.id);
  } else if (line.e === 'return') n.where = 'returned';
  else truth.owed = truth.owed.filter((id) => id !== line.id);
}

/**
 * A bill acceptor at the level of its protocol's promises (as cli/sim-faults/sim-acceptor.ts),
 * whose state lives in a record file: escrow, then stack when the host says so, then a credit
 * report repeated until the host's handler returns (the acknowledgement); at power-up a note left
 * in escrow is returned and every stacked note not acknowledged is reported again.
 */
export class RecordedAcceptor implements BillAcceptor {
  readonly protocol = 'id003' as const;
  readonly currency = 'MOP' as const;
  private readonly listeners = new Set<(e: BillAcceptorEvent) => void>();
  private enabled: boolean;
  private readonly truth: DeviceTruth;

  constructor(
    private readonly file: string,
    device: string,
    private readonly options: BillAcceptorOptions,
  ) {
    this.enabled = options.enabled ?? false;
    this.truth = readDeviceTruth(file, device);
    // A torn last line: the next line starts on its own.
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.length > 0 && !text.endsWith('\n')) appendFileSync(file, '\n');
  }

  on(listener: (e: BillAcceptorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onFrame(listener: (f: WireFrame) => void): () => void {
    void listener;
    return () => undefined;
  }

  /** Power-up: a note left in escrow goes back; the stacked notes not acknowledged are reported again. */
  start(): void {
    this.emit({ type: 'connected', protocol: 'id003' });
    for (const [escrowId, n] of this.truth.notes) {
      if (n.where !== 'escrow') continue;
      this.record({ e: 'return', id: escrowId });
      this.emit({ type: 'returned', note: this.note(escrowId, n.amount), reason: 'power-up' });
    }
    this.poll(true);
  }

  enable(): void {
    this.enabled = true;
  }

  disable(): void {
    this.enabled = false;
  }

  setAccepted(denominations: readonly number[]): void {
    void denominations;
  }

  async close(): Promise<void> {}

  /** A customer inserts a note. False when the slot refuses it (inhibited, or a credit still owed). */
  insert(amount: number): boolean {
    if (!this.enabled || this.truth.owed.length > 0) return false;
    const escrowId = `N${this.truth.nextNote++}`;
    this.record({ e: 'escrow', id: escrowId, amount });
    const note = this.note(escrowId, amount);
    this.emit({ type: 'escrowed', note });
    const decision = this.options.onEscrow?.(note);
    if (decision !== 'stack') return true;
    // The note drops into the stacker: recorded before the device reports its credit.
    this.record({ e: 'stack', id: escrowId });
    this.poll(false);
    return true;
  }

  /** The device's poll answer: each credit it owes, until the host's handler returns for it. */
  poll(recovered: boolean): void {
    for (const escrowId of [...this.truth.owed]) {
      const n = this.truth.notes.get(escrowId);
      if (!n) continue;
      const done = this.options.onCredit?.({ escrowId, amount: n.amount, currency: 'MOP', denomination: n.amount / 100, recovered });
      // The host's handler (host/devices/bill-acceptors.ts) journals synchronously; one that
      // answered later would need the acknowledgement to wait for it.
      if (done instanceof Promise) throw new DeviceRecordError('this device model acknowledges only a synchronous credit handler');
      this.record({ e: 'ack', id: escrowId });
    }
  }

  private record(line: RecordLine): void {
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
    apply(this.truth, line, this.file);
  }

  private note(escrowId: string, amount: number): EscrowedNote {
    return { escrowId, amount, denomination: amount / 100, currency: 'MOP', code: 0 };
  }

  private emit(e: BillAcceptorEvent): void {
    for (const l of this.listeners) l(e);
  }
}
