// An upstream whose port is taken refuses to start, and stops what it had started before the
// listen: the transfers' reconciliation timer and the database in its folder. Before, the timer
// was set before `app.listen` and the refusal left it ticking against a database left open (and
// its folder held): the refused process did not exit, and a second start in the same process
// found the folder busy.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { leftAfter, resources } from '../host/leftovers.js';
import { startUpstream } from '../../upstream/index.js';

function listening(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

describe('an upstream refused at its listen', () => {
  it('leaves no timer or handle, and its folder is free for the next start', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'upstream-refused-'));
    const blocker = await listening();
    const taken = (blocker.address() as net.AddressInfo).port;
    const transfers = { everySeconds: 1, openAfterSeconds: 60 };
    try {
      const before = resources();
      await assert.rejects(startUpstream({ dataDir: dir, port: taken, transfers, backoffice: false }), /EADDRINUSE/);
      assert.deepEqual(await leftAfter(before), [], 'nothing of the refused start left running');
      const next = await startUpstream({ dataDir: dir, port: 0, transfers, backoffice: false });
      await next.close();
      assert.deepEqual(await leftAfter(before), [], 'the second start stops cleanly');
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes its database even when its server’s close fails, so its folder is free for the next start', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'upstream-close-'));
    try {
      const up = await startUpstream({ dataDir: dir, port: 0, backoffice: false });
      // A close that fails after the server is down (an onClose hook throwing, say).
      const close = up.app.close.bind(up.app);
      Reflect.set(up.app, 'close', () => close().then(() => Promise.reject(new Error('an onClose hook failed'))));
      await assert.rejects(up.close(), /an onClose hook failed/);
      const next = await startUpstream({ dataDir: dir, port: 0, backoffice: false });
      await next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
