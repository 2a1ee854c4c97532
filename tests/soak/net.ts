// The network pieces the soaks share (tests/host/stadium-soak.test.ts, tests/transfers/floor-soak.ts,
// and the kill tests that start a host on a port of their own): a free port on the loopback, and a
// TCP proxy whose every connection the soak can cut at once (the network failing mid-note).
import net from 'node:net';

/** A port on 127.0.0.1 free a moment ago, below the kernel's ephemeral range (upstream/free-port.ts says why). */
export { freePort } from '../../upstream/free-port.js';

/** A proxy from its own loopback port to `target`'s; `cut` closes every connection through it and says how many. */
export interface Cuttable {
  readonly port: number;
  cut(): number;
  close(): void;
}

/** A TCP proxy to a listener on 127.0.0.1:`target` whose every connection can be cut at once. */
export async function cuttable(target: number): Promise<Cuttable> {
  const pairs = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const up = net.connect(target, '127.0.0.1');
    client.pipe(up);
    up.pipe(client);
    const end = () => {
      client.destroy();
      up.destroy();
      pairs.delete(client);
    };
    pairs.add(client);
    client.on('error', end);
    up.on('error', end);
    client.on('close', end);
    up.on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  return {
    port: typeof a === 'object' && a ? a.port : 0,
    cut: () => {
      const n = pairs.size;
      for (const c of [...pairs]) c.destroy();
      return n;
    },
    close: () => server.close(),
  };
}
