// Which port the stadium's NATS server listens on, and how the host learns it. The server is asked
// to bind a port of the kernel's choosing and to write it down (`ports_file_dir`); the host reads
// the port it bound, never a port it guessed was free a moment before (another process's
// connection can take such a port between the guess and the listen) and never "something answers
// on that port" (another program's listener answers too).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { portOf, startNatsServer } from './nats-server.js';

const portsFiles = (d: string) => readdirSync(d).filter((f) => f.endsWith('.ports'));

/** The first line a server at `port` sends: NATS sends `INFO {…}` at once. */
function firstLine(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect(port, '127.0.0.1');
    let got = '';
    s.on('data', (d: Buffer) => {
      got += d.toString();
      if (!got.includes('\n')) return;
      s.destroy();
      resolve(got.split('\n')[0] ?? '');
    });
    s.once('error', reject);
  });
}

describe('the stadium NATS server: the port it listens on is the one it bound', { timeout: 60_000 }, () => {
  let dir: string;
  let impostor: Server;
  let taken: number;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nats-port-'));
    // Another program's listener: it accepts connections and says nothing NATS would.
    impostor = createServer((s) => {
      s.on('error', () => undefined);
      s.end('HTTP/1.1 400 not nats\r\n\r\n');
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const a = impostor.address();
    if (typeof a !== 'object' || a === null) throw new Error('no address');
    taken = a.port;
  });
  after(() => {
    impostor.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start on a port another listener holds, with the server's own reason and the port, rather than taking that listener for the server", async () => {
    const started = Date.now();
    await assert.rejects(startNatsServer({ dir: path.join(dir, 'held'), port: taken }), (e: Error) => {
      assert.match(e.message, /address already in use/);
      assert.ok(e.message.includes(`127.0.0.1:${taken}`), e.message);
      return true;
    });
    // Its exit is seen, not waited out to the 10 s deadline for a ports file.
    assert.ok(Date.now() - started < 8_000, `${Date.now() - started} ms`);
  });

  it('without a port: listens where the kernel placed it, and a connection there meets NATS; a restart keeps the port', async () => {
    const nats = await startNatsServer({ dir: path.join(dir, 'own') });
    try {
      assert.ok(nats.port > 0);
      assert.match(await firstLine(nats.port), /^INFO \{/);
      await nats.restart();
      assert.match(await firstLine(nats.port), /^INFO \{/);
    } finally {
      await nats.close();
    }
    // The server's own record of its ports goes with it.
    assert.deepEqual(portsFiles(path.join(dir, 'own')), []);
  });

  it('runs no JetStream: nothing uses it, and it would keep 256 MB of memory and a store on disk for whoever may reach its API', async () => {
    const own = path.join(dir, 'no-js');
    const nats = await startNatsServer({ dir: own, users: [{ user: 'host', password: 'a-password-for-the-test' }] });
    try {
      const info = JSON.parse((await firstLine(nats.port)).replace(/^INFO /, '')) as Record<string, unknown>;
      assert.notEqual(info.jetstream, true, 'the server announces JetStream');
      assert.ok(!readdirSync(own).includes('js'), 'a JetStream store folder was made');
    } finally {
      await nats.close();
    }
  });

  it("killed (SIGKILL leaves its ports file) and started again: a dead server's file is removed, not read as the new one's", async () => {
    const own = path.join(dir, 'killed');
    const nats = await startNatsServer({ dir: own, host: '0.0.0.0' });
    try {
      assert.equal(nats.url, `nats://127.0.0.1:${nats.port}`);
      const first = portsFiles(own);
      assert.equal(first.length, 1);
      await nats.kill();
      assert.deepEqual(portsFiles(own), first);
      // A stale file of another dead server beside it, as a power cut leaves.
      writeFileSync(path.join(own, 'nats-server_999999.ports'), '{"nats":["nats://127.0.0.1:1"]}');
      await nats.restart();
      const now = portsFiles(own);
      assert.equal(now.length, 1);
      assert.notDeepEqual(now, first);
      assert.match(await firstLine(nats.port), /^INFO \{/);
    } finally {
      await nats.close();
    }
  });
});

describe("portOf: the client port in the server's ports file", () => {
  it('reads IPv4 and IPv6 addresses, and nothing from a file still being written or of another shape', () => {
    assert.equal(portOf('{"nats":["nats://127.0.0.1:41663"]}'), 41663);
    assert.equal(portOf('{"nats":["nats://[::1]:4222","nats://10.0.0.5:4222"],"monitoring":["http://127.0.0.1:8222"]}'), 4222);
    assert.equal(portOf('{"nats":["tls://127.0.0.1:4333"]}'), 4333);
    for (const text of [
      '',
      '{"nats":["nats://127.0.0.1:41',
      '{"monitoring":["http://127.0.0.1:8222"]}',
      '{"nats":[]}',
      '{"nats":"nats://127.0.0.1:1"}',
      'null',
      '[1]',
    ])
      assert.equal(portOf(text), null, text);
  });
});
