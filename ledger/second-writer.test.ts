// A second process appending to a ledger the host holds open: the service accounts' command line
// journals its account changes while the host runs (issue 27). Each append takes SQLite's write
// lock first and chains from the head the database holds, not from the head its process last
// wrote: neither writer's next entry is refused, and the journal verifies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openLedger, verifyLedger } from './index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'second-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('two writers on one ledger', () => {
  it('each chains from the head the database holds; the journal verifies', () => {
    const host = openLedger(dir, 'T-2W');
    host.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });
    const tool = openLedger(dir, 'T-2W');
    try {
      for (let i = 0; i < 3; i++) {
        const a = tool.append({ type: 'service.action', payload: { who: 'tool', action: 'sync-retry', detail: `tool ${i}` } });
        const b = host.append({ type: 'service.action', payload: { who: 'host', action: 'sync-retry', detail: `host ${i}` } });
        assert.equal(b.entry.seq, a.entry.seq + 1);
        assert.equal(host.headOf().seq, b.entry.seq);
      }
      const batch = tool.appendMany([
        { type: 'door.open', payload: { door: 'main' } },
        { type: 'door.close', payload: { door: 'main' } },
      ]);
      assert.equal(batch[0]?.entry.seq, host.headOf().seq + 1);
      host.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });
      const report = verifyLedger(host, { from: 'genesis' });
      assert.deepEqual(report.problems, []);
      assert.equal(report.entries, 10);
    } finally {
      tool.close();
      host.close();
    }
  });
});
