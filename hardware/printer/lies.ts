// The lies a simulated printer can tell (a hostile or broken printer), for the hostile suite:
// - `jam-claims-printed`: the job jams before its barcode, yet the status says the validation number is done (beside the jam);
// - `jam-silent`: the job jams before its barcode and the status tells a clean, complete cycle (no jam, validation done, the
//   template named): a lie the protocol cannot show, told here to show where any driver's knowledge ends;
// - `print-twice`: the job prints two tickets with the same validation number (a second cycle nobody asked for);
// - `stale-validation`: the job is never printed; the validation flag never clears and the status names the template anyway;
// - `reset-mid-print`: the status says the printer was reset in the middle of the job (it was not);
// - `wrong-template`: the job completes and the status names the other template;
// - `garbage`: every reply is bytes that are no status; `silence`: no reply at all;
// - `held-till-next`: the job waits in the printer's buffer, nothing in the status moving, and starts
//   when the next print command comes (a flush, `^F|A|^`, empties the buffer);
// - `held-past-flush`: the same, and a flush leaves it there (only a reset or a power cut loses it).
import { FLAG } from './tcl.js';
import type { TclStatus } from './tcl.js';

export type PrinterLie =
  | 'jam-claims-printed'
  | 'jam-silent'
  | 'print-twice'
  | 'stale-validation'
  | 'reset-mid-print'
  | 'wrong-template'
  | 'garbage'
  | 'silence'
  | 'held-till-next'
  | 'held-past-flush';

export const PRINTER_LIES: readonly PrinterLie[] = [
  'jam-claims-printed',
  'jam-silent',
  'print-twice',
  'stale-validation',
  'reset-mid-print',
  'wrong-template',
  'garbage',
  'silence',
  'held-till-next',
  'held-past-flush',
];

/** The status as the lying printer tells it (the lies that are told in the status rather than done). */
// The mechanism's job, as far as this reads it (sim-mechanism.ts imports this file: no import back).
export function lieStatus(m: { readonly job: { readonly lie: PrinterLie | null; readonly step: string } | null }, truth: TclStatus): TclStatus {
  const job = m.job;
  if (job?.lie === 'reset-mid-print' && (job.step === 'validated' || job.step === 'cutting')) {
    const flags = [...truth.flags];
    flags[4] = (flags[4] ?? 0) | FLAG.f5.RESET;
    return { ...truth, flags };
  }
  return truth;
}
