import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHostMessage } from '../../protocol/index.js';
import { bareRoundPatch, roundVersion } from './round-stamp.js';

const frame = (s: string) => Buffer.from(s);

describe("the stadium bench's stamp: a round's version from a frame's head", () => {
  it('reads a round whole and as a patch, and nothing else', () => {
    assert.equal(roundVersion(frame('["round",12,[["set",["phase"],"dealing"]]]')), 12);
    assert.equal(roundVersion(frame('{"type":"public","part":"round","version":4031,"state":{"phase":"betting"}}')), 4031);
    assert.equal(roundVersion(frame('["panel",12,[["set",["x"],1]]]')), null);
    assert.equal(roundVersion(frame('["station/101",7,[["set",["credit"],5]]]')), null);
    assert.equal(roundVersion(frame('{"type":"public","part":"panel","version":9,"state":{}}')), null);
    assert.equal(roundVersion(frame('{"type":"ack","ref":"m3","view":"station/101","version":7}')), null);
    // A head cut short, or no digits: not a version.
    assert.equal(roundVersion(frame('["round",')), null);
    assert.equal(roundVersion(frame('["round",12')), null);
    assert.equal(roundVersion(frame('["round",x,[]]')), null);
  });

  it('agrees with JSON.parse on every round version it is given', () => {
    for (const v of [0, 1, 9, 10, 99, 123_456, 2 ** 40]) {
      const patch = frame(JSON.stringify(['round', v, [['set', ['a'], 1]]]));
      assert.equal(roundVersion(patch), (JSON.parse(patch.toString()) as [string, number])[1]);
    }
  });

  it("makes the bare broadcast's message a round patch of the asked size, which the protocol decodes and the stamp reads", () => {
    for (const [seq, bytes] of [
      [1, 120],
      [300, 186],
      [12_345, 1000],
    ] as const) {
      const m = bareRoundPatch(seq, bytes);
      assert.equal(m.byteLength, bytes);
      assert.equal(roundVersion(m), seq);
      const d = decodeHostMessage(m.toString());
      assert.ok(d.ok, JSON.stringify(d));
      assert.equal(d.message.type, 'public-patch');
      assert.ok(d.message.type === 'public-patch' && d.message.part === 'round' && d.message.version === seq);
    }
  });
});
