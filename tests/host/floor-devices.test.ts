// The floor's faults from real drivers over the simulated devices: a bill jam, a removed stacker
// and an open shoe lid travel simulator bytes → driver → tilt manager → journal → screens.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { openLedger } from '../../ledger/index.js';
import { tamperJournalBody } from '../../ledger/testing/tamper.js';

/** Resolves when the predicate holds, checked on every change of the faults. */
function until(running: RunningHost, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate()) return resolve();
    const off = running.floor.tilts.onChange(() => {
      if (predicate()) {
        off();
        resolve();
      }
    });
  });
}

const kinds = (running: RunningHost) => running.floor.tilts.list().map((t) => `${t.kind}${t.station ? `@${t.station}` : ''}`);

/**
 * A note into `station`'s simulated acceptor, which jams (`where`) while the host decides on it: its
 * next report is the jam with the note in its path, after the host journalled it in escrow.
 */
async function noteJammed(running: RunningHost, station: number, note: number, where: 'acceptor' | 'stacker') {
  const acceptors = running.devices.billAcceptors;
  const sim = acceptors.simulator(station);
  assert.ok(sim);
  for (let i = 0; i < 400 && acceptors.statuses()[station - 1]?.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 25));
  const off = acceptors.onEvent((at, e) => {
    if (at === station && e.type === 'escrowed') sim.faults.jam(where);
  });
  sim.insertNote(note);
  await until(running, () => kinds(running).includes(`bill-jam@${station}`));
  off();
  return sim;
}

describe('faults from the simulated devices', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'floor-devices-'));
    running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: pino({ level: 'silent' }), simulatedDealer: false });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('raises a jam at its station, lets an attendant clear it once the acceptor reports it fixed', async () => {
    const sim = running.devices.billAcceptors.simulator(2);
    assert.ok(sim);
    sim.faults.jam('acceptor');
    await until(running, () => kinds(running).includes('bill-jam@2'));
    const view = running.screens.hub.state('station/2');
    assert.ok(view.kind === 'station' && view.tilts?.some((t) => t.kind === 'bill-jam'));
    sim.faults.clear();
    await until(running, () => running.floor.tilts.list().find((t) => t.kind === 'bill-jam')?.clearable === true);
    assert.deepEqual(running.floor.tilts.clear('bill-jam', 2, { user: 'att-1', role: 'attendant' }), { ok: true });
    assert.ok(!kinds(running).includes('bill-jam@2'));
  });

  it('a note that jams after the host answered "stack" is held for a person: the driver forgot it, no acceptor will end it', async () => {
    const acceptors = running.devices.billAcceptors;
    const sim = await noteJammed(running, 4, 100, 'stacker');
    const escrows = [...running.ledger.entries(4)].filter((e) => e.type === 'bill.escrow');
    assert.equal(escrows.length, 1, 'the host answered "stack": the note journalled in escrow');
    assert.deepEqual(
      acceptors.notes.held().map((n) => [n.station, n.seq, n.amount]),
      [[4, escrows[0]?.seq, 10_000]],
      'listed on the Devices page, to settle once the attendant has taken it out',
    );
    sim.faults.clear();
    assert.deepEqual(sim.jammed, [100]);
  });

  it('raises a removed stacker, and an open shoe lid that clears itself when closed', async () => {
    running.devices.billAcceptors.simulator(3)?.faults.removeStacker();
    await until(running, () => kinds(running).includes('stacker-removed@3'));
    const shoe = running.devices.shoe.simulator();
    assert.ok(shoe);
    shoe.faults.openLid();
    await until(running, () => kinds(running).includes('shoe-lid-open'));
    const table = running.screens.hub.state('table');
    assert.ok(table.kind === 'table' && table.tilts?.some((t) => t.kind === 'shoe-lid-open' && t.disables === 'new-bets'));
    shoe.faults.closeLid();
    await until(running, () => !kinds(running).includes('shoe-lid-open'));
  });
});

