// The host's own wiring of a station closed to tickets (host/devices/ticket-in.ts `close`): the
// table's runtime hands its faults to ticket in, so the closing is the station's fault
// `ticket-in-closed` in the list service mode shows and in /healthz's body (which each upstream
// heartbeat carries), and goes from both when the station takes tickets again. Before, the
// closing was a log line only: /healthz said nothing of a station that gave back every ticket.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { healthSnapshot } from '../../host/start/health.js';
import type { Opened } from '../../host/start/opened.js';
import { StartStops } from '../../host/start/stops.js';
import { openTableRuntime } from '../../host/start/table-runtime.js';
import { refusingUntilReleased } from '../../host/testing/refusing-ledger.js';
import { openLedger } from '../../ledger/index.js';
import { redeemRequest } from '../../ledger/ticket-fixtures.js';
import { validationNumber } from '../../terms/validation-number.js';

const silent = pino({ level: 'silent' });
const id = (n: number) => `c1c3a1d2-0000-4000-8000-${String(n).padStart(12, '0')}`;

it('a station closed to tickets is a fault in /healthz and the fault list until it reopens', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-closed-'));
  const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: 'T-TC' });
  const ledger = openLedger(dir, 'T-TC');
  const stops = new StartStops(silent);
  t.after(async () => {
    await stops.unwind();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // A kill left an attempt never approved behind a newer one at station 2; the disk is full.
  ledger.append(redeemRequest(id(1), validationNumber(31, 5), 2));
  ledger.append(redeemRequest(id(2), validationNumber(31, 6), 2));
  const rt = openTableRuntime(
    { dataDir: dir, rendererDir: path.join(dir, 'none') },
    { config, ledger, log: silent, manifest: { hash: 'test' } as Opened['manifest'] },
    stops,
  );
  const health = healthSnapshot({ config, terminalId: 'T-TC', ledger, sync: null, witness: null, softwareVersion: 'test' }, rt, {
    shoe: { state: () => 'simulated' },
    floor: { tilts: rt.tilts },
  } as never);
  const faults = () => (health().table as { faults: string[] }).faults;
  const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
  assert.doesNotThrow(() => rt.ticketsIn.recover(), 'the acceptors’ start over the full disk');
  assert.ok(faults().includes('ticket-in-closed'), `/healthz names the closing: ${faults().join(', ')}`);
  assert.deepEqual(
    rt.tilts.list().flatMap((f) => (f.kind === 'ticket-in-closed' ? [{ station: f.station, clears: f.clears, disables: f.disables }] : [])),
    [{ station: 2, clears: 'auto', disables: 'nothing' }],
    'service mode’s list: station 2’s, clearing by itself, stopping no play',
  );
  release();
  ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
  await new Promise((r) => setImmediate(r));
  assert.ok(!faults().includes('ticket-in-closed'), `gone once the journal took the end: ${faults().join(', ')}`);
});
