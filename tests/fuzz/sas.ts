// The byte-level fuzz of the SAS machine side (hardware/sas/): seeded frames of line noise, long
// polls with a wrong CRC, polls to other addresses, messages cut short, general polls interleaved
// and well-formed read polls, fed as one byte stream (the fallback stream of docs/sas.md) through
// the decoder into the machine on a manual clock. It checks that nothing throws, that every call
// returns (no hang: the machine never waits), that no poll changed the station (no play, bill
// acceptor, clock or handpay call, no ROM check started, no end to the cash-out waiting for the
// system's number (0x58), the meters untouched), that the machine
// answered only polls addressed to it and every answer was well formed by the host simulator's own
// codec, and that it still answers correctly at the end.
import { isDeepStrictEqual } from 'node:util';
import { SasMachine } from '../../hardware/sas/machine.js';
import { SystemValidationCycle, type SystemValidationEnd } from '../../hardware/sas/system-validation.js';
import { WakeupDecoder } from '../../hardware/sas/wire.js';
import { MemoryGame, METERS, ManualClock } from '../sas/fixture.js';
import { appendCrc, crcValid, message, toWire } from '../sas/host/codec.js';

const A = 5;
/** Read polls that answer without changing anything (type R), with the exceptions and the meters they read. */
const READ_POLLS = [0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1f, 0x54, 0x57, 0x7e];
/** Polls that would change the station if they were taken: only ever sent here with a wrong CRC or cut short. */
const STATE_POLLS: number[][] = [
  [0x01],
  [0x02],
  [0x06],
  [0x07],
  [0x94],
  [0x21, 0x34, 0x12],
  [0x7f, 0x12, 0x31, 0x20, 0x27, 0x23, 0x59, 0x58],
  [0x2f, 0x04, 0x00, 0x00, 0x00, 0x01],
  [0x6f, 0x06, 0x00, 0x00, 0x00, 0x00, 0x24, 0x00],
  // 0x58 to a cash-out waiting for the system's number: taken, it would end the wait.
  [0x58, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56],
];

export interface SasFuzzReport {
  frames: number;
  bytes: number;
  answers: number;
  kinds: Record<string, number>;
}

/** A small seeded generator (mulberry32), so a failing case is replayed by its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'garbage' | 'wrongCrc' | 'wrongAddress' | 'truncated' | 'generalPoll' | 'readPoll';
const KINDS: [Kind, number][] = [
  ['garbage', 0.3],
  ['wrongCrc', 0.15],
  ['wrongAddress', 0.15],
  ['truncated', 0.15],
  ['generalPoll', 0.15],
  ['readPoll', 0.1],
];

/** A wake-up byte that addresses neither this machine nor the broadcast address, so noise never starts a message to it. */
function otherWake(r: () => number): number {
  for (;;) {
    const b = Math.floor(r() * 256);
    if (b !== A && b !== 0 && b !== (0x80 | A)) return b;
  }
}

function frame(kind: Kind, r: () => number): Uint8Array {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const state = (): number[] => appendCrc([A, ...pick(STATE_POLLS)]);
  switch (kind) {
    case 'garbage': {
      const out = [0xff, 0x00, otherWake(r)];
      for (let n = Math.floor(r() * 24); n > 0; n--) {
        let b = Math.floor(r() * 256);
        // Never FF 00 followed by this machine's address, its general poll or 0: noise must not poll it.
        if (out.at(-2) === 0xff && out.at(-1) === 0x00 && (b === A || b === 0 || b === (0x80 | A))) b = A + 1;
        out.push(b);
      }
      return Uint8Array.from(out);
    }
    case 'wrongCrc': {
      const f = state();
      const i = f.length - 1 - Math.floor(r() * 2);
      f[i] = (f[i] ?? 0) ^ (1 << Math.floor(r() * 8));
      return message(f);
    }
    case 'wrongAddress': {
      const other = 1 + Math.floor(r() * 127);
      const f = state();
      f[0] = other === A ? A + 1 : other;
      return message(appendCrc(f.slice(0, -2)));
    }
    case 'truncated': {
      const f = state();
      return message(f.slice(0, 1 + Math.floor(r() * (f.length - 1))));
    }
    case 'generalPoll':
      return r() < 0.5 ? message([0x80 | A]) : toWire([{ byte: otherWake(r) | 0x80, wake: true }]);
    case 'readPoll':
      return message([A, pick(READ_POLLS)]);
  }
}

