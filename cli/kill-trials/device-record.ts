import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { BillAcceptorOptions } from '../../hardware/billacceptor/types.js';
import { acceptorTruth, applyNoteEvent, FakeAcceptor, FakeAcceptorError, type AcceptorTruth, type NoteEvent } from '../fake-acceptor/fake-acceptor.js';

// The SIGKILL trials' acceptor: the campaigns' one fake (cli/fake-acceptor/fake-acceptor.ts) whose
// notes live in a record file. Each line is what physically happened to a note (a `NoteEvent`),
// appended by the device *before* it reports it to the host. A SIGKILL of the host process cannot
// undo a line the kernel already has, so the process that outlives the kill (the campaign's
// parent) knows every note that reached the stacker, whatever the host journalled.

/** One acceptor's notes as its record file tells them, read by whoever outlived the last kill. */
export type DeviceTruth = AcceptorTruth;

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
  const truth = acceptorTruth(device);
  if (!existsSync(file)) return truth;
  const text = readFileSync(file, 'utf8');
  // Ending in a newline, the last piece is empty; otherwise it is the torn line: dropped either way.
  const complete = text.split('\n').slice(0, -1);
  for (const [i, raw] of complete.entries()) {
    if (raw === '') continue;
    const where = `${file}: line ${i + 1}`;
    let line: NoteEvent;
    try {
      line = JSON.parse(raw) as NoteEvent;
    } catch {
      throw new DeviceRecordError(`${where} is not a record line: ${raw.slice(0, 80)}`);
    }
    try {
      applyNoteEvent(truth, line);
    } catch (e) {
      if (e instanceof FakeAcceptorError) throw new DeviceRecordError(`${where}: ${e.message}`);
      throw e;
    }
  }
  return truth;
}

/**
 * The fake acceptor over its record file: at power-up a note left in escrow is returned and every
 * stacked note not acknowledged is reported again at the next poll, as in the simulation.
 */
export class RecordedAcceptor extends FakeAcceptor {
  constructor(file: string, device: string, options: BillAcceptorOptions) {
    const truth = readDeviceTruth(file, device);
    // A torn last line: the next line starts on its own.
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.length > 0 && !text.endsWith('\n')) appendFileSync(file, '\n');
    super(truth, options, (event) => appendFileSync(file, `${JSON.stringify(event)}\n`));
  }
}
