import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * A loopback port free now, for a server that listens on it a moment later (a test's table, the
 * local PostgreSQL cluster, which is started again on the same port after a stop).
 *
 * Chosen below the kernel's ephemeral range, not by listening on port 0: port 0 hands out a port
 * from that range, and every outgoing connection of every process on the machine takes its local
 * port from the same range. Between our close and the real listen another test process's
 * connection could take it (CI of 29 November: `listen EADDRINUSE 127.0.0.1:33283` in
 * tests/security/peer-service-enrol.test.ts, with another test file connecting beside it). A port
 * below the range is never given to an outgoing connection; a port taken by someone's listener
 * is tried and passed over.
 */
export async function freePort(random: () => number = Math.random): Promise<number> {
  const below = ephemeralLow();
  for (let tries = 0; tries < 50; tries++) {
    const port = FLOOR + Math.floor(random() * (below - FLOOR));
    if (await listenable(port)) return port;
  }
  throw new Error(`no free loopback port between ${FLOOR} and ${below - 1} after 50 tries`);
}

/** The lowest port of the range ours stay under: well above the well-known and registered ports most daemons take. */
const FLOOR = 20_000;

/** The first port of the kernel's ephemeral range (Linux's default 32768 where it cannot be read). */
export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    // A range set lower than our floor leaves no room below it: fall back to the default's.
    return Number.isInteger(low) && low > FLOOR + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}
