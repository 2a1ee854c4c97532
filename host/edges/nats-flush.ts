import type { NatsConnection } from 'nats';

/** The part of the `nats` client's connection that holds what is published and not yet written. */
interface Pending {
  protocol?: { flushPending?: () => void; pendingLimit?: number };
}

/**
 * Writes what `nc` holds published to its socket now, not at the end of the task (issue 55).
 * The `nats` client (2.x, `protocol.js` `sendCommand`) holds each publish in its outbound buffer
 * and writes it in a microtask, or inline past 32 KiB: a public round published in the task that
 * goes on to settle the coup (its durable commit, a thousand stations' own parts) left the host
 * only when that task ended, tens of milliseconds later, and every station saw the card that late.
 * `flush()` is no help here (a PING answered later). The client's own method is reached through
 * its connection; a client without it is left to write in its own time.
 */
export function writeNow(nc: NatsConnection): void {
  (nc as unknown as Pending).protocol?.flushPending?.();
}

/**
 * Lets `nc` hold up to `bytes` published before it writes them inline (the client's own 32 KiB,
 * `pendingLimit`), so that what one change publishes (a settlement's round, panel and a thousand
 * own parts) leaves in one write at `writeNow`, not in 32 KiB pieces as it is made: an edge that
 * reads it whole sends each station the change in one write (issue 55). What is held still goes
 * in the client's microtask at the latest. A client without the field is left as it is.
 */
export function holdWrites(nc: NatsConnection, bytes: number): void {
  const protocol = (nc as unknown as Pending).protocol;
  if (protocol && typeof protocol.pendingLimit === 'number') protocol.pendingLimit = Math.max(protocol.pendingLimit, bytes);
}
