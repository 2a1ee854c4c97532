// The host simulator on a loaded machine (tests/sas/host/host.ts): a machine that answers after
// the simulator's window. The machine answers every poll it hears, in order, and the same poll
// again with the same bytes (SAS 6.02 §3.2), so a late answer is still on its way when the
// simulator has moved on. It must not be read as the next poll's answer: a general poll after a
// long poll sent twice reads its exception, not the long poll's second copy; a long poll reads
// its own answer, not a late one of another command. Test first: the simulator of before read the
// copy's address byte as an exception code.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appendCrc, toWire, WireReader } from './host/codec.js';
import { SasHost, type HostIo } from './host/host.js';

const ADDRESS = 5;
const HANDPAY_PENDING = 0x51;

/** A machine behind a wire: answers each host message addressed to it after `delayMs(message)` (and after its earlier answers), through the fallback framing with no wake-up bit. */
function slowMachine(delayMs: (m: number[]) => number, exceptions: number[] = []): HostIo & { polls: number[][] } {
  const listeners: ((b: Uint8Array) => void)[] = [];
  const reader = new WireReader();
  let current: number[] = [];
  const polls: number[][] = [];
  let lastAt = 0;
  /** The general poll's answer: `exceptions` in turn (then 51), the same again for a poll repeated (§3.2). */
  let exception = HANDPAY_PENDING;
  const answer = (m: number[]): number[] | null => {
    if (m.length === 1 && m[0] === (0x80 | ADDRESS)) {
      const repeated = polls.at(-2)?.length === 1 && polls.at(-2)?.[0] === (0x80 | ADDRESS);
      if (!repeated) exception = exceptions.shift() ?? HANDPAY_PENDING;
      return [exception];
    }
    if (m[0] !== ADDRESS) return null;
    if (m[1] === 0x1a) return appendCrc([ADDRESS, 0x1a, 0x00, 0x00, 0x12, 0x34]);
    if (m[1] === 0x10) return appendCrc([ADDRESS, 0x10, 0x00, 0x00, 0x00, 0x77]);
    return null;
  };
  const heard = (m: number[]): void => {
    polls.push(m);
    const a = answer(m);
    if (!a) return;
    // In order, as a machine answers the polls it hears one after another.
    lastAt = Math.max(Date.now() + delayMs(m), lastAt);
    setTimeout(() => listeners.forEach((fn) => fn(toWire(a.map((byte) => ({ byte, wake: false }))))), lastAt - Date.now());
  };
  return {
    polls,
    async write(bytes) {
      for (const c of reader.read(bytes)) {
        if (c.wake && current.length > 0) heard(current);
        if (c.wake) current = [c.byte];
        else current.push(c.byte);
      }
      // Every host message here is complete in one write: a general poll, a type R poll.
      if (current.length === 1 && current[0] !== undefined && current[0] >= 0x80) heard(current.splice(0));
      else if (current.length === 2) heard(current.splice(0));
    },
    onData: (fn) => void listeners.push(fn),
    close: async () => undefined,
  };
}

describe('the host simulator matches answers to polls', () => {
  it('a long poll answered after the window and sent again: its second copy is not read as the next general poll’s exception', async () => {
    let late = 2;
    // The first two 0x1A are answered 150 ms after they are heard: the first after the 100 ms window, so the simulator sends it again.
    const io = slowMachine((m) => (m[1] === 0x1a && late-- > 0 ? 150 : 5));
    const h = new SasHost(io, ADDRESS, { answerTimeoutMs: 100 });
    const a = await h.typeR(0x1a, 8);
    assert.deepEqual(a.slice(0, 2), [ADDRESS, 0x1a]);
    assert.equal(h.retries, 1, 'the poll was sent again after the window');
    assert.equal(await h.generalPoll(), HANDPAY_PENDING, 'the exception, not the address byte of the late copy');
    assert.equal(h.stale, 8, 'the second copy (8 bytes) was dropped');
  });

  it('a long poll that timed out and is given up: its late answer, arriving during the next long poll, is not taken for that one’s', async () => {
    // 0x1A answered at 600 ms, well after its 50 ms window (at 150 ms, a loaded machine that held
    // the simulator's first look past it read the answer as in time); 0x10 at 800 ms, so the late
    // 0x1A arrives first.
    const io = slowMachine((m) => (m[1] === 0x1a ? 600 : m[1] === 0x10 ? 800 : 5));
    const h = new SasHost(io, ADDRESS, { answerTimeoutMs: 1_000 });
    assert.equal(await h.exchange([ADDRESS, 0x1a], 8, 50), null, 'not within 50 ms');
    const b = await h.typeR(0x10, 8);
    assert.deepEqual(b.slice(0, 6), [ADDRESS, 0x10, 0x00, 0x00, 0x00, 0x77]);
    assert.equal(h.retries, 0, 'the late 0x1A was not read as a bad answer to 0x10');
    assert.equal(h.stale, 8);
  });

  it('an answer that reaches the simulator after its window is late, also when the simulator was held past its deadline and finds it already in', async () => {
    // A loaded machine: the simulator's process is held (here 250 ms of work right after the poll
    // goes), the answer comes in meanwhile, and the window's timer is looked at only afterwards. The
    // simulator of before read the bytes already in before it looked at its deadline: an answer
    // 150 ms past a 100 ms window was read as in time, so a test asserting "not answered within the
    // window" could pass or fail with the load, and a late answer counted as a timely one.
    const listeners: ((b: Uint8Array) => void)[] = [];
    const io: HostIo = {
      async write() {
        setTimeout(() => {
          const until = Date.now() + 250;
          while (Date.now() < until);
          listeners.forEach((fn) => fn(toWire([ADDRESS, 0x1a, 0, 0, 0x12, 0x34, 0, 0].map((byte) => ({ byte, wake: false })))));
        }, 0);
      },
      onData: (fn) => void listeners.push(fn),
      close: async () => undefined,
    };
    const h = new SasHost(io, ADDRESS, { answerTimeoutMs: 100 });
    assert.equal(await h.exchange([ADDRESS, 0x1a], 8), null, 'late: it came in 250 ms after the poll, the window 100 ms');
    assert.deepEqual(h.leftover().slice(0, 2), [ADDRESS, 0x1a], 'kept as a late answer, for the next poll to drop');
    // An answer in time is still read: the same held process, a window past its arrival.
    assert.deepEqual((await h.exchange([ADDRESS, 0x1a], 8, 1_000))?.slice(0, 2), [ADDRESS, 0x1a]);
  });

  it('a general poll answered after the window is asked again (the implied NACK): its late copy is not read as the next general poll’s exception', async () => {
    let late = 1;
    // The first general poll answered 150 ms after it is heard, after the 100 ms window.
    const io = slowMachine((m) => (m[0] === (0x80 | ADDRESS) && late-- > 0 ? 150 : 5), [0x51, 0x00]);
    const h = new SasHost(io, ADDRESS, { answerTimeoutMs: 100 });
    assert.equal(await h.generalPollRetried(), 0x51);
    assert.equal(h.retries, 1, 'asked again after the window');
    assert.deepEqual(
      io.polls.map((p) => p[0] === (0x80 | ADDRESS)),
      [false, true, true],
      'the same general poll again, not acknowledged between',
    );
    assert.equal(await h.generalPollRetried(), 0x00, 'the next poll’s own exception, not the copy of 51');
    assert.equal(h.stale, 1, 'the copy (1 byte) was dropped');
  });
});
