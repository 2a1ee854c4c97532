import type { Logger } from 'pino';
import type { TableId } from '../../terms/transfer-terms.js';
import { TokenBucket } from '../limits/token-bucket.js';
import type { PeerCredentials } from './peer-credentials.js';
import { decodePeer, PEER_PROTOCOL_VERSION, PeerHello, PeerInbound, type PeerWelcome } from './peer-wire.js';

/**
 * A peer's messages at once, and a second sustained: a host asks again about each of its open
 * transfers once a tick, so a floor of busy tables stays far under it; a link over it is not a
 * host keeping the protocol, and is closed.
 */
export const PEER_LIMITS = { burst: 2_000, perSecond: 1_000 } as const;

/** Why the listener closed a peer's connection (logged, and counted for the tests and /metrics). */
export const PEER_REFUSALS = ['not-hello', 'wrong-protocol', 'wrong-secret', 'is-self', 'malformed', 'binary', 'rate', 'not-journalled'] as const;
export type PeerRefusal = (typeof PEER_REFUSALS)[number];

/** The characters of a decoding error logged: zod lists every unknown key, so a 16 KiB frame made a 16 KiB line. */
const ERROR_LOGGED = 120;

/** A decoding error as logged: its start, never the whole text (which the client chose). */
function brief(error: string): string {
  return error.length > ERROR_LOGGED ? `${error.slice(0, ERROR_LOGGED)}…` : error;
}

/** One connection dialled into this host on `/peer`, as the LAN listener drives it. */
export interface PeerConnection {
  receive(text: string, binary: boolean): void;
  dispose(): void;
  /** Whether the dialler's hello was accepted and the link is still in force (the connection guard keeps it then). */
  greeted(): boolean;
}

export interface PeerListenerOptions {
  readonly self: TableId;
  readonly credentials: PeerCredentials;
  readonly log: Logger;
  /** Whether the peer table's files are the journal's now (host/peers/peer-guard.ts), asked at its hello and each of its messages; absent: always. */
  readonly admits?: (table: TableId) => boolean;
  /** A transfer message from the peer table `link` (authenticated by its secret), unparsed: the transfer step distrusts it. */
  readonly onMessage: (link: TableId, message: unknown) => void;
  readonly now?: () => number;
}

/**
 * The host's side of the links its peers dial: a hello naming a table enrolled here with that
 * table's secret, then transfer messages only, within a rate. Anything else closes the connection
 * and is logged; nothing of it reaches the transfers (so nothing is journalled or credited). One
 * link per peer table: a new one greeted replaces the one before.
 */
export class PeerListener {
  private readonly live = new Map<TableId, () => void>();
  readonly refused = new Map<PeerRefusal, number>();

  constructor(private readonly o: PeerListenerOptions) {}

  /** Whether the peer table has a greeted link into this host now. */
  connected(table: TableId): boolean {
    return this.live.has(table);
  }

  /** Closes the peer table's link into this host, if it has one (the peer was removed). */
  disconnect(table: TableId): void {
    this.live.get(table)?.();
  }

  /**
   * `connectionLog`: the LAN listener's logger bound to this connection's client (its address), so
   * that what one client causes spends its log budget (host/logger.ts); the host's own otherwise.
   */
  open(send: (text: string) => void, close: (code: number, reason: string) => void, connectionLog?: Logger): PeerConnection {
    const log = connectionLog ?? this.o.log;
    let table: TableId | null = null;
    let closed = false;
    const rate = new TokenBucket(PEER_LIMITS.burst, PEER_LIMITS.perSecond, this.o.now ?? (() => performance.now()));
    // What `live` holds for this link (compared by identity: a newer link of the same table replaced it).
    let closer: (() => void) | null = null;
    const drop = () => {
      closed = true;
      if (table !== null && closer !== null && this.live.get(table) === closer) this.live.delete(table);
    };
    const refuse = (why: PeerRefusal, code: number, detail: Record<string, unknown> = {}) => {
      this.refused.set(why, (this.refused.get(why) ?? 0) + 1);
      log.warn({ peer: table, refused: why, ...detail }, 'peer link refused');
      drop();
      // A refused hello (4401) says one word on the wire whatever the reason, which only the log
      // keeps: before, a stranger learnt from it which tables this host refuses (not-journalled)
      // before any secret was looked at (a review).
      close(code, code === 4401 ? 'unauthorized' : why);
    };
    return {
      // Earned while in force: one refused, replaced or ended is not kept by the connection guard.
      greeted: () => table !== null && !closed,
      dispose: drop,
      receive: (text, binary) => {
        if (closed) return;
        if (binary) return refuse('binary', 1003);
        if (!rate.take()) return refuse('rate', 1008, { ...PEER_LIMITS });
        if (table === null) {
          const d = decodePeer(PeerHello, text);
          if (!d.ok) return refuse('not-hello', 1008, { error: brief(d.error) });
          const hello = d.message;
          if (hello.protocol !== PEER_PROTOCOL_VERSION) return refuse('wrong-protocol', 1008, { protocol: hello.protocol });
          if (hello.table === this.o.self) return refuse('is-self', 4401, { claimed: hello.table });
          // The files are checked first: a peer added to them while the host runs is refused and raised as a fault, not only let in no further.
          if (this.o.admits?.(hello.table) === false) return refuse('not-journalled', 4401, { claimed: hello.table });
          if (!this.o.credentials.verify(hello.table, hello.secret)) return refuse('wrong-secret', 4401, { claimed: hello.table });
          table = hello.table;
          this.live.get(table)?.();
          closer = () => {
            drop();
            close(4409, 'replaced');
          };
          this.live.set(table, closer);
          const welcome: PeerWelcome = { type: 'peer-welcome', protocol: PEER_PROTOCOL_VERSION, table: this.o.self };
          send(JSON.stringify(welcome));
          log.info({ peer: table }, 'peer table linked in');
          return;
        }
        const d = decodePeer(PeerInbound, text);
        if (!d.ok || d.message.type !== 'transfer') return refuse('malformed', 1008, { error: d.ok ? 'hello again' : brief(d.error) });
        // Checked at every message: a file edited since the hello closes the link before anything of it is journalled.
        if (this.o.admits?.(table) === false) return refuse('not-journalled', 4401);
        this.o.onMessage(table, d.message.message);
      },
    };
  }
}
