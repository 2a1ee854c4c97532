// A fault that halts the table outlives a restart, and so does the halt: no countdown runs, nothing
// is decided or settled, until a person clears the fault (host/tilts, host/table/round-controller.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';

const silent = pino({ level: 'silent' });

describe('faults across a restart', () => {
  it('a restored shoe alarm keeps the table halted (no betting countdown) until a supervisor clears it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'restart-faults-'));
    const start = () =>
      startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config: simulatedTableConfig('war'), simulatedDealer: false });
    try {
      const first = await start();
      first.floor.tilts.raise('shoe-alarm', { detail: 'test alarm' });
      assert.equal(first.table.reads.view().endsAt, null, 'halted at once');
      await first.close();

      const second = await start();
      try {
        assert.deepEqual(
          second.floor.tilts.list().map((t) => t.kind),
          ['shoe-alarm'],
        );
        assert.equal(second.table.reads.view().endsAt, null, 'no countdown runs while halted');
        assert.equal(second.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, false);
        assert.equal(second.floor.tilts.clear('shoe-alarm', undefined, { user: 'tech-1', role: 'technician' }).ok, false, 'a supervisor clears an alarm');
        assert.deepEqual(second.floor.tilts.clear('shoe-alarm', undefined, { user: 'sup-1', role: 'supervisor' }), { ok: true });
        assert.notEqual(second.table.reads.view().endsAt, null, 'the step starts again once cleared');
        // The restart journalled no clear of its own: one raise, one clear by the supervisor.
        const kinds = [...second.ledger.entries(1)].filter((e) => e.type.startsWith('tilt.')).map((e) => e.type);
        assert.deepEqual(kinds, ['tilt.raise', 'tilt.clear']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
