// A listener of the ledger's commits that throws (a review of failed writes: one that logged on a
// full disk threw ENOSPC). The entries are committed before any listener hears of them: before,
// the throw came out of `append` to its caller, which took a committed entry for one that failed
// (a bet placed reported refused), and the listeners after it (the table's credit mirror, the
// witness link, the floor) never heard of the entries.
import assert from 'node:assert/strict';
import fs, { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { Ledger } from './ledger.js';

describe("the ledger's commit listeners", () => {
  it('one that throws neither makes a committed append look failed nor keeps the others from hearing; its error is reported', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    const reported: unknown[] = [];
    l.onListenerError((e) => reported.push(e));
    let heard = 0;
    l.onAppended(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    l.onAppended((entries) => void (heard += entries.length));
    const r = l.append(billCredit(1, 10_000, 'note-1'));
    assert.equal(r.status, 'appended');
    assert.equal(l.credit(1), 10_000);
    assert.equal(heard, 1, 'the listener after the one that threw heard of the entry');
    assert.equal(reported.length, 1);
    assert.match(String(reported[0]), /ENOSPC/);
    l.close();
  });

  it('without a reporter, the error goes to stderr, never to the appender', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    l.onAppended(() => {
      throw new Error('a listener of its own fault');
    });
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      assert.equal(l.append(billCredit(1, 10_000, 'note-1')).status, 'appended');
    } finally {
      process.stderr.write = write;
    }
    assert.ok(
      said.some((s) => s.includes('a listener of its own fault')),
      said.join(''),
    );
    l.close();
  });

  it("the head mark's write failing after the commit is reported, and the append is the commit it made", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-mark-'));
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
    const reported: unknown[] = [];
    l.onListenerError((e) => reported.push(e));
    const real = fs.writeSync;
    fs.writeSync = function (fd: number, ...rest: unknown[]): number {
      if (readlinkSync(`/proc/self/fd/${fd}`).endsWith('.head')) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      return (real as (...a: unknown[]) => number)(fd, ...rest);
    } as typeof fs.writeSync;
    syncBuiltinESMExports();
    try {
      assert.equal(l.append(billCredit(1, 10_000, 'note-1')).status, 'appended');
    } finally {
      fs.writeSync = real;
      syncBuiltinESMExports();
    }
    assert.equal(l.credit(1), 10_000);
    assert.match(String(reported[0]), /EIO/);
    l.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