describe('a jammed note across a restart', () => {
  it('stays held for a person: the new driver is not handed it, and the unit idle after the jam never says it given back', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'floor-jam-restart-'));
    const start = () => startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: pino({ level: 'silent' }), simulatedDealer: false });
    try {
      const first = await start();
      let seq = 0;
      try {
        const acceptors = first.devices.billAcceptors;
        const sim = await noteJammed(first, 2, 500, 'acceptor');
        seq = acceptors.notes.held()[0]?.seq ?? 0;
        assert.ok(seq > 0, 'held');
        // The attendant takes the note out; the table is restarted before anyone settles it.
        sim.faults.clear();
      } finally {
        await first.close();
      }
      const second = await start();
      try {
        const acceptors = second.devices.billAcceptors;
        for (let i = 0; i < 400 && acceptors.statuses()[1]?.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 25));
        // A few of the unit's idle reports.
        await new Promise((r) => setTimeout(r, 500));
        assert.deepEqual(
          acceptors.notes.held().map((n) => [n.station, n.seq, n.amount]),
          [[2, seq, 50_000]],
        );
        assert.deepEqual(
          [...second.ledger.entries(seq)].filter((e) => e.type === 'bill.return' || e.type === 'bill.credit'),
          [],
          'neither given back nor credited on the unit’s word',
        );
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ledger verification at start', () => {
  it('halts the table when an entry older than the open-time tail check was altered', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'floor-verify-'));
    try {
      const ledger = openLedger(dir, 'SIM-WAR-01');
      ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 50_000, currency: 'MOP' }, txId: 'n1' });
      for (let i = 0; i < 300; i++) ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });
      tamperJournalBody(ledger, 1, '"denomination":50000', '"denomination":90000');
      ledger.close();
      const running = await startHost({
        dataDir: dir,
        rendererDir: path.join(dir, 'none'),
        logger: pino({ level: 'silent' }),
        simulatedDealer: false,
        config: simulatedTableConfig('war'),
      });
      try {
        assert.deepEqual(
          running.floor.tilts.list().map((t) => t.kind),
          ['ledger-integrity'],
        );
        assert.equal(running.table.reads.station(1).betting.open, false);
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('offline beyond the limit', () => {
  it("raises upstream-offline from the sync client's signal, refuses new bets, and clears at a start without the backlog", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'floor-offline-'));
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    try {
      writeFileSync(path.join(dir, 'upstream-credentials.json'), JSON.stringify({ terminalId: 'SIM-WAR-01', key: randomBytes(32).toString('base64') }));
      const config = {
        ...simulatedTableConfig('war'),
        upstream: `http://127.0.0.1:${port}`,
        offlineLimit: { maxUnsyncedEntries: 2, maxUnsyncedSeconds: 3600 },
      };
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: pino({ level: 'silent' }), simulatedDealer: false, config });
      try {
        assert.ok(running.sync, 'the upstream of the configuration file is used');
        for (let i = 0; i < 3; i++) running.ledger.append({ type: 'door.open', payload: { door: 'main' } });
        running.sync.kick();
        await until(running, () => kinds(running).includes('upstream-offline'));
        const r = await running.screens.hub.commands.submit('station/1', running.screens.hub.version('station/1'), {
          name: 'place-bet',
          spot: { bet: 'main' },
          amount: 10_000,
        });
        assert.equal(!r.ok && r.error.refusal, 'bets-stopped');
      } finally {
        await running.close();
      }
      const again = await startHost({
        dataDir: dir,
        rendererDir: path.join(dir, 'none'),
        logger: pino({ level: 'silent' }),
        simulatedDealer: false,
        config: simulatedTableConfig('war'),
      });
      try {
        assert.deepEqual(kinds(again), [], 'no upstream now: the restored fault has no condition left');
        const cleared = [...again.ledger.entries(1)]
          .filter((e) => e.type === 'tilt.clear')
          .map((e) => (JSON.parse(e.body) as { payload: { kind: string; automatic: boolean } }).payload)
          .map((p) => [p.kind, p.automatic]);
        assert.deepEqual(cleared, [['upstream-offline', true]]);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an SSP station', () => {
  it('credits a note through the SSP driver when its configuration names ssp', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'floor-ssp-'));
    try {
      const base = simulatedTableConfig('war');
      const config = { ...base, stations: base.stations.map((s) => (s.station === 1 ? { ...s, billProtocol: 'ssp' as const } : s)) };
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: pino({ level: 'silent' }), simulatedDealer: false, config });
      try {
        const sim = running.devices.billAcceptors.simulator(1);
        assert.equal(sim?.protocol, 'ssp');
        // The hub tells its listeners of the views it has built (a station view nobody asked for is
        // built when first asked: a stadium has hundreds); ask for station 1's, as its screen would.
        running.screens.hub.version('station/1');
        const credited = new Promise<void>((resolve) => {
          const off = running.screens.hub.onChange((view) => {
            if (view === 'station/1' && running.ledger.credit(1) === 10_000) {
              off();
              resolve();
            }
          });
        });
        sim?.insertNote(100);
        await credited;
        assert.deepEqual(
          [...running.ledger.entries(1)].map((e) => e.type).filter((t) => t.startsWith('bill.')),
          ['bill.escrow', 'bill.credit'],
        );
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
