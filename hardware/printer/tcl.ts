// FutureLogic/JCM TCL (GEN2–GEN5 ticket printers; Nanoptix and TransAct emulate it) on the wire.
// Host → printer: ASCII commands `^<letter>|<field>|…|^`. Printer → host: the status reply
//   `*S|<unit address>|<software version>|<f1>|<f2>|<f3>|<f4>|<f5>|P<last template>|*`
// whose five flag bytes are binary (bit 6 always set, so 0x40 '@' means "nothing to report").
// Sources and every byte assumed: docs/protocols/tcl.md.
import { ByteQueue, asciiBytes } from '../bytes.js';

/** A command's bytes. Fields are escaped (see `escapeField`); the caller gives each field as text. */
export function encodeCommand(letter: string, fields: readonly string[] = []): Uint8Array {
  if (!/^[A-Za-z]{1,2}$/.test(letter)) throw new Error(`TCL command letter "${letter}"`);
  const body = [letter, ...fields.map(escapeField)].join('|');
  return new TextEncoder().encode(`^${body}|^`);
}

/**
 * A field's text with TCL's three reserved characters written as `~ddd` (the character's decimal
 * code), as Aristocrat's driver does for `~`, `^` and `|`. Control characters are refused, not
 * escaped: no source shows a printer reading `~ddd` for them. Anything else goes as UTF-8, whose
 * bytes past ASCII are all ≥ 0x80 and so can never be read as a delimiter.
 */
export function escapeField(text: string): string {
  if (hasControlCharacter(text)) throw new Error('a TCL field cannot carry control characters');
  return text.replace(/[~^|]/g, (c) => `~${c.charCodeAt(0).toString().padStart(3, '0')}`);
}

/** Whether a text holds a C0 control character or DEL (which no TCL field may carry). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** The inverse of escapeField (the simulator and the tests read fields back). */
export function unescapeField(text: string): string {
  return text.replace(/~(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d)));
}

export const COMMAND = {
  /** Status request. */
  STATUS: encodeCommand('S'),
  /** Extended status request: the five-flag reply. */
  STATUS_EXTENDED: encodeCommand('Se'),
  /** Clear the printer's software error flags. */
  CLEAR: encodeCommand('C'),
  /** Clear the error flags and a paper jam. */
  CLEAR_JAM: encodeCommand('C', ['j']),
  /** Delete every region the host defined in RAM. */
  DELETE_REGIONS: encodeCommand('R', ['$', 'DR']),
  /** Flush every job waiting in the printer's buffer ([A], [P]: `^F|A|^`). */
  FLUSH: encodeCommand('F', ['A']),
  /** Reset the printer: its RAM (the layout, the last template, the buffer) is lost ([A], [P]: `^r|^`). */
  RESET: encodeCommand('r'),
} as const;

/** Status flag bits, by byte (flags1…flags5). Bit 6 (0x40) is set in every flag byte. */
export const FLAG = {
  f1: { VOLTAGE_ERROR: 0x01, HEAD_ERROR: 0x02, PAPER_OUT: 0x04, PLATEN_UP: 0x08, SYSTEM_ERROR: 0x10, BUSY: 0x20 },
  f2: { JOB_MEMORY_OVERFLOW: 0x01, BUFFER_OVERFLOW: 0x02, LIBRARY_LOAD_ERROR: 0x04, PR_DATA_ERROR: 0x08, LIBRARY_REF_ERROR: 0x10, TEMPERATURE_ERROR: 0x20 },
  f3: { MISSING_SUPPLY_INDEX: 0x01, OFFLINE: 0x02, FLASH_PROGRAM_ERROR: 0x04, PAPER_IN_CHUTE: 0x08, LIBRARIES_CORRUPT: 0x10, COMMAND_ERROR: 0x20 },
  f4: { PAPER_LOW: 0x01, PAPER_JAM: 0x02, CUTTER_ERROR: 0x04, JOURNAL_MODE: 0x08 },
  f5: { RESET: 0x01, BARCODE_ACCESSED: 0x02, CHASSIS_OPEN: 0x04, XOFF: 0x08, TOP_OF_FORM: 0x10, VALIDATION_DONE: 0x20 },
} as const;

export const FLAG_BASE = 0x40;

/** A status reply as the printer sent it. `flags` has 5 bytes (extended status) or 3 (the short form). */
export interface TclStatus {
  unit: string;
  version: string;
  flags: readonly number[];
  /** The last template printed, as the `P<t>` field says (empty when the printer names none). */
  lastTemplate: string;
}

/** Encodes a status reply (the simulator, the tests). */
export function encodeStatus(s: TclStatus): Uint8Array {
  const head = asciiBytes(`*S|${s.unit}|${s.version}|`);
  const flags: number[] = [];
  for (const f of s.flags) flags.push(f, 0x7c);
  const tail = asciiBytes(`P${s.lastTemplate}|*`);
  const out = new Uint8Array(head.length + flags.length + tail.length);
  out.set(head, 0);
  out.set(flags, head.length);
  out.set(tail, head.length + flags.length);
  return out;
}

