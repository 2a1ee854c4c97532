// A station's AFT transfer killed at each of its journal steps (issue 48 item 5's done-when; docs/sas.md,
// "AFT"): a transfer is one entry, journalled before its 0x72 answer. Killed before the entry is
// written (the append fails: nothing answered), the system's retry after the restart applies it
// once; killed after it (the answer lost), the restarted station's interrogation reports it and the
// same transaction id moves nothing. A real ledger file, closed and opened again as a restart does.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AFT_STATUS } from '../../hardware/sas/aft.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entryCount, Ledger } from '../../ledger/index.js';
import { aftRequest } from '../testing/aft-request.js';
import { StationAft, type StationAftDeps } from './sas-aft.js';

const STATION = 3;
const ASSET = 77;

describe('AFT: a transfer killed at each journal step is applied exactly once', () => {
  let dir: string;
  let file: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-'));
    file = path.join(dir, 'ledger.sqlite');
    ledger = Ledger.open({ file, terminalId: 'T-AFT' });
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    ledger.append(billCredit(STATION, 10_000, 'note-1'));
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const deps = (l: Ledger): StationAftDeps => ({
    ledger: l,
    station: STATION,
    assetNumber: ASSET,
    limit: 100_000,
    refuseIn: () => null,
    refuseOut: () => (l.credit(STATION) > 0 ? null : 'no credit'),
    local: (ms) => {
      const t = new Date(ms);
      return { year: t.getFullYear(), month: t.getMonth() + 1, day: t.getDate(), hour: t.getHours(), minute: t.getMinutes(), second: t.getSeconds() };
    },
  });
  const station = (l: Ledger) => new StationAft(deps(l));
  const ask = (type: number, cashable: number, transactionId: string) => aftRequest({ type, cashable, transactionId, assetNumber: ASSET });
  const restart = (): void => {
    ledger.close();
    ledger = Ledger.open({ file, terminalId: 'T-AFT' });
  };

  for (const [name, type, amount, after] of [
    ['in', 0x00, 5_000, 15_000],
    ['out', 0x80, 4_000, 6_000],
  ] as const) {
    it(`${name}: killed before its entry is written, the retry after the restart applies it once`, () => {
      // The process dies inside the append: its transaction never commits, and nothing is answered.
      ledger.append = () => {
        throw new Error('killed');
      };
      assert.throws(() => station(ledger).transfer(ask(type, amount, `K-${name}`)), /killed/);
      assert.equal(entryCount(ledger, ['aft.in', 'aft.out']), 0);
      restart();
      const s = station(ledger);
      assert.equal(s.interrogate(0), null, 'nothing to report: no transfer happened');
      assert.equal(s.transfer(ask(type, amount, `K-${name}`)).status, AFT_STATUS.full);
      assert.equal(s.transfer(ask(type, amount, `K-${name}`)).status, AFT_STATUS.notUnique);
      assert.equal(ledger.credit(STATION), after);
      assert.equal(entryCount(ledger, ['aft.in', 'aft.out']), 1);
    });

    it(`${name}: killed after its entry (the answer lost), the restarted station reports it and applies it no more`, () => {
      assert.equal(station(ledger).transfer(ask(type, amount, `L-${name}`)).status, AFT_STATUS.full);
      restart();
      const s = station(ledger);
      const now = s.interrogate(0);
      assert.deepEqual([now?.status, now?.transactionId, now?.cashable], [AFT_STATUS.full, `L-${name}`, amount]);
      assert.equal(s.transfer(ask(type, amount, `L-${name}`)).status, AFT_STATUS.notUnique);
      // The retry's 81 must not hide the transfer it repeats: read after it, the current transaction is still the one that moved.
      const still = s.interrogate(0);
      assert.deepEqual([still?.status, still?.transactionId], [AFT_STATUS.full, `L-${name}`]);
      assert.equal(ledger.credit(STATION), after);
      assert.equal(entryCount(ledger, ['aft.in', 'aft.out']), 1);
    });

    it(`${name}: a lock that fails to end after the entry (its fault's clear not journalled) does not take the answer with it`, () => {
      const errors: unknown[] = [];
      const s = new StationAft({
        ...deps(ledger),
        lock: {
          request: () => undefined,
          status: () => 0,
          locked: () => true,
          release: () => {
            throw new Error('disk full');
          },
        },
        onLockError: (err) => errors.push(err),
      });
      const r = s.transfer(ask(type, amount, `M-${name}`));
      assert.deepEqual([r.status, r.transactionId], [AFT_STATUS.full, `M-${name}`], 'the transfer moved: it is answered as done');
      assert.equal(ledger.credit(STATION), after);
      assert.equal(errors.length, 1);
      assert.equal(s.interrogate(0)?.status, AFT_STATUS.full);
    });
  }

  it('a transaction id already journalled is 81 only to a request for this asset with an acceptable key: another asset is 93, a key not registered 88', () => {
    const s = station(ledger);
    assert.equal(s.transfer(ask(0x00, 1_000, 'DONE-1')).status, AFT_STATUS.full);
    const current = s.interrogate(0);
    // Before (a review): 81 to all three, so anyone could probe which ids exist, and a request for another machine's asset read "not unique".
    assert.equal(s.transfer({ ...ask(0x00, 1_000, 'DONE-1'), assetNumber: ASSET + 1 }).status, AFT_STATUS.assetMismatch);
    assert.equal(s.transfer({ ...ask(0x00, 1_000, 'DONE-1'), keyZero: false, key: new Uint8Array(20).fill(7) }).status, AFT_STATUS.notRegistered);
    assert.equal(
      s.transfer({ ...ask(0x00, 1_000, 'UNSEEN'), assetNumber: ASSET + 1 }).status,
      AFT_STATUS.assetMismatch,
      'the same answer whether the id exists or not',
    );
    // The system's own retry (its asset, an acceptable key) is still 81, and not made the current transaction.
    assert.equal(s.transfer(ask(0x00, 1_000, 'UNSEEN-2')).status, AFT_STATUS.full);
    const moved = s.interrogate(0);
    assert.equal(s.transfer(ask(0x00, 1_000, 'DONE-1')).status, AFT_STATUS.notUnique);
    assert.deepEqual(s.interrogate(0), moved, 'index 00 still reads the transfer that moved');
    assert.notDeepEqual(moved, current);
    assert.equal(entryCount(ledger, ['aft.in']), 2);
    assert.equal(ledger.credit(STATION), 12_000);
  });
  it('answers a transfer with the flags its request carried, and reads them back after a restart', () => {
    // Table 8.3c: the answer's transfer flags are the request's. Before: a refusal echoed them but
    // a transfer that moved answered 00, and its interrogation too (the flags were not journalled).
    const ONLY_IF_LOCKED = 0x40;
    const HOST_CASHOUT_CONTROL = 0x01;
    const s = new StationAft({ ...deps(ledger), lock: { request: () => undefined, status: () => 0, locked: () => true, release: () => undefined } });
    const flags = ONLY_IF_LOCKED | HOST_CASHOUT_CONTROL;
    assert.equal(s.transfer({ ...ask(0x00, 1_000, 'FLAGS-1'), flags }).flags, flags);
    assert.equal(s.interrogate(0)?.flags, flags);
    restart();
    const again = station(ledger);
    assert.deepEqual([again.interrogate(0)?.transactionId, again.interrogate(0)?.flags], ['FLAGS-1', flags]);
    assert.equal(again.interrogate(0x81)?.flags, flags);
  });

  // The transfer named no currency: after the table's changed (a new configuration, a restart) the
  // event log said it in the new one.
  it("journals each transfer with the table's currency", () => {
    const s = new StationAft({ ...deps(ledger), currency: 'HKD' });
    assert.equal(s.transfer(ask(0x00, 1_000, 'CUR-1')).status, AFT_STATUS.full);
    assert.equal(s.transfer(ask(0x80, 500, 'CUR-2')).status, AFT_STATUS.full);
    const currencies = ['CUR-1', 'CUR-2'].map(
      (id) => (JSON.parse(ledger.byTxId(`aft:${STATION}:${id}`)?.body ?? 'null') as { payload: { currency?: string } }).payload.currency,
    );
    assert.deepEqual(currencies, ['HKD', 'HKD']);
  });
});
