// A service session's end (its idle timer, its screen closing) when the journal refuses its
// `service.exit` (SQLITE_FULL): the end comes from a timer or a socket's 'close' listener, where
// a throw ends the host process. The session ends all the same (a person gone stays signed out),
// the refusal is logged at error level, and the exit is journalled at service mode's next write.
// Each end runs in a child process: a throw there is the child's death, not this runner's.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { childCase, runInChild, stderrHead } from '../testing/in-child.js';

const child = childCase();
if (child) {
  const pino = (await import('pino')).default;
  const { Ledger } = await import('../../ledger/index.js');
  const { refusingOnce } = await import('../testing/refusing-ledger.js');
  const { AccountStore } = await import('./accounts.js');
  const { ServiceHost } = await import('./service-host.js');
  const { fakeBackend } = await import('./testing/fake-backend.js');
  const { memoryAccountJournal } = await import('./testing/memory-account-journal.js');
  const { accessJournal } = await import('./backend/access-journal.js');
  const { realTimers } = await import('../table/timers.js');
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-EXIT' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'service-exit-'));
  const FAST = { N: 2 ** 10, r: 8, p: 1 };
  const setUp = new AccountStore(dir, { scrypt: FAST });
  await setUp.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '1001' }, null);
  setUp.close();
  const accounts = new AccountStore(dir, { scrypt: FAST, journal: memoryAccountJournal().journal });
  const sessions = {
    ...accessJournal({ ledger, log, floor: { tilts: { raise: () => assert.fail('no security fault is raised in this test') } } }),
    ended: () => undefined,
  };
  const host = new ServiceHost({ accounts, backend: fakeBackend({ sessions }).backend, timers: realTimers, idleMs: 300, confirmMs: 30_000 });
  const signIn = async () => {
    host.apply('c1', { name: 'service-sign-in', staff: '1001', pin: '482915' });
    for (let i = 0; i < 400 && host.state('c1', 'en').busy; i++) await new Promise((r) => setTimeout(r, 5));
  };
  const types = () => [...ledger.entries(1)].flatMap((e) => (e.type.startsWith('service.') ? [e.type] : []));
  await signIn();
  refusingOnce(ledger, 'service.exit');
  if (child === 'close') setImmediate(() => host.screenGone('c1'));
  await new Promise((r) => setTimeout(r, 800));
  const signedInAfterEnd = host.state('c1', 'en').signedIn;
  const afterEnd = types();
  await signIn();
  console.log(JSON.stringify({ signedInAfterEnd, afterEnd, afterNext: types(), errors: lines.filter((l) => l.level >= 50).map((l) => l.msg) }));
  process.exit(0);
} else {
  describe('a service session ended while the journal refuses its exit', () => {
    for (const how of ['idle', 'close'])
      it(`its ${how} end: the host lives, the session is over, the refusal logged, the exit journalled at the next write`, () => {
        const r = runInChild(import.meta.url, { case: how, timeoutMs: 60_000 });
        assert.equal(r.status, 0, `the host process died: ${stderrHead(r.stderr)}`);
        const seen = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as {
          signedInAfterEnd: unknown;
          afterEnd: string[];
          afterNext: string[];
          errors: string[];
        };
        assert.equal(seen.signedInAfterEnd, false, 'the session outlived its end');
        assert.deepEqual(seen.afterEnd, ['service.enter'], 'the refused exit was journalled anyway');
        assert.equal(seen.errors.length, 1, JSON.stringify(seen.errors));
        assert.match(seen.errors[0] ?? '', /service\.exit/);
        // The held exit goes before the next session's enter.
        assert.deepEqual(seen.afterNext, ['service.enter', 'service.exit', 'service.enter']);
      });
  });
}
