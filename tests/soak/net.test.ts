import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { cuttable, freePort } from './net.js';

/** An echo server on a port of freePort's choosing. */
async function echo(): Promise<{ port: number; server: net.Server }> {
  const port = await freePort();
  const server = net.createServer((s) => {
    s.on('error', () => undefined);
    s.pipe(s);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { port, server };
}

async function connect(port: number): Promise<net.Socket> {
  const s = net.connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  await once(s, 'connect');
  return s;
}

describe('the soaks’ network', () => {
  it('freePort names a port that can be listened on', async () => {
    const { port, server } = await echo();
    assert.ok(port > 0 && port < 65_536);
    assert.equal((server.address() as net.AddressInfo).port, port);
    server.close();
  });

  it('a cuttable proxy carries bytes both ways, and a cut closes every connection and counts them', async () => {
    const { port, server } = await echo();
    const proxy = await cuttable(port);
    try {
      assert.notEqual(proxy.port, port);
      const a = await connect(proxy.port);
      const b = await connect(proxy.port);
      a.write('note 1');
      const [back] = (await once(a, 'data')) as [Buffer];
      assert.equal(back.toString(), 'note 1');
      b.write('x');
      await once(b, 'data');
      const closed = Promise.all([once(a, 'close'), once(b, 'close')]);
      assert.equal(proxy.cut(), 2);
      await closed;
      assert.equal(proxy.cut(), 0, 'nothing left to cut');
      // The proxy still takes new connections after a cut: the network came back.
      const c = await connect(proxy.port);
      c.write('after');
      const [again] = (await once(c, 'data')) as [Buffer];
      assert.equal(again.toString(), 'after');
      c.destroy();
    } finally {
      proxy.close();
      server.close();
    }
  });
});