function pickKind(r: () => number): Kind {
  let x = r();
  for (const [k, w] of KINDS) if ((x -= w) < 0) return k;
  return 'garbage';
}

/**
 * Runs `frames` fuzz frames from `seed`; throws at the first violation, with the frame number.
 * `plant`: frame 10 is a well-formed 0x01 (disable play) to this machine, which the checks must catch.
 */
export function fuzzSas(frames: number, seed: number, options: { plant?: boolean } = {}): SasFuzzReport {
  const r = rng(seed);
  const clock = new ManualClock();
  const game = new MemoryGame();
  let romAsked = 0;
  game.romImage = () => {
    romAsked++;
    return game.rom;
  };
  // A cash-out waits for the system's number the whole run (its timeout never comes): no frame may end it.
  const ended: SystemValidationEnd[] = [];
  const cycle = new SystemValidationCycle({ clock, timeoutMs: 1e12, raise: () => {}, known: () => false, ended: (e) => ended.push(e) });
  cycle.begin(METERS.currentCredits ?? 1);
  game.systemValidation = cycle;
  let framing: { kind: Kind; addressed: boolean } = { kind: 'garbage', addressed: false };
  const answers: number[][] = [];
  const machine = new SasMachine({
    address: A,
    game,
    clock,
    write: (bytes, wake) => {
      if (wake) throw new Error('a chirp while the host polls');
      if (!framing.addressed) throw new Error(`answered a ${framing.kind} frame that was not addressed to it: ${[...bytes].join(' ')}`);
      answers.push([...bytes]);
    },
  });
  const decoder = new WakeupDecoder();
  const sink = (b: number, w: boolean): void => machine.char(b, w);
  const report: SasFuzzReport = { frames, bytes: 0, answers: 0, kinds: {} };
  machine.start(); // the watchdog runs too (it must not chirp: every frame carries an address byte)
  decoder.push(message([0x80 | 1]), sink); // synchronise, as a host's cycle does
  for (let i = 0; i < frames; i++) {
    const kind = pickKind(r);
    const planted = options.plant === true && i === 10;
    const bytes = planted ? message(appendCrc([A, 0x01])) : frame(kind, r);
    framing = { kind, addressed: planted || kind === 'readPoll' || (kind === 'generalPoll' && bytes[2] === (0x80 | A)) };
    if (r() < 0.02) machine.raise(0x11 + Math.floor(r() * 2));
    decoder.push(bytes, sink);
    report.bytes += bytes.length;
    report.kinds[kind] = (report.kinds[kind] ?? 0) + 1;
    for (const a of answers.splice(0)) {
      report.answers++;
      if (a.length > 1 && (a[0] !== A || !crcValid(a))) throw new Error(`frame ${i}: a malformed answer ${a.join(' ')}`);
    }
    clock.advance(Math.floor(r() * 4));
    if (game.calls.length > 0 || romAsked > 0 || ended.length > 0)
      throw new Error(`frame ${i} (${kind}): the station was changed: ${JSON.stringify(game.calls)}, ROM asked ${romAsked}, ${JSON.stringify(ended)}`);
  }
  if (!isDeepStrictEqual(game.meterValues, METERS)) throw new Error('the meters changed');
  finalCheck(machine, decoder, sink, answers, (a) => (framing = a));
  machine.stop();
  return report;
}

/** After the storm the machine still answers a meter poll rightly. */
function finalCheck(
  machine: SasMachine,
  decoder: WakeupDecoder,
  sink: (b: number, w: boolean) => void,
  answers: number[][],
  setFraming: (f: { kind: Kind; addressed: boolean }) => void,
): void {
  setFraming({ kind: 'readPoll', addressed: true });
  decoder.push(message([0x80 | 1]), sink);
  decoder.push(message([A, 0x11]), sink);
  const a = answers.at(-1) ?? [];
  const want = String(METERS.coinIn).padStart(8, '0');
  const got = a
    .slice(2, 6)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
  if (a[0] !== A || a[1] !== 0x11 || got !== want) throw new Error(`after the fuzz, coin in answered ${a.join(' ')}`);
  if (machine.answered === 0) throw new Error('the machine answered nothing');
}
