// A second, minimal TCL implementation written from docs/protocols/tcl.md alone, and from none of
// hardware/printer/ (no codec, no constants of ours: only the plumbing that carries bytes). It has
// both ends: a printer that the real driver prints on, and a host that prints on the real simulator.
// Where the page leaves a choice, this peer makes its own (its printer takes two polls to print, not
// five; its host parses by position from the end of the version field).
import type { DeviceSide } from '../../hardware/sim/device-side.js';
import type { BytePort } from '../../hardware/transport/byte-port.js';
import { LINE_8N1_9600 } from '../../hardware/transport/byte-port.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** "~ddd" → the character of decimal code ddd (the page: `~126`, `~094`, `~124`). */
function unescape(field: string): string {
  return field.replace(/~([0-9]{3})/g, (_, d: string) => String.fromCharCode(parseInt(d, 10)));
}

/** One peer print job: what the page says a printer shows while it prints. */
interface PeerJob {
  template: string;
  fields: string[];
  polls: number;
}

export class PeerPrinter implements DeviceSide {
  readonly line = LINE_8N1_9600;
  private sink: ((b: Uint8Array) => void) | null = null;
  private pending = '';
  private templates = new Map<string, number>();
  private regions = new Set<string>();
  private job: PeerJob | null = null;
  private last = '';
  private validated = true;
  private resetFlag = true;
  private badCommand = false;
  /** Jobs taken and not started: the page's buffer, which a flush empties and a reset loses. */
  private buffer: PeerJob[] = [];
  private holding = false;
  /** Set by a test: the next job waits in the buffer until another print command comes (the page's held job). */
  holdNext = false;
  /** Tickets the peer printed: their fields, in order. */
  readonly printed: string[][] = [];
  /** Commands the peer refused (a command error), by letter. */
  readonly refused: string[] = [];
  /** Resets the peer took (`^r|^`). */
  resets = 0;

  attach(sink: ((b: Uint8Array) => void) | null): void {
    this.sink = sink;
  }

  receive(bytes: Uint8Array): void {
    this.pending += dec.decode(bytes, { stream: true });
    for (;;) {
      const start = this.pending.indexOf('^');
      if (start < 0) {
        this.pending = '';
        return;
      }
      const end = this.pending.indexOf('|^', start + 1);
      if (end < 0) {
        this.pending = this.pending.slice(start);
        return;
      }
      this.command(this.pending.slice(start + 1, end).split('|'));
      this.pending = this.pending.slice(end + 2);
    }
  }

  private command(parts: string[]): void {
    const [letter, ...fields] = parts;
    if (letter === 'Se' || letter === 'S') return this.status();
    if (letter === 'C') {
      this.resetFlag = false;
      this.badCommand = false;
      return;
    }
    if (letter === 'R' && fields[0] === '$') return this.regions.clear();
    if (letter === 'R' && fields[0]) return void this.regions.add(fields[0]);
    if (letter === 'T' && fields[0] && fields.slice(4).every((r) => this.regions.has(r))) return void this.templates.set(fields[0], fields.length - 4);
    if (letter === 'F' && fields[0] === 'A') {
      this.buffer = [];
      this.holding = false;
      return;
    }
    if (letter === 'r') {
      this.resets++;
      return this.powerUp();
    }
    if (letter === 'P' && fields[0] && (!this.job || this.holding) && this.templates.get(fields[0]) === fields.length - 2) {
      this.buffer.push({ template: fields[0], fields: fields.slice(2).map(unescape), polls: 0 });
      this.holding = this.holdNext;
      this.holdNext = false;
      return this.startNext();
    }
    this.badCommand = true;
    this.refused.push(letter ?? '');
  }

  /** The page's reset: RAM (regions, templates, the last template named) and the buffer lost, the reset flag set. */
  private powerUp(): void {
    this.templates.clear();
    this.regions.clear();
    this.buffer = [];
    this.job = null;
    this.holding = false;
    this.last = '';
    this.validated = true;
    this.badCommand = false;
    this.resetFlag = true;
  }

  private startNext(): void {
    if (this.job || this.holding) return;
    const next = this.buffer.shift();
    if (!next) return;
    this.job = next;
    this.validated = false;
  }

