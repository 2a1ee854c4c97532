// The kiosk's witness client (ledger/witness-client.ts) against the witness's connection limits (witness/server.ts): it
// closes its own connection once idle, before the witness would end it, and reconnects at its
// next request without a caller seeing anything — also when the witness ended the connection first.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { WitnessClient } from '../../ledger/index.js';
import { listenWitness, Witness } from '../../witness/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-client-'));
after(() => rmSync(root, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits (up to 5 s) until `ok`: the timers fire on their own time, later under CI's load. */
async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 5_000; !ok() && Date.now() < end;) await sleep(20);
}

async function served(name: string, idleMs: number) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const w = new Witness({ dir: path.join(root, name), key: { privateKey, publicKey, store: 'file' } });
  const l = await listenWitness(w, { socket: path.join(root, `${name}.sock`) }, { idleMs, sweepMs: 20 });
  return { socket: path.join(root, `${name}.sock`), l, close: async () => (await l.close(), w.close()) };
}

describe('the witness client and idle connections', () => {
  it('closes its connection when idle, before the witness would, and reconnects at the next request', async () => {
    const s = await served('a', 10_000);
    const c = new WitnessClient(s.socket, { idleCloseMs: 100 });
    try {
      assert.equal(await c.head('T'), null);
      assert.equal(s.l.stats().connections, 1);
      await until(() => s.l.stats().connections === 0);
      assert.equal(s.l.stats().connections, 0, 'the client closed its idle connection itself');
      assert.equal(await c.head('T'), null);
    } finally {
      c.close();
      await s.close();
    }
  });

  it('reconnects without an error when the witness ended an idle connection first', async () => {
    const s = await served('b', 100);
    const c = new WitnessClient(s.socket, { idleCloseMs: 60_000 });
    try {
      assert.equal(await c.head('T'), null);
      await until(() => s.l.stats().connections === 0);
      assert.equal(s.l.stats().connections, 0, 'the witness ended it');
      assert.equal(await c.head('T'), null);
    } finally {
      c.close();
      await s.close();
    }
  });
});
