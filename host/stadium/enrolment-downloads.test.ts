import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EnrolmentDownloads } from './enrolment-downloads.js';

const ANA = { enterSeq: 10, who: 'Ana Lei (1001)' };
const EVA = { enterSeq: 11, who: 'Eva Ho (1004)' };

describe('enrolment files waiting for their download', () => {
  it('hands a file once, to its session only, before its deadline', () => {
    let now = 0;
    const d = new EnrolmentDownloads(() => now, 1000);
    d.hold(101, 'file-101', ANA);
    assert.equal(d.waitsFor(101, ANA.enterSeq), true);
    assert.equal(d.waitsFor(101, EVA.enterSeq), false);
    assert.deepEqual(d.take(101, EVA), { file: null, refused: 'other-session', discarded: [] });
    now = 999;
    assert.deepEqual(d.take(101, ANA), { file: 'file-101', refused: null, discarded: [] });
    assert.deepEqual(d.take(101, ANA), { file: null, refused: 'no-file', discarded: [] });
  });

  it('discards a file at its deadline, when its session ends, and when the station is enrolled again', () => {
    let now = 0;
    const d = new EnrolmentDownloads(() => now, 1000);
    d.hold(101, 'a', ANA);
    d.hold(102, 'b', ANA);
    d.hold(103, 'c', EVA);
    assert.deepEqual(d.hold(103, 'c2', EVA), [{ station: 103, owner: EVA, why: 're-enrolled' }]);
    assert.equal(d.nextDeadline(), 1000);
    now = 1000;
    assert.equal(d.waitsFor(101, ANA.enterSeq), false, 'not offered at its deadline');
    const late = d.take(101, ANA);
    assert.equal(late.file, null);
    assert.equal(late.refused, 'expired');
    assert.deepEqual(
      late.discarded.map((x) => [x.station, x.why]),
      [
        [101, 'expired'],
        [102, 'expired'],
        [103, 'expired'],
      ],
    );
    assert.equal(d.nextDeadline(), null);
    d.hold(104, 'd', EVA);
    assert.deepEqual(d.sessionEnded(ANA.enterSeq), []);
    assert.deepEqual(d.sessionEnded(EVA.enterSeq), [{ station: 104, owner: EVA, why: 'session-ended' }]);
    assert.equal(d.take(104, EVA).refused, 'no-file');
  });
});
