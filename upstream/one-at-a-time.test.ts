import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneAtATime } from './one-at-a-time.js';

describe('oneAtATime: a periodic task never overlaps itself', () => {
  it('skips the ticks that come while a run is going, and runs again once it has ended', async () => {
    let started = 0;
    let finish: () => void = () => undefined;
    const t = oneAtATime(
      () => {
        started++;
        return new Promise<void>((r) => (finish = r));
      },
      (err) => assert.fail(String(err)),
    );
    t.tick();
    t.tick();
    t.tick();
    assert.equal(started, 1, 'the ticks during the run are skipped');
    assert.equal(t.running, true);
    finish();
    await new Promise((r) => setImmediate(r));
    assert.equal(t.running, false);
    t.tick();
    assert.equal(started, 2, 'the next tick after it ended runs');
  });

  it('runs again after a run that failed', async () => {
    let started = 0;
    const told: unknown[] = [];
    const t = oneAtATime(
      () => {
        started++;
        return Promise.reject(new Error('the database went away'));
      },
      (err) => told.push(err),
    );
    t.tick();
    await new Promise((r) => setImmediate(r));
    assert.match(String(told[0]), /the database went away/, 'the failure is told, not thrown unhandled');
    t.tick();
    assert.equal(started, 2);
  });
});
