// The printer's wire as a technician's trace shows it: each command's text, each status's flags.
import { bytesAscii } from '../bytes.js';
import { hex, type WireFrame } from '../wire-frame.js';
import { conditionOf } from './condition.js';
import { encodeStatus, type TclStatus } from './tcl.js';

/** A command the host wrote: its text (fields are ASCII or UTF-8; the trace shows `?` past ASCII), cut at 80 characters. */
export function tclTx(bytes: Uint8Array): WireFrame {
  const text = bytesAscii(bytes);
  return { dir: 'tx', hex: hex(bytes), meaning: text.length > 80 ? `${text.slice(0, 77)}...` : text };
}

/** A status reply: the flags that are set, the last template. */
export function tclRx(s: TclStatus): WireFrame {
  const c = conditionOf(s);
  const on = (['busy', 'paperLow', 'paperInChute', 'chassisOpen', 'topOfForm', 'reset', 'barcodeAccessed', 'validationDone'] as const).filter((k) => c[k]);
  const parts = [`STATUS ${s.version}`, ...on, ...c.faults, `last template ${c.lastTemplate || '-'}`];
  return { dir: 'rx', hex: hex(encodeStatus(s)), meaning: parts.join(', ') };
}
