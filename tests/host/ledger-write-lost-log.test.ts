// A schema changed under the running host makes the ledger refuse every append, each refusal told
// to the host (host/start/signals.ts). A busy table asks for writes all the time (bets, notes,
// timers), and each refusal logged in full was an error line: a log (and the disk under it)
// flooded with the same line. The first is said in full, the rest counted and said at most once a
// minute (the tilt manager's RefusalLog), and the table halts on one ledger-integrity fault.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { alterSchemaInFile, dropTriggersInFile } from '../../ledger/testing/tamper.js';

const REFUSED = 'ledger write refused';

describe('a ledger that refuses every write, asked a thousand times', () => {
  it('says the first refusal in full and counts the rest; one fault halts the table', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'write-lost-log-'));
    const lines: { msg: string; level: number; refused?: number }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as (typeof lines)[number]);
        done();
      },
    });
    const running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'info' }, sink),
      config: simulatedTableConfig('war'),
      simulatedDealer: false,
      timings: { bettingMs: 60_000, decisionMs: 60_000, resultsMs: 100 },
    });
    try {
      alterSchemaInFile(dir, 'CREATE TRIGGER planted BEFORE INSERT ON outbox BEGIN SELECT RAISE(IGNORE); END');
      for (let i = 0; i < 1_000; i++)
        assert.throws(() =>
          running.ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP' }, txId: `n${i}` }),
        );
      const said = lines.filter((l) => l.msg.startsWith(REFUSED));
      assert.ok(said.length >= 1 && said.length <= 3, `${said.length} lines for 1,000 refusals`);
      assert.equal(said[0]?.msg, REFUSED, 'the first in full');
      const errors = lines.filter((l) => l.level >= 50);
      assert.ok(errors.length < 20, `${errors.length} error lines in all: ${[...new Set(errors.map((l) => l.msg))].join(' | ')}`);
      assert.equal(running.floor.tilts.list().filter((t) => t.kind === 'ledger-integrity').length, 1, 'one fault');
      assert.equal(running.floor.tilts.refusal(1, 'bet')?.refusal, 'table-halted');
      dropTriggersInFile(dir, ['planted']);
      running.ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP' }, txId: 'after' });
      assert.deepEqual(
        lines.filter((l) => l.msg === 'the ledger takes writes again').map((l) => l.refused),
        [1_000],
        'put right: the count in all',
      );
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
