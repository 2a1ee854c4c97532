// Fuzz properties for every parser of issue 20 (docs/security.md): byte-level for the device
// frames, structure-aware for the screen messages, the config file and the upstream's ingest.
// Each property states what must hold for any input: no crash, and every rejection a typed one.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { encodeId003, Id003Parser } from '../../hardware/billacceptor/id003/frame.js';
import { SYNC } from '../../hardware/billacceptor/id003/constants.js';
import { encodeSsp, SspParser } from '../../hardware/billacceptor/ssp/frame.js';
import { STX as SSP_STX } from '../../hardware/billacceptor/ssp/constants.js';
import { encodeShoeFrame, ShoeFrameParser, STX as SHOE_STX } from '../../hardware/shoe/framed.js';
import { LineSplitter, MAX_LINE, parseAsciiLine } from '../../hardware/shoe/ascii.js';
import { encodeStatus, TclReplyParser } from '../../hardware/printer/tcl.js';
import { ConfigFileError, parseTableConfigText } from '../../host/config/load-config.js';
import { decodeClientMessage } from '../../protocol/index.js';
import { checkEntryBody, Refused } from '../../upstream/ingest.js';

/** Splits `bytes` at the given cut points (any order, any value) into chunks, as a serial port delivers them. */
function chunks(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

const concat = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const noise = (without: number) => fc.uint8Array({ maxLength: 24 }).map((b) => b.filter((x) => x !== without));
const cuts = fc.array(fc.nat(), { maxLength: 8 });

/**
 * A frame parser against a stream of valid frames with noise between them (noise that holds no
 * start byte), cut anywhere: exactly the frames come out, in order. And against any bytes at all:
 * it never throws.
 */
function frameProperty<F>(o: { start: number; frame: fc.Arbitrary<{ bytes: Uint8Array; expect: F }>; parser: () => { push(b: Uint8Array): F[] } }) {
  return fc.property(fc.array(fc.tuple(noise(o.start), o.frame), { maxLength: 6 }), cuts, fc.uint8Array({ maxLength: 64 }), (items, cut, junk) => {
    const p = o.parser();
    const stream = concat(items.flatMap(([n, f]) => [n, f.bytes]));
    const got = chunks(stream, cut).flatMap((c) => p.push(c));
    if (JSON.stringify(got) !== JSON.stringify(items.map(([, f]) => f.expect))) throw new Error(`frames lost or invented: ${JSON.stringify(got)}`);
    o.parser().push(junk); // arbitrary bytes: must not throw
  });
}

export const PARSERS = {
  id003: () =>
    frameProperty({
      start: SYNC,
      frame: fc
        .tuple(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 40 }))
        .map(([code, data]) => ({ bytes: encodeId003(code, data), expect: { code, data: Uint8Array.from(data) } })),
      parser: () => new Id003Parser(),
    }),
  ssp: () =>
    frameProperty({
      start: SSP_STX,
      frame: fc
        .tuple(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 40 }))
        .map(([seqId, data]) => ({ bytes: encodeSsp(seqId, data), expect: { seqId, data: Uint8Array.from(data) } })),
      parser: () => new SspParser(),
    }),
  'shoe-framed': () =>
    frameProperty({
      start: SHOE_STX,
      frame: fc
        .tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 40 }))
        .map(([seq, type, payload]) => ({ bytes: encodeShoeFrame(seq, type, payload), expect: { seq, type, payload: Uint8Array.from(payload) } })),
      parser: () => new ShoeFrameParser(),
    }),
  /** The TCL printer's status replies: binary flag bytes (0x40–0x7F, `|` among them) inside an ASCII reply. */
  tcl: () =>
    frameProperty({
      start: 0x2a,
      frame: fc
        .record({
          unit: fc.constantFrom('0', '1', '7'),
          version: fc.stringMatching(/^[0-9A-Z-]{0,12}$/),
          flags: fc.oneof(
            fc.array(fc.integer({ min: 0x40, max: 0x7f }), { minLength: 5, maxLength: 5 }),
            fc.array(fc.integer({ min: 0x40, max: 0x7f }), { minLength: 3, maxLength: 3 }),
          ),
          lastTemplate: fc.stringMatching(/^[0-9A-Za-z ]{0,2}$/),
        })
        .map((s) => ({ bytes: encodeStatus(s), expect: s })),
      parser: () => new TclReplyParser(),
    }),
  /** The ASCII dialect: any bytes through the line splitter and the line parser. */
  'shoe-ascii': () =>
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        // Structure-aware: lines made of the dialect's own pieces.
        fc
          .array(fc.constantFrom('[Burn]', '<', '>', 'Card:', 'Alarm:', 'Lid:open', 'Loaded:', 'W0x1f', 'AS', '10H', ':', ' ', '\r', '\n', 'x', '99'), {
            maxLength: 40,
          })
          .map((p) => Uint8Array.from(Buffer.from(p.join(''), 'latin1'))),
      ),
      cuts,
      (bytes, cut) => {
        const s = new LineSplitter();
        for (const c of chunks(bytes, cut)) {
          for (const line of s.push(c)) {
            if (line.length > MAX_LINE || !/^[\x20-\x7e]+$/.test(line)) throw new Error(`a bad line came through: ${JSON.stringify(line)}`);
            parseAsciiLine(line);
          }
        }
        parseAsciiLine(Buffer.from(bytes).toString('latin1'));
      },
    ),
  /** Screen protocol: any text, any JSON, and valid messages with one field replaced. */
  'screen-protocol': () => {
    const valid = [
      { type: 'hello', id: 'm1', protocol: 1, token: 'a'.repeat(32) },
      { type: 'subscribe', id: 'm2', view: 'table' },
      { type: 'command', id: 'm3', view: 'station:1', version: 3, command: { name: 'place-bet', spot: 'player', amount: 500 } },
      { type: 'command', id: 'm4', view: 'station:2', version: 0, command: { name: 'decide', action: 'hit' } },
    ];
    const mutated = fc
      .tuple(fc.constantFrom(...valid), fc.constantFrom('type', 'id', 'protocol', 'token', 'view', 'version', 'command', 'x'), fc.jsonValue())
      .map(([m, k, v]) => JSON.stringify({ ...m, [k]: v }));
    return fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json(), mutated, fc.constantFrom(...valid.map((m) => JSON.stringify(m)))), (text) => {
      const r = decodeClientMessage(text);
      if (!r.ok && (r.error.type !== 'error' || typeof r.error.code !== 'string' || typeof r.error.messageKey !== 'string')) throw new Error('untyped refusal');
    });
  },
  /** The table configuration: the shipped example with one path replaced, or any text. */
  config: () => {
    const example = JSON.parse(readFileSync(new URL('../../docs/examples/table-config.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const keys = Object.keys(example);
    const mutated = fc.tuple(fc.constantFrom(...keys), fc.jsonValue(), fc.boolean()).map(([k, v, drop]) => {
      const c: Record<string, unknown> = { ...example };
      if (drop) delete c[k];
      else c[k] = v;
      return JSON.stringify(c);
    });
    return fc.property(fc.oneof(mutated, fc.string({ maxLength: 200 }), fc.json()), (text) => {
      try {
        parseTableConfigText(text, 'fuzz.json');
      } catch (e) {
        if (!(e instanceof ConfigFileError)) throw e;
      }
    });
  },
  /** The upstream's check of each entry body before it is stored. */
  ingest: () => {
    const good = { terminal: 'T-1', seq: 7, type: 'bill.credit', ts: '2025-03-04T05:06:07.890Z', txId: 'x' };
    const mutated = fc
      .tuple(
        fc.constantFrom('terminal', 'seq', 'type', 'ts', 'txId', 'meters', 'payload'),
        fc.oneof(fc.jsonValue(), fc.string(), fc.constant('\u0000'), fc.constantFrom('bet.place', 'round.settle', 'transfer.in', 'toString', '__proto__')),
      )
      .map(([k, v]) => JSON.stringify({ ...good, [k]: v }));
    return fc.property(fc.oneof(mutated, fc.string({ maxLength: 200 }), fc.json(), fc.constant(JSON.stringify(good))), (body) => {
      try {
        const b = checkEntryBody('T-1', { seq: 7, hash: '0'.repeat(64), body });
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(b.ts) || body.includes('\\u0000')) throw new Error(`accepted a body the database would refuse: ${body}`);
      } catch (e) {
        if (!(e instanceof Refused) || e.result.status !== 422) throw e;
      }
    });
  },
} as const;

export type ParserName = keyof typeof PARSERS;

/** Runs one parser's property for `numRuns` cases from `seed`; throws fast-check's report on a failure. */
export function fuzz(name: ParserName, numRuns: number, seed: number): void {
  // Each property has its own input tuple; run it through its own assert call.
  const run = <T extends unknown[]>(p: fc.IProperty<T>): void => {
    fc.assert(p, { numRuns, seed });
  };
  switch (name) {
    case 'id003':
      return run(PARSERS.id003());
    case 'ssp':
      return run(PARSERS.ssp());
    case 'shoe-framed':
      return run(PARSERS['shoe-framed']());
    case 'shoe-ascii':
      return run(PARSERS['shoe-ascii']());
    case 'tcl':
      return run(PARSERS.tcl());
    case 'screen-protocol':
      return run(PARSERS['screen-protocol']());
    case 'config':
      return run(PARSERS.config());
    case 'ingest':
      return run(PARSERS.ingest());
  }
}
