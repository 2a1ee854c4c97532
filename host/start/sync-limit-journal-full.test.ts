// The upstream sync's loop (ledger/sync-client.ts:345 checkLimits, outside its
// try) calls onStopNewBets → signals.ts:35 onUpstreamSignal → tilts.raise('upstream-offline'); a
// journal that refuses that raise (SQLITE_FULL) rejects loop(), whose promise (`this.running`,
// :217) nobody handles: an unhandled rejection, the host process ends. The witness link's loop is
// built the same way (ledger/witness-link.ts:299 checkLimits, :317/:324 onAlarm → tilts.raise).
// A review of 2 December, H4.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childCase, heldKinds, runInChild } from '../testing/in-child.js';

if (childCase()) {
  const pino = (await import('pino')).default;
  const { Ledger } = await import('../../ledger/index.js');
  const { SyncClient } = await import('../../ledger/sync-client.js');
  const { TiltManager } = await import('../tilts/tilt-manager.js');
  const { onUpstreamSignal } = await import('../tilts/tilt-sources.js');
  const { refusingOnce } = await import('../testing/refusing-ledger.js');
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const tilts = new TiltManager({ ledger, log });
  for (let i = 0; i < 3; i++) ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
  refusingOnce(ledger, 'tilt.raise');
  const url = 'http://127.0.0.1:9'; // nobody answers: the upstream is down
  const client = new SyncClient(ledger, {
    url,
    credentials: { terminalId: 'T-ZZ', key: Buffer.alloc(32, 7).toString('base64'), upstream: url },
    limits: { maxUnsyncedEntries: 1 },
    backoffBaseMs: 20,
    requestTimeoutMs: 200,
    onStopNewBets: (stop) => onUpstreamSignal(tilts, stop),
  });
  client.start();
  setTimeout(() => {
    console.log('host still alive; faults:', heldKinds(tilts));
    process.exit(0);
  }, 1500);
} else {
  describe('the upstream offline beyond its limit while the journal is full', () => {
    it('the host process survives and new bets are stopped', () => {
      const r = runInChild(import.meta.url);
      assert.equal(r.status, 0, 'the host process died');
      assert.match(r.stdout, /host still alive; faults: upstream-offline\n/);
    });
  });
}
