// A device's event emitter catches a listener's throw so the device's loop goes on; the throw was
// swallowed without a trace (a fault's raise the journal refused: neither held nor logged; a
// review of 2 December, L3). It is told to the host's sink, which logs it at error level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter, onListenerFault } from './clock.js';

describe('Emitter', () => {
  it('a listener that throws: the others still hear the event, and the throw is reported', () => {
    const reported: unknown[] = [];
    const stop = onListenerFault((e) => void reported.push(e));
    try {
      const e = new Emitter<number>();
      const heard: number[] = [];
      e.on(() => {
        throw new Error('SQLITE_FULL: database or disk is full');
      });
      e.on((n) => void heard.push(n));
      assert.doesNotThrow(() => e.emit(7));
      assert.deepEqual(heard, [7]);
      assert.equal(reported.length, 1);
      assert.match(String(reported[0]), /SQLITE_FULL/);
    } finally {
      stop();
    }
  });
});
