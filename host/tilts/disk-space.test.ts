// Disk-space monitoring: the table tilts (new bets stop) before SQLite would fail, with the fault
// in the service and table screens' words; a write the ledger refuses anyway refuses the bet whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { catalogues, wordAt } from '../../locales/index.js';
import { credit, silent, testTable, submitted } from '../testing/table-kit.js';
import { DISK_LOW_BYTES, DISK_OK_BYTES, DiskSpaceMonitor, type DiskSpace } from './disk-space.js';

const MIB = 1024 * 1024;
const place = (t: ReturnType<typeof testTable>, station: number, amount = 10_000) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet: 'main' }, amount }));

function monitored(t: ReturnType<typeof testTable>) {
  const disk: DiskSpace = { free: 4096 * MIB, total: 8192 * MIB };
  const monitor = new DiskSpaceMonitor({ dir: t.dir, tilts: t.tilts, log: silent, timers: t.clock.timers, statfs: () => ({ ...disk }), everyMs: 1_000 });
  return { disk, monitor };
}

const raised = (t: ReturnType<typeof testTable>) =>
  [...t.ledger.entries(1)].filter((e) => e.type === 'tilt.raise' || e.type === 'tilt.clear').map((e) => e.type);

describe('disk-space monitoring', () => {
  it('words the fault in every language of the screens', () => {
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      assert.ok(wordAt(catalogues[lang], 'tilt.disk-low'), `${lang} tilt.disk-low`);
      assert.ok(wordAt(catalogues[lang], 'service.tiltHow.disk-low'), `${lang} service.tiltHow.disk-low (the service screen says how it clears)`);
    }
  });

  it('stops new bets below the threshold, journalled once, shown on the screens; starts them again only with room to spare', () => {
    const t = testTable();
    const { disk, monitor } = monitored(t);
    try {
      credit(t.ledger, 1, 100_000);
      monitor.start();
      assert.deepEqual(raised(t), [], 'plenty of room: no fault');
      assert.equal(place(t, 1).ok, true);

      disk.free = DISK_LOW_BYTES - 1;
      t.clock.advance(1_000);
      t.clock.advance(1_000);
      assert.deepEqual(raised(t), ['tilt.raise'], 'raised once, however often it is seen');
      const fault = t.tilts.list().find((x) => x.kind === 'disk-low');
      assert.ok(fault, 'the disk-low fault is held');
      assert.match(fault.detail ?? '', /MiB free of 8192 MiB/);
      const table = t.hub.state('table');
      assert.ok(table.kind === 'table' && table.tilts?.some((n) => n.kind === 'disk-low' && n.disables === 'new-bets'));
      const refused = place(t, 1);
      assert.equal(refused.ok, false, 'no new bet while the disk is low');

      // Between the two thresholds: still low (no raise-clear flapping at the edge).
      disk.free = (DISK_LOW_BYTES + DISK_OK_BYTES) / 2;
      t.clock.advance(1_000);
      assert.ok(t.tilts.list().some((x) => x.kind === 'disk-low'));

      disk.free = DISK_OK_BYTES + MIB;
      t.clock.advance(1_000);
      assert.deepEqual(raised(t), ['tilt.raise', 'tilt.clear'], 'cleared by itself, journalled');
      assert.equal(place(t, 1).ok, true, 'bets again');
    } finally {
      monitor.stop();
      t.close();
    }
  });

  it('a disk-low fault outlives a restart, and the first look that finds room clears it', () => {
    const t = testTable();
    const { disk, monitor } = monitored(t);
    disk.free = 10 * MIB;
    monitor.start();
    monitor.stop();
    t.stop();
    const again = testTable({ dir: t.dir });
    try {
      assert.ok(
        again.tilts.list().some((x) => x.kind === 'disk-low'),
        'restored from the journal',
      );
      const m = monitored(again);
      m.monitor.start();
      m.monitor.stop();
      assert.ok(!again.tilts.list().some((x) => x.kind === 'disk-low'), 'cleared once the disk has room');
    } finally {
      again.close();
    }
  });

  it('a statfs that fails changes nothing and says so', () => {
    const t = testTable();
    const errors: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
    const m = new DiskSpaceMonitor({
      dir: t.dir,
      tilts: t.tilts,
      log,
      timers: t.clock.timers,
      statfs: () => {
        throw new Error('EIO');
      },
    });
    try {
      assert.equal(m.check(), null);
      assert.equal(errors.length, 1);
      assert.deepEqual(t.tilts.list(), []);
    } finally {
      t.close();
    }
  });

  it('a bet the ledger cannot journal (SQLITE_FULL) is refused whole: no chip, no credit moved, nothing journalled', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 100_000);
      const head = t.ledger.headOf().seq;
      const appendMany = t.ledger.appendMany.bind(t.ledger);
      t.ledger.appendMany = () => {
        throw new Error('SQLITE_FULL: database or disk is full');
      };
      const r = t.table.commands.placeBet(1, { bet: 'main' }, 10_000);
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.reason, /could not be journalled: SQLITE_FULL/);
      assert.deepEqual(t.table.state.chips, [], 'no chip on the felt');
      assert.equal(t.table.state.credits[1], 100_000, "the table's credit is untouched");
      assert.equal(t.ledger.credit(1), 100_000, "the ledger's credit is untouched");
      assert.equal(t.ledger.headOf().seq, head, 'nothing journalled');
      t.ledger.appendMany = appendMany;
    } finally {
      t.close();
    }
  });
});
