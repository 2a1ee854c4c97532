// A printer that says paper out, then paper again, while the journal refuses a
// write: printers.ts:120-123, the paper-back timer, calls tilts.conditionGone('printer-paper-out')
// (auto: journalled at once) outside the try its event path has (printers.ts:84-88): an uncaught
// exception in a timer, the host process ends (a review of 2 December, H6). Now the fault is held
// (the safe side) and cleared at the ledger's next commit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

if (process.env.ZZ_CHILD) {
  const pino = (await import('pino')).default;
  const { Ledger } = await import('../../ledger/index.js');
  const { TiltManager } = await import('../tilts/tilt-manager.js');
  const { refusingOnce } = await import('../testing/refusing-ledger.js');
  const { Printers } = await import('./printers.js');
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const tilts = new TiltManager({ ledger, log });
  let emit: (e: unknown) => void = () => undefined;
  const fakePrinter = { on: (l: (e: unknown) => void) => ((emit = l), () => undefined) };
  const printers = new Printers({
    config: { stations: [{ station: 1, printer: 'fake' }] } as never,
    log,
    open: (() => fakePrinter) as never,
    faults: tilts,
    paperBackMs: 100,
  });
  printers.start();
  emit({ type: 'condition', condition: { faults: ['paper-out'] } });
  console.log(
    'faults:',
    tilts
      .list()
      .map((t) => t.kind)
      .join(','),
  );
  refusingOnce(ledger, 'tilt.clear');
  emit({ type: 'condition', condition: { faults: [] } });
  setTimeout(() => {
    console.log(
      'host still alive; faults:',
      tilts
        .list()
        .map((t) => t.kind)
        .join(','),
    );
    ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
    console.log(
      'after a commit; faults:',
      tilts
        .list()
        .map((t) => t.kind)
        .join(','),
    );
    process.exit(0);
  }, 800);
} else {
  describe('paper back at a printer while the journal is full', () => {
    it('the host process survives; the fault is held until its clear is journalled', () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: { ...process.env, ZZ_CHILD: '1' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      console.log(`child exit ${r.status}\nstdout: ${r.stdout}\nstderr (head): ${r.stderr.split('\n').slice(0, 9).join('\n')}`);
      assert.equal(r.status, 0, 'the host process died');
      assert.match(r.stdout, /host still alive; faults: printer-paper-out\n/);
      assert.match(r.stdout, /after a commit; faults: \n/);
    });
  });
}