  private status(): void {
    const job = this.job;
    if (job) {
      job.polls++;
      if (job.polls === 2) this.validated = true;
      if (job.polls === 3) {
        this.printed.push(job.fields);
        this.last = job.template;
        this.job = null;
        this.startNext();
      }
    }
    const busy = this.job !== null;
    // Bit 6 set in every flag byte; f1 bit 5 busy, f3 bit 5 command error, f5 bit 0 reset, bit 5 validation done.
    const flags = [
      0x40 | (busy ? 0x20 : 0) | (this.badCommand ? 0x10 : 0),
      0x40,
      0x40 | (this.badCommand ? 0x20 : 0),
      0x40,
      0x40 | (this.resetFlag ? 0x01 : 0) | (this.validated ? 0x20 : 0),
    ];
    const head = enc.encode('*S|0|PEER00001|');
    const tail = enc.encode(`P${this.last}|*`);
    const out = new Uint8Array(head.length + flags.length * 2 + tail.length);
    out.set(head);
    flags.forEach((f, i) => out.set([f, 0x7c], head.length + i * 2));
    out.set(tail, head.length + flags.length * 2);
    this.sink?.(out);
  }
}

/** What the peer host reads of a status: by position, from the page's layout. */
export interface PeerStatus {
  busy: boolean;
  validationDone: boolean;
  reset: boolean;
  lastTemplate: string;
}

/** Reads one status reply (or null): `*S|`, unit, `|`, version, `|`, five binary flags each with `|`, `P`, template, `|*`. */
export function peerReadStatus(b: Uint8Array): PeerStatus | null {
  if (b[0] !== 0x2a || b[1] !== 0x53 || b[2] !== 0x7c) return null;
  let i = 3;
  while (i < b.length && b[i] !== 0x7c) i++; // unit address
  i++;
  while (i < b.length && b[i] !== 0x7c) i++; // version
  i++;
  const flags = [b[i], b[i + 2], b[i + 4], b[i + 6], b[i + 8]];
  if (flags.some((f) => f === undefined || (f & 0xc0) !== 0x40)) return null;
  i += 10;
  if (b[i] !== 0x50 || b[b.length - 1] !== 0x2a || b[b.length - 2] !== 0x7c) return null;
  const f1 = flags[0] ?? 0;
  const f5 = flags[4] ?? 0;
  return { busy: (f1 & 0x20) !== 0, validationDone: (f5 & 0x20) !== 0, reset: (f5 & 0x01) !== 0, lastTemplate: dec.decode(b.subarray(i + 1, b.length - 2)) };
}

/** The peer host: one ticket on a one-region template over a port, polling until the printer says it is done. */
export async function peerHostPrint(port: BytePort, barcode: string, polls = 50): Promise<PeerStatus[]> {
  let buf = new Uint8Array(0);
  const replies: Uint8Array[] = [];
  port.onData((b) => {
    const next = new Uint8Array(buf.length + b.length);
    next.set(buf);
    next.set(b, buf.length);
    buf = next;
    // A reply ends with `|*` and starts with `*S|`: take whole ones.
    for (let end = 1; end < buf.length; end++) {
      if (buf[end] === 0x2a && buf[end - 1] === 0x7c) {
        replies.push(buf.slice(0, end + 1));
        buf = buf.slice(end + 1);
        end = 0;
      }
    }
  });
  const send = (s: string) => port.write(enc.encode(s));
  const ask = async (): Promise<PeerStatus | null> => {
    replies.length = 0;
    await send('^Se|^');
    for (let w = 0; w < 50 && replies.length === 0; w++) await new Promise((r) => setTimeout(r, 2));
    const r = replies.shift();
    return r ? peerReadStatus(r) : null;
  };
  await send('^C|^');
  await send('^R|$|DR|^');
  await send('^R|z|R|10|10|400|120||0|1|l|2|5|0|0||^');
  await send('^T|Q|R|512|1100|z|^');
  const seen: PeerStatus[] = [];
  const first = await ask();
  if (first) seen.push(first);
  await send(`^P|Q|1|${barcode}|^`);
  for (let n = 0; n < polls; n++) {
    const s = await ask();
    if (!s) continue;
    seen.push(s);
    if (!s.busy && s.validationDone && s.lastTemplate === 'Q') break;
  }
  return seen;
}
