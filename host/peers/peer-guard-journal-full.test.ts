// The peer guard raises `peer-integrity` again at each check while a problem stays (a supervisor
// who cleared it sees it come back). The checks run from the transfers' tick (a setInterval) and a
// stranger's hello (a socket's 'message'): a raise the journal refused (the disk full) was thrown
// there, where nothing catches, and ended the host process (a review of 2 December, M4). The
// fault is held unjournalled instead, and journalled at the ledger's next commit.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger, openTilts } from '../../ledger/index.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { PEERS_FILE } from './peer-config.js';
import { PeerGuard } from './peer-guard.js';

describe('the peer guard with a full journal', () => {
  it('a peer problem raised again after a clear, its raise refused: no throw, the fault held, journalled at the next commit', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-guard-full-'));
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-PEER' });
    try {
      const log = pino({ level: 'silent' });
      const tilts = new TiltManager({ ledger, log });
      // A peers file that cannot be read (a folder in its place): a problem that stays.
      mkdirSync(path.join(dir, PEERS_FILE));
      const guard = new PeerGuard({ dataDir: dir, self: 'T-PEER', ledger, log, fault: (detail) => tilts.raise('peer-integrity', { detail }) });
      assert.ok(tilts.list().some((t) => t.kind === 'peer-integrity'));
      assert.deepEqual(tilts.clear('peer-integrity', undefined, { user: 'sup-1', role: 'supervisor' }), { ok: true });
      refusingOnce(ledger, 'tilt.raise');
      assert.doesNotThrow(() => guard.check());
      assert.ok(
        tilts.list().some((t) => t.kind === 'peer-integrity'),
        'held again though unjournalled',
      );
      assert.deepEqual(openTilts(ledger), []);
      ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
      assert.deepEqual(
        openTilts(ledger).map((t) => t.kind),
        ['peer-integrity'],
      );
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
