// Issue 55: the edges' publisher writes what a change of the hub published in one write, at the
// change's end (host/edges/edge-bridge.ts). It is told the end by `changeDone` on its public sink,
// which must come after every update of the change (the public parts, then each station's own part
// the change moved), and after nothing of the next change: a coup's settlement delivers its round,
// its panel and every station's own part before it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stationView } from '../../protocol/index.js';
import { credit, stepTwoBettors, testTable } from '../testing/table-kit.js';

describe("the hub's changeDone (issue 55)", () => {
  it("comes after every update of a change, the stations' own parts included, and once a change", () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 2 } });
    try {
      // What the public sink and the two stations' own sinks are handed, in order.
      const log: string[] = [];
      t.hub.subscribeParts({ deliver: (slot) => log.push(`public ${slot}`), changeDone: () => log.push('done') });
      for (const station of [101, 102]) t.hub.subscribe(stationView(station), `s${station}`, { deliver: (slot) => log.push(`own ${slot}`) }, false);
      for (const station of [101, 102]) credit(t.ledger, station, 100_000);
      t.table.shoe.onNewShoe();
      let together = 0;
      for (let i = 0; i < 80; i++) {
        log.length = 0;
        stepTwoBettors(t, i);
        // Whatever the step delivered, the last word is the change's end: nothing is left unwritten.
        if (log.some((l) => l !== 'done')) assert.equal(log.at(-1), 'done', `step ${i}: ${log.join(', ')}`);
        // Each change ends once: never two ends with nothing between them.
        assert.ok(!log.some((l, k) => l === 'done' && log[k + 1] === 'done'), `step ${i}: ${log.join(', ')}`);
        // A change that moved the round and the stations' own parts (bets closed, a settlement): all before its end.
        for (const change of log.join(', ').split('done'))
          if (change.includes('public public:round') && change.includes('own view:station/101') && change.includes('own view:station/102')) together++;
      }
      assert.ok(together >= 2, `changes with the round and both stations' own parts before their end: ${together}`);
    } finally {
      t.close();
    }
  });
});
