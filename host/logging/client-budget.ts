/**
 * How many log lines one client (a connection's address before its hello, its view after) may
 * cause: `burst` at once, then `perMinute`. A person's screen causes a handful a day (connected,
 * disconnected, a refusal now and then); a flood causes thousands a second.
 */
export interface ClientBudgetLimits {
  readonly burst: number;
  readonly perMinute: number;
  /** The lines dropped are summed up in one line at most this often (ms). */
  readonly summaryMs: number;
  /** Clients tracked at once; past it, the new ones share one budget (`other clients`). */
  readonly maxClients: number;
  /**
   * All clients that have not said who they are (addresses) together (issue 50): such a line passes
   * its client's budget and this one. Per client
   * alone, 1,000 LAN addresses each spending their own wrote 452 KB in 31 s and rotated the 120 MB
   * of logs away in about 75 minutes.
   */
  readonly total: { readonly burst: number; readonly perMinute: number };
}

/**
 * 20 lines at once, then 10 a minute: a client flooding for ever writes ~4 KB a minute (lines of
 * ~300 bytes, plus its share of the summary), so the 120 MB of logs would last it about three
 * weeks; before this a flooding client wrote 83–196 KB a second and rotated them away in ten minutes.
 * All clients together: 200 at once, then 30 a minute, and the summary of the rest once a minute,
 * so however many addresses flood, their lines take at most ~13 MB a day of the 120 MB
 * (tests/security/log-flood-listener.test.ts measures it) and the kiosk's own lines of the day stay.
 */
export const CLIENT_BUDGET: ClientBudgetLimits = { burst: 20, perMinute: 10, summaryMs: 60_000, maxClients: 1000, total: { burst: 200, perMinute: 30 } };

/** The budget key the clients beyond `maxClients` share. */
export const OTHER_CLIENTS = 'other clients';

/** Messages listed per client in a summary, and clients listed per summary; the rest are counted. */
const LISTED = { messages: 5, clients: 20 } as const;

interface Client {
  tokens: number;
  at: number;
  dropped: number;
  messages: Map<string, number>;
}

export interface DroppedLines {
  client: string;
  dropped: number;
  /** The messages dropped most, with their counts. */
  messages: Record<string, number>;
}

/**
 * A token bucket of log lines per client. `admit` says whether a line may be written, and counts
 * the ones that may not by message; `drain` hands over what was dropped since it was last called.
 */
export class ClientLogBudget {
  private readonly clients = new Map<string, Client>();
  private total: { tokens: number; at: number };

  constructor(
    readonly limits: ClientBudgetLimits = CLIENT_BUDGET,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.total = { tokens: limits.total.burst, at: now() };
  }

  /**
   * Whether a line of `client` with message `msg` may be written now; false counts it as dropped.
   * `known`: a client that proved who it is (a launch token, a station's credential) spends its own
   * budget only; every other (an address) spends the total too.
   */
  admit(client: string, msg: string, known = false): boolean {
    const c = this.client(client);
    const now = this.now();
    c.tokens = Math.min(this.limits.burst, c.tokens + (Math.max(0, now - c.at) * this.limits.perMinute) / 60_000);
    c.at = now;
    const all = this.total;
    all.tokens = Math.min(this.limits.total.burst, all.tokens + (Math.max(0, now - all.at) * this.limits.total.perMinute) / 60_000);
    all.at = now;
    if (c.tokens >= 1 && (known || all.tokens >= 1)) {
      c.tokens -= 1;
      if (!known) all.tokens -= 1;
      return true;
    }
    c.dropped++;
    c.messages.set(msg, (c.messages.get(msg) ?? 0) + 1);
    return false;
  }

  /** The lines dropped since the last call, the most dropped first; clients back at a full budget are forgotten. */
  drain(): { clients: DroppedLines[]; total: number; unlisted: number } {
    const now = this.now();
    const out: DroppedLines[] = [];
    for (const [client, c] of this.clients) {
      if (c.dropped > 0) {
        const messages = Object.fromEntries([...c.messages].sort((a, b) => b[1] - a[1]).slice(0, LISTED.messages));
        out.push({ client, dropped: c.dropped, messages });
        c.dropped = 0;
        c.messages.clear();
      } else if (c.tokens + ((now - c.at) * this.limits.perMinute) / 60_000 >= this.limits.burst) this.clients.delete(client);
    }
    out.sort((a, b) => b.dropped - a.dropped);
    const total = out.reduce((n, x) => n + x.dropped, 0);
    const listed = out.slice(0, LISTED.clients);
    return { clients: listed, total, unlisted: total - listed.reduce((n, x) => n + x.dropped, 0) };
  }

  private client(key: string): Client {
    let c = this.clients.get(key);
    if (c) return c;
    if (this.clients.size >= this.limits.maxClients) {
      const other = this.clients.get(OTHER_CLIENTS);
      if (other) return other;
      key = OTHER_CLIENTS;
    }
    c = { tokens: this.limits.burst, at: this.now(), dropped: 0, messages: new Map() };
    this.clients.set(key, c);
    return c;
  }
}
