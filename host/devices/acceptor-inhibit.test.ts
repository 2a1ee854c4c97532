import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openBillAcceptor } from '../../hardware/open.js';
import { openLedger } from '../../ledger/index.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import { BillAcceptors } from './bill-acceptors.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';

function table(t: { after: (fn: () => void) => void }) {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 3) });
  // The acceptors read the journal for a note left in escrow and for a technician's disable.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'inhibit-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  t.after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const enabledAtOpen = new Map<number, boolean | undefined>();
  /** What each station's device was told after it opened, in order. */
  const told = new Map<number, string[]>();
  let n = 0;
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
    open: (spec, options) => {
      const station = ++n;
      enabledAtOpen.set(station, options.enabled);
      const d = openBillAcceptor(spec, options);
      const calls: string[] = [];
      told.set(station, calls);
      const { enable, disable } = d;
      d.enable = () => (calls.push('enable'), enable.call(d));
      d.disable = () => (calls.push('disable'), disable.call(d));
      return d;
    },
  });
  return { ledger, acceptors, enabledAtOpen, told };
}

describe('bill acceptor inhibition by the floor', () => {
  it('opens a station disabled before start (a fault restored from the journal) inhibited, the others accepting', async (t) => {
    const { acceptors, enabledAtOpen } = table(t);
    acceptors.setInhibited(2, 'tilt:bill-jam', true);
    acceptors.start();
    await acceptors.close();
    assert.deepEqual(
      [...enabledAtOpen],
      [
        [1, true],
        [2, false],
        [3, true],
      ],
    );
  });

  it("takes notes again only when no reason is left: a fault clearing does not undo a technician's disable", async (t) => {
    const { acceptors, told } = table(t);
    acceptors.start();
    try {
      acceptors.setInhibited(1, 'service-disable', true);
      acceptors.setInhibited(1, 'tilt:bill-jam', true);
      acceptors.setInhibited(1, 'tilt:bill-jam', false);
      assert.deepEqual(acceptors.inhibitedBy(1), ['service-disable']);
      assert.deepEqual(told.get(1), ['disable'], 'told once, never enabled in between');
      acceptors.setInhibited(1, 'service-disable', false);
      assert.deepEqual(acceptors.inhibitedBy(1), []);
      assert.deepEqual(told.get(1), ['disable', 'enable']);
      assert.deepEqual(told.get(2), [], 'the other stations are not touched');
    } finally {
      await acceptors.close();
    }
  });

  it('opens a device a technician disabled (journalled) inhibited, until a later enable', async (t) => {
    const { ledger, acceptors, enabledAtOpen } = table(t);
    ledger.append({ type: 'service.test', payload: { who: 'Tech (1002)', device: 'BA-3', test: 'disable', result: 'done' } });
    ledger.append({ type: 'service.test', payload: { who: 'Tech (1002)', device: 'BA-1', test: 'disable', result: 'done' } });
    ledger.append({ type: 'service.test', payload: { who: 'Tech (1002)', device: 'BA-1', test: 'enable', result: 'done' } });
    acceptors.start();
    await acceptors.close();
    assert.deepEqual(
      [...enabledAtOpen],
      [
        [1, true],
        [2, true],
        [3, false],
      ],
    );
    assert.deepEqual(acceptors.inhibitedBy(3), ['service-disable']);
  });
});
