// The host's side of a hostile acceptor (issue 28 item 3): a device that stacks a note the table
// refused and then reports its credit point (the ID-003 case) credits nothing at the
// table's meters; the driver's protocolViolation raises the station's cheat fault, which the
// journal holds (`tilt.raise`, kind bill-cheat, naming the rule and the note) and which disables
// the station until a supervisor clears it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../host/devices/credit-rule/table-credit-rule.js';
import { silent } from '../../host/testing/table-kit.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { onBillAcceptorEvent } from '../../host/tilts/tilt-sources.js';
import { openLedger } from '../../ledger/index.js';
import { driverRig, insert, settled, untilEnabled, type DriverProtocol, type DriverRig } from '../fuzz/driver-rig.js';
import { HostileId003, HostileSsp } from '../fuzz/hostile-acceptor.js';

async function hostileStation(t: { after: (fn: () => void) => void }, protocol: DriverProtocol) {
  const base = simulatedTableConfig('war');
  // The table takes every note but the 1000.
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1), denominations: [10, 20, 50, 100, 500] });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hostile-acceptor-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  const tilts = new TiltManager({ ledger, log: silent });
  let rig: DriverRig | null = null;
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    // The host's own credit rule stands behind the driver (issue 28 item 1); here the driver credits nothing for it to refuse.
    credits: tableCreditRule({ config, ledger, log: silent, fault: (station, say) => tilts.raise('bill-cheat', { station, say }) }),
    onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
    open: (_spec, options) => {
      rig = driverRig(protocol, options);
      return rig.driver;
    },
  });
  acceptors.start();
  t.after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  assert.ok(rig);
  const r: DriverRig = rig;
  assert.ok(await untilEnabled(r));
  return { ledger, tilts, acceptors, r };
}

function entries(ledger: ReturnType<typeof openLedger>) {
  const out = [];
  for (let seq = 1; seq <= ledger.headOf().seq; seq++) {
    const e = ledger.entry(seq);
    if (e) out.push(e);
  }
  return out;
}

describe('a hostile acceptor at the table (issue 28)', () => {
  for (const protocol of ['id003', 'ssp'] as const) {
    it(`${protocol}: a refused 1000 note stacked anyway and reported credited: no credit on the meters, the cheat fault journalled, the station disabled`, async (t) => {
      const { ledger, tilts, acceptors, r } = await hostileStation(t, protocol);
      if (r.hostile instanceof HostileId003) {
        r.hostile.tell({ kind: 'ignore-inhibits' });
        r.hostile.tell({ kind: 'return-as-stack', answer: 'invalid' });
        // The inhibits were sent before the lie was queued: the unit is told them again at its next idle.
        acceptors.setAccepted([10, 20, 50, 100, 500]);
      } else if (r.hostile instanceof HostileSsp) {
        r.hostile.tell({ kind: 'ignore-inhibits' });
        r.hostile.tell({ kind: 'refuse', command: 'reject', execute: false });
        acceptors.setAccepted([10, 20, 50, 100, 500]);
      }
      await r.time.runFor(500);
      insert(r, 1000);
      try {
        assert.ok(await r.time.runUntil(() => settled(r), 20_000));
        await r.time.runFor(2_000);
      } finally {
        await acceptors.close();
      }
      assert.deepEqual(r.sim.cashbox, [1000], 'the device took the note');
      assert.equal(ledger.credit(1), 0, 'nothing on the meters');
      const journal = entries(ledger);
      assert.ok(!journal.some((e) => e.type === 'bill.credit' || e.type === 'bill.refused'), 'the driver credited nothing: the host had nothing to refuse');
      const raised = journal.filter((e) => e.type === 'tilt.raise');
      assert.equal(raised.length, 1, JSON.stringify(raised));
      const payload: unknown = JSON.parse(raised[0]?.body ?? '{}').payload;
      assert.ok(
        payload && typeof payload === 'object' && 'kind' in payload && 'station' in payload && 'detail' in payload && typeof payload.detail === 'string',
      );
      assert.equal(payload.kind, 'bill-cheat');
      assert.equal(payload.station, 1);
      assert.match(payload.detail, /credit-after-return/);
      assert.match(payload.detail, /note 1000 MOP/);
      assert.ok(tilts.effects().disabledStations.has(1));
      assert.equal(acceptors.statuses()[0]?.state, 'fault');
    });
  }
});
