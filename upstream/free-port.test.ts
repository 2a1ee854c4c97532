import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { ephemeralLow, freePort } from './free-port.js';

describe('a free port for a server that listens on it later', () => {
  it('is below the ephemeral range, where no outgoing connection can take it in the meantime', async () => {
    const low = ephemeralLow();
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      assert.ok(port >= 20_000 && port < low, `port ${port} is not in [20000, ${low})`);
    }
  });

  it('can be listened on, and passes over a port a listener holds', async () => {
    const port = await freePort();
    const held = net.createServer();
    await new Promise<void>((r) => held.listen(port, '127.0.0.1', r));
    try {
      // The first pick is the held port, the second the one after it.
      const low = ephemeralLow();
      const at = (p: number) => (p - 20_000 + 0.5) / (low - 20_000);
      const picks = [at(port), at(port + 1 < low ? port + 1 : port - 1)];
      const got = await freePort(() => picks.shift() ?? Math.random());
      assert.notEqual(got, port);
      assert.equal(got, port + 1 < low ? port + 1 : port - 1);
    } finally {
      await new Promise<void>((r) => held.close(() => r()));
    }
  });
});
