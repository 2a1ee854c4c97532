import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventLog } from './event-log.js';

describe('the screens’ event log (window.__kiosk.events)', () => {
  it('under automation: every name kept in order, until a bench quiets it', () => {
    const log = eventLog(true);
    for (let i = 0; i < 3; i++) log.emit(`snapshot:${i}`);
    assert.deepEqual(log.events, ['snapshot:0', 'snapshot:1', 'snapshot:2']);
    log.quiet();
    log.emit('snapshot:3');
    assert.deepEqual(log.events, []);
  });

  it('on a kiosk (no automation): nothing kept, however long it runs', () => {
    const log = eventLog(false);
    // A busy table's week of a station's snapshots, three names each.
    for (let round = 0; round < 5000; round++)
      for (let s = 0; s < 10; s++) for (const e of ['snapshot:station/1', 'language:zh-Hant', `credit:${round}`]) log.emit(e);
    assert.equal(log.events.length, 0);
  });
});
