// The one redial of the links and ports that try again (device link, peer link, the agent's port
// relays): its waits, when they start over, the welcome's deadline, and nothing after a stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Clock } from '../../hardware/clock.js';
import { Redial } from './redial.js';

function clock() {
  let at = 0;
  let next = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const c: Clock = {
    now: () => at,
    setTimeout: (fn, ms) => {
      due.set(++next, { at: at + ms, fn });
      return next;
    },
    clearTimeout: (h) => void due.delete(Number(h)),
  };
  const advance = (ms: number): void => {
    at += ms;
    for (const [k, d] of [...due].sort((a, b) => a[1].at - b[1].at))
      if (d.at <= at) {
        due.delete(k);
        d.fn();
      }
  };
  return { c, advance, armed: () => due.size };
}

const backoff = { baseMs: 100, capMs: 800 };

describe('Redial', () => {
  it('waits longer at each loss of a link that did not hold, and starts over after one that held', () => {
    const { c, advance } = clock();
    const r = new Redial({ backoff, heldMs: 1000, clock: c });
    const waits: (number | null)[] = [];
    for (let i = 0; i < 5; i++) {
      r.up();
      advance(999);
      waits.push(r.lost(() => {}));
    }
    assert.deepEqual(waits, [100, 200, 400, 800, 800]);
    r.up();
    advance(1000);
    assert.equal(
      r.lost(() => {}),
      100,
      'held 1,000 ms: the first wait again',
    );
    assert.equal(
      r.lost(() => {}),
      200,
      'a try that failed (never up) does not start over',
    );
  });

  it('runs the try after the wait, one at a time: a second loss replaces the armed try', () => {
    const { c, advance, armed } = clock();
    const r = new Redial({ backoff, heldMs: 1000, clock: c });
    let tries = 0;
    r.lost(() => tries++);
    r.lost(() => tries++);
    assert.equal(armed(), 1);
    advance(1000);
    assert.equal(tries, 1);
  });

  it('says a link that is not welcomed by the deadline is late, and not one welcomed in time', () => {
    const { c, advance } = clock();
    const r = new Redial({ backoff, heldMs: 1000, clock: c });
    let late = 0;
    r.expectWelcome(500, () => late++);
    advance(499);
    r.up();
    advance(10);
    assert.equal(late, 0, 'welcomed in time');
    r.lost(() => {});
    r.expectWelcome(500, () => late++);
    advance(500);
    assert.equal(late, 1, 'not welcomed: late');
    r.expectWelcome(500, () => late++);
    r.lost(() => {});
    advance(500);
    assert.equal(late, 1, 'lost before the deadline: no late');
  });

  it('arms nothing after a stop, and a try armed before it never runs', () => {
    const { c, advance, armed } = clock();
    const r = new Redial({ backoff, heldMs: 1000, clock: c });
    let runs = 0;
    r.lost(() => runs++);
    r.expectWelcome(50, () => runs++);
    r.stop();
    assert.equal(armed(), 0);
    assert.equal(
      r.lost(() => runs++),
      null,
    );
    r.expectWelcome(50, () => runs++);
    advance(10_000);
    assert.equal(runs, 0);
  });
});