/** Longest reply the parser waits for: a status is 29 bytes with a 9-character version. */
export const MAX_REPLY = 64;

const STAR = 0x2a;
const BAR = 0x7c;

/**
 * Stream parser for the printer's replies. It looks for `*S|`, then reads the fields by position:
 * the flag bytes are binary and may be any of 0x40–0x7F, `|` (0x7C) among them, so the reply is not
 * split on `|`. A reply that does not fit the layout, or a flag byte without bit 6 set (or with bit
 * 7), is dropped from its first byte and the scan goes on; so is a run longer than MAX_REPLY.
 */
export class TclReplyParser {
  private q = new ByteQueue();
  /** Replies dropped as malformed (diagnostics; the driver reads "garbage" from it). */
  errors = 0;

  push(bytes: Uint8Array): TclStatus[] {
    this.q.push(bytes);
    const out: TclStatus[] = [];
    for (;;) {
      let i = 0;
      while (i < this.q.length && this.q.at(i) !== STAR) i++;
      if (i > 0) {
        this.errors++;
        this.q.drop(i);
      }
      if (this.q.length < 3) break;
      if (this.q.at(1) !== 0x53 || this.q.at(2) !== BAR) {
        this.drop();
        continue;
      }
      const r = this.read();
      if (r === 'more') {
        if (this.q.length >= MAX_REPLY) this.drop();
        else break;
        continue;
      }
      if (r === 'bad') {
        this.drop();
        continue;
      }
      out.push(r.status);
      this.q.drop(r.length);
    }
    return out;
  }

  reset(): void {
    this.q.clear();
  }

  private drop(): void {
    this.errors++;
    this.q.drop(1);
  }

  /** One reply from the front of the queue, if it is complete and well formed. */
  private read(): { status: TclStatus; length: number } | 'more' | 'bad' {
    const n = Math.min(this.q.length, MAX_REPLY);
    const b = this.q.view(0, n);
    let p = 3;
    const text = (): string | null => {
      let s = '';
      while (p < n && b[p] !== BAR) {
        const c = b[p] ?? 0;
        if (c < 0x20 || c > 0x7e || c === STAR) return null;
        s += String.fromCharCode(c);
        p++;
      }
      if (p >= n) return '';
      p++;
      return s;
    };
    const unit = text();
    if (unit === null) return 'bad';
    if (p >= n) return 'more';
    const version = text();
    if (version === null) return 'bad';
    if (p >= n) return 'more';
    // Extended form first (five flags), then the short one (three).
    for (const count of [5, 3]) {
      const r = flagsAt(b, p, count);
      if (r === 'more') return 'more';
      if (r !== 'bad') return { status: { unit, version, flags: r.flags, lastTemplate: r.template }, length: r.end };
    }
    return 'bad';
  }
}

/** `count` flags from p, then `P<template>|*`. */
function flagsAt(b: Uint8Array, p: number, count: number): { flags: number[]; template: string; end: number } | 'more' | 'bad' {
  const flags: number[] = [];
  for (let k = 0; k < count; k++) {
    if (p >= b.length) return 'more';
    const f = b[p] ?? 0;
    if ((f & 0xc0) !== FLAG_BASE) return 'bad';
    if (p + 1 >= b.length) return 'more';
    if (b[p + 1] !== BAR) return 'bad';
    flags.push(f);
    p += 2;
  }
  if (p >= b.length) return 'more';
  if (b[p] !== 0x50) return 'bad';
  p++;
  let template = '';
  while (p < b.length && b[p] !== BAR) {
    const c = b[p] ?? 0;
    if (c < 0x20 || c > 0x7e || template.length >= 4) return 'bad';
    template += String.fromCharCode(c);
    p++;
  }
  if (p + 1 >= b.length) return 'more';
  if (b[p + 1] !== STAR) return 'bad';
  return { flags, template, end: p + 2 };
}

/** A flag bit of a status (false when the short form has no such byte). */
export function has(s: TclStatus, byte: 1 | 2 | 3 | 4 | 5, bit: number): boolean {
  const f = s.flags[byte - 1];
  return f !== undefined && (f & bit) !== 0;
}

/**
 * A host → printer command read back into its letter and fields (the simulator and the tests).
 * Splits on `|` after taking `^…^`: fields carry no raw `|` or `^` (they are escaped).
 */
export function parseCommand(text: string): { letter: string; fields: string[] } | null {
  if (!text.startsWith('^') || !text.endsWith('|^') || text.length < 4) return null;
  const parts = text.slice(1, -2).split('|');
  const letter = parts.shift() ?? '';
  if (!/^[A-Za-z]{1,2}$/.test(letter)) return null;
  return { letter, fields: parts.map(unescapeField) };
}
