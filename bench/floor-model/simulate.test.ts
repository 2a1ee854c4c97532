import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { at, fitLine } from './fit.js';
import { MEASURED, type FloorInputs } from './inputs.js';
import { BUSY_LIMIT, simulateFloor, type Scenario } from './simulate.js';

const floor: Scenario = { tables: 4, stationsPerTable: 250, coupSeconds: 30, tablesPerMachine: 1, edgeStations: null, coups: 20, seed: 7 };

describe('the floor model (bench/floor-model)', () => {
  it('fits a line through the measured sizes, and refuses what is not two sizes', () => {
    const l = fitLine([
      [250, 535.8],
      [500, 784.6],
    ]);
    assert.ok(Math.abs(at(l, 250) - 535.8) < 1e-9 && Math.abs(at(l, 500) - 784.6) < 1e-9);
    assert.throws(() => fitLine([[250, 1]]), /two points/);
    assert.throws(
      () =>
        fitLine([
          [250, 1],
          [250, 2],
        ]),
      /two different sizes/,
    );
  });

  it('is the same floor for the same seed, and another for another seed', () => {
    assert.deepEqual(simulateFloor(MEASURED, floor), simulateFloor(MEASURED, floor));
    assert.notDeepEqual(simulateFloor(MEASURED, floor).cardP99Ms, simulateFloor(MEASURED, { ...floor, seed: 8 }).cardP99Ms);
  });

  it('names a table host whose coup costs more CPU than the coup lasts, and its cards wait longer the longer it runs', () => {
    const slow: FloorInputs = { ...MEASURED, sizes: MEASURED.sizes.map((s) => ({ ...s, hostCpuMsPerCoup: s.hostCpuMsPerCoup * 20 })) };
    const short = simulateFloor(slow, { ...floor, coupSeconds: 5, coups: 10 });
    const long = simulateFloor(slow, { ...floor, coupSeconds: 5, coups: 40 });
    assert.ok(short.hostBusy > BUSY_LIMIT, `busy ${short.hostBusy}`);
    assert.ok(short.limits.includes('table host busy'));
    assert.ok(long.cardP50Ms > 2 * short.cardP50Ms, `${short.cardP50Ms} → ${long.cardP50Ms}`);
    assert.deepEqual(simulateFloor(MEASURED, floor).limits.includes('table host busy'), false);
  });

  it('names an upstream that ingests less than the floor journals: its lag grows with time', () => {
    const slowUpstream: FloorInputs = { ...MEASURED, upstreamEntriesPerSecond: 100 };
    const a = simulateFloor(slowUpstream, { ...floor, coupSeconds: 5, coups: 10 });
    const b = simulateFloor(slowUpstream, { ...floor, coupSeconds: 5, coups: 40 });
    assert.ok(a.limits.includes('upstream busy'));
    assert.ok(b.upstreamLagP99Ms > 2 * a.upstreamLagP99Ms, `${a.upstreamLagP99Ms} → ${b.upstreamLagP99Ms}`);
    assert.ok(simulateFloor(MEASURED, floor).upstreamLagP99Ms < 1000);
  });

  it('takes the fan-out off the table host with edges, and the LAN grows with the tables', () => {
    const big = { ...floor, stationsPerTable: 1000 };
    const direct = simulateFloor(MEASURED, big);
    const edged = simulateFloor(MEASURED, { ...big, edgeStations: 250 });
    assert.equal(edged.edgesPerTable, 4);
    assert.ok(edged.hostBusy < direct.hostBusy, `${direct.hostBusy} → ${edged.hostBusy}`);
    const twice = simulateFloor(MEASURED, { ...big, tables: 8 });
    assert.ok(Math.abs(twice.lanMbit - 2 * direct.lanMbit) < 1e-9);
  });

  it('runs tables sharing a machine slower than tables on machines of their own', () => {
    const alone = simulateFloor(MEASURED, floor);
    const shared = simulateFloor(MEASURED, { ...floor, tablesPerMachine: 8 });
    assert.ok(shared.hostBusy > 2 * alone.hostBusy && shared.cardP50Ms > 2 * alone.cardP50Ms);
    assert.ok(shared.hostRssMiB > 7 * alone.hostRssMiB);
  });
});
