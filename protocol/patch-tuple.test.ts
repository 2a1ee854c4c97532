// The host writes a patch as the tuple `[target, version, ops]` (protocol 6): a shorter envelope,
// read into the same messages through the same schemas. A tuple that lies (another shape, a
// target that is neither a public part nor a view, a version before 1, ops that fail their
// schema) is refused as an object would be; one that does not follow what the screen holds is
// dropped and the part asked for whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHostMessage } from './codec.js';
import { ViewComposer } from './compose.js';
import type { PartName } from './messages.js';
import { stationView, type StationOwnState } from './views.js';

const VIEW = stationView(101);

describe('a patch as a tuple (protocol 6)', () => {
  it('is read as the public-patch or patch it stands for', () => {
    const round = decodeHostMessage('["round",12,[["splice",["hands",0,"cards"],1,0,["TD"]]]]');
    assert.deepEqual(round.ok && round.message, { type: 'public-patch', part: 'round', version: 12, ops: [['splice', ['hands', 0, 'cards'], 1, 0, ['TD']]] });
    const panel = decodeHostMessage('["panel",3,[["splice",["shoe","coups"],2,0,["B7"]]]]');
    assert.deepEqual(panel.ok && panel.message, { type: 'public-patch', part: 'panel', version: 3, ops: [['splice', ['shoe', 'coups'], 2, 0, ['B7']]] });
    const own = decodeHostMessage('["station/101",57,[["set",["credit"],40000]]]');
    assert.deepEqual(own.ok && own.message, { type: 'patch', view: 'station/101', version: 57, ops: [['set', ['credit'], 40_000]] });
    // The object form is still read.
    const object = decodeHostMessage('{"type":"public-patch","part":"round","version":12,"ops":[["set",["phase"],"results"]]}');
    assert.deepEqual(object.ok && object.message, { type: 'public-patch', part: 'round', version: 12, ops: [['set', ['phase'], 'results']] });
  });

  it('refuses a tuple that lies about its shape, its target, its version or its ops', () => {
    // One valid operation, so that each case fails by the one thing it lies about.
    const OPS = '[["set",["phase"],"results"]]';
    assert.equal(decodeHostMessage(`["round",12,${OPS}]`).ok, true);
    for (const bad of [
      '[]',
      '["round",12,[]]',
      '["round",12]',
      `["round",12,${OPS},"more"]`,
      `["own",12,${OPS}]`,
      `["recall",12,${OPS}]`,
      `["station/0",12,${OPS}]`,
      `["station/99",12,${OPS}]`,
      `["round",0,${OPS}]`,
      `["round",-1,${OPS}]`,
      `["round",1.5,${OPS}]`,
      `["round","12",${OPS}]`,
      `[12,"round",${OPS}]`,
      '["round",12,{}]',
      '["round",12,[["move",["phase"],"x"]]]',
      '["round",12,[["set",["__proto__","x"],1]]]',
      '["round",12,[["set",[],1]]]',
      '["station/101",12,[["splice",["cards"],-1,0,[]]]]',
      `[["round"],12,${OPS}]`,
    ]) {
      const d = decodeHostMessage(bad);
      assert.equal(d.ok, false, bad);
      assert.equal(!d.ok && d.error.code, 'invalid-message', bad);
    }
  });

  it('a tuple that does not follow the version held is dropped and the part asked for whole', () => {
    const asked: PartName[][] = [];
    let t = 0;
    const c = new ViewComposer(VIEW, { resync: (p) => asked.push(p), now: () => (t += 2000) });
    const own: StationOwnState = {
      kind: 'station',
      station: 101,
      game: 'baccarat',
      currency: 'MOP',
      limits: { min: 10_000, max: 500_000 },
      language: 'pt',
      credit: 1_000_000,
      betting: { open: true, spots: [{ bet: 'banker', min: 10_000, max: 500_000 }], bets: [] },
      decision: null,
    };
    const take = (raw: string) => {
      const d = decodeHostMessage(raw);
      assert.ok(d.ok, raw);
      return c.take(d.message);
    };
    take(JSON.stringify({ type: 'snapshot', view: VIEW, version: 4, state: own }));
    assert.ok(take('["station/101",5,[["set",["credit"],990000]]]'));
    // Version 6 lost: 7 does not follow.
    assert.equal(take('["station/101",7,[["set",["credit"],980000]]]'), null);
    assert.deepEqual(asked, [['own']]);
    const v = c.latest();
    assert.equal(v?.kind === 'station' && v.credit, 990_000, 'the view stays as it was');
    // Another station's patch is not this screen's.
    assert.equal(take('["station/102",6,[["set",["credit"],1]]]'), null);
  });
});
