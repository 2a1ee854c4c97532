import type { ServerResponse } from 'node:http';
import { raiseAlarm } from '../ingest.js';
import type { Sql } from '../sql.js';
import { audit, type AuditAction } from './audit.js';
import { FloorProjection, type FloorRow } from './floor.js';
import { liveSessions } from './sessions.js';
import { readSettings } from './settings.js';

/** An SSE comment this often keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** The most streams one user may hold open at once, over all their sessions (a few screens each with a tab or two). */
export const MAX_STREAMS_PER_USER = 8;
/** A stream told that its session ended is closed this long after, whether or not its client read the news. */
const GRACE_MS = 2_000;

/** The live floor's pace and its bound per client (tests change them; docs/backoffice.md). */
export interface FloorStreamLimits {
  /** How often every table is looked at and sent again, for a table that went quiet (offline) and its alarm. Default 5 s. */
  sweepMs?: number;
  /**
   * The most a client may leave unsent (bytes the upstream holds for it because it does not
   * read): past it the client is dropped, with an audit entry. Default 4 MiB, some 80 pushes of
   * a floor of 100 tables.
   */
  maxUnsentBytes?: number;
}

/** One open stream: whose session it is, for the re-checks, and from where, for the audit log. */
interface Client {
  res: ServerResponse;
  session: string;
  user: string;
  address: string;
}

export type StreamOwner = Omit<Client, 'res'>;

/** Where the hub says the database went away and came back (the upstream's log; tests give their own). */
export interface HubLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const SILENT: HubLog = { warn: () => {}, info: () => {} };

/**
 * The live floor: Server-Sent Events to every open floor page. The upstream tells it which
 * terminal a batch or heartbeat came from (`touched`); it sends those tables' rows again at once
 * (no timer: what is touched while a send is being read goes in the next, so a busy upstream folds
 * many tables into one update), and every few seconds all of them (a table that stopped talking
 * changes nothing by itself). A table silent past the offline limit raises a `table-offline`
 * alarm, cleared when it is heard again.
 *
 * A stream is only as good as its session: before every push the sessions of the open streams
 * are asked of the database again (signed out, expired, user disabled or given a new password,
 * here or from the command line), and a stream whose session ended is told so (`ended`) and
 * closed. A client that does not read what it is sent is dropped once more than the bound waits
 * for it, so no client grows the upstream's memory.
 */
export class FloorHub {
  readonly projection: FloorProjection;
  private readonly clients = new Map<ServerResponse, Client>();
  private readonly dirty = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private busy = false;
  private readonly limits: Required<FloorStreamLimits>;
  /** Whether the database was away at the last read: its outage is logged once, not per retry, and its return once. */
  private away = false;

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
    limits: FloorStreamLimits = {},
    private readonly log: HubLog = SILENT,
  ) {
    this.projection = new FloorProjection(sql);
    this.limits = { sweepMs: 5_000, maxUnsentBytes: 4 * 1024 * 1024, ...limits };
  }

  start(): void {
    this.timers = [setInterval(() => void this.sweep(), this.limits.sweepMs), setInterval(() => void this.keepAlive(), KEEPALIVE_MS)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    this.timers.forEach(clearInterval);
    for (const c of this.clients.values()) c.res.destroy();
    this.clients.clear();
  }

  /** Ends at once every stream of a session this server ended (its sign-out). */
  sessionEnded(id: string): void {
    for (const c of [...this.clients.values()]) if (c.session === id) this.end(c, 'signed-out');
  }

  /** A batch or heartbeat of `terminalId` was accepted: its row goes to the open pages now. */
  touched(terminalId: string): void {
    this.dirty.add(terminalId);
    void this.flush();
  }

  async rows(only?: readonly string[]): Promise<FloorRow[]> {
    const s = await readSettings(this.sql);
    const rows = await this.projection.rows(s.offlineLimitSeconds * 1000, this.now(), only);
    this.reached();
    return rows;
  }

  /**
   * A read of the hub failed (the database away): logged the first time only, with its error.
   * The sweeps, pushes, keep-alives and streams retry every few seconds; until a review of
   * 7 December each failure was caught in silence, and the floor went still on every page with
   * nothing in the upstream's log.
   */
  private failed(err: unknown, doing: string): void {
    if (this.away) return;
    this.away = true;
    this.log.warn({ err, doing }, 'the live floor cannot read the database: its pages are not updated until it can');
  }

  /** A read of the hub succeeded: the database's return is logged once. */
  private reached(): void {
    if (!this.away) return;
    this.away = false;
    this.log.info({}, 'the live floor reads the database again');
  }

  /** A new stream of a signed-in session: the whole floor first, then the rows that change. */
  async subscribe(res: ServerResponse, owner: StreamOwner): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const client: Client = { res, ...owner };
    this.clients.set(res, client);
    res.on('close', () => this.clients.delete(res));
    this.boundStreamsOf(owner.user);
    let floor: FloorRow[];
    try {
      floor = await this.rows();
    } catch (e) {
      this.failed(e, 'floor.subscribe');
      // The database is away: a stream with no floor is closed, not held open with nothing in it
      // (the page showed an empty floor, as if there were no tables); its page reconnects, and says so.
      if (this.clients.delete(res)) res.end('retry: 2000\n\n');
      setTimeout(() => res.destroy(), GRACE_MS).unref();
      return;
    }
    if (this.clients.has(res)) this.write(client, `retry: 2000\nevent: floor\ndata: ${JSON.stringify(floor)}\n\n`);
  }

  /**
   * At most MAX_STREAMS_PER_USER streams of one user, over all their sessions: past it their oldest
   * is closed (its page reconnects, and closes the then oldest: a user with more tabs than that
   * takes turns), with an audit entry. Without it a signed-in user (or a stolen cookie) opened
   * streams without end, each written the whole floor and held up to the unsent bound (a review of
   * 6 December): a few thousand were gigabytes.
   */
  private boundStreamsOf(user: string): void {
    const theirs = [...this.clients.values()].filter((c) => c.user === user);
    for (const c of theirs.slice(0, Math.max(0, theirs.length - MAX_STREAMS_PER_USER))) {
      this.clients.delete(c.res);
      c.res.end();
      setTimeout(() => c.res.destroy(), GRACE_MS).unref();
      this.note(c, 'floor.stream.dropped', { reason: 'too-many-streams', limit: MAX_STREAMS_PER_USER });
    }
  }

  /** The streams whose session is no longer live are told and closed; the database is asked each time. */
  private async recheck(): Promise<void> {
    const open = [...this.clients.values()];
    if (open.length === 0) return;
    const live = await liveSessions(this.sql, [...new Set(open.map((c) => c.session))], this.now());
    for (const c of open) if (!live.has(c.session)) this.end(c, 'session-ended');
  }

  /** Rows to every stream whose session is still live (asked just before). */
  private async send(rows: FloorRow[]): Promise<void> {
    if (rows.length === 0 || this.clients.size === 0) return;
    await this.recheck();
    const text = `event: rows\ndata: ${JSON.stringify(rows)}\n\n`;
    for (const c of [...this.clients.values()]) this.write(c, text);
  }

  private async keepAlive(): Promise<void> {
    try {
      await this.recheck();
      for (const c of [...this.clients.values()]) this.write(c, ': keep-alive\n\n');
    } catch (e) {
      // The database is away: nothing is sent until a session can be asked about again.
      this.failed(e, 'floor.keep-alive');
    }
  }

  /**
   * One write, unless the client already leaves more than the bound unsent: then it is dropped
   * (its buffer freed, the connection destroyed) and the audit log says who and how much.
   */
  private write(c: Client, text: string): void {
    const unsent = c.res.writableLength;
    if (unsent > this.limits.maxUnsentBytes) {
      this.clients.delete(c.res);
      c.res.destroy();
      this.note(c, 'floor.stream.dropped', { reason: 'not-reading', unsentBytes: unsent, limit: this.limits.maxUnsentBytes });
      return;
    }
    c.res.write(text);
  }

  /** Tells a stream its session ended and closes it; a client that does not read the news is cut off after a grace. */
  private end(c: Client, reason: 'signed-out' | 'session-ended'): void {
    if (!this.clients.delete(c.res)) return;
    c.res.end(`event: ended\ndata: ${JSON.stringify({ reason })}\n\n`);
    setTimeout(() => c.res.destroy(), GRACE_MS).unref();
    this.note(c, 'floor.stream.ended', { reason });
  }

  private note(c: Client, action: AuditAction, detail: Record<string, unknown>): void {
    audit(this.sql, { actor: c.user, address: c.address, action, detail }).catch(() => {
      // The database is away: the stream is closed all the same.
    });
  }

  private async flush(): Promise<void> {
    if (this.busy || this.dirty.size === 0) return;
    this.busy = true;
    const only = [...this.dirty];
    this.dirty.clear();
    let read = false;
    try {
      await this.send(await this.rows(only));
      read = true;
    } catch (e) {
      // The database is away: kept for the next touch or sweep, not retried in a loop.
      this.failed(e, 'floor.push');
      only.forEach((t) => this.dirty.add(t));
    } finally {
      this.busy = false;
    }
    if (read) void this.flush();
  }

  /** Every row again, and the offline alarms raised or cleared. */
  async sweep(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const rows = await this.rows();
      const open = await this.sql.query<{ id: number; terminal_id: string }>(
        "SELECT id, terminal_id FROM alarms WHERE kind = 'table-offline' AND cleared_at IS NULL",
      );
      const alarmed = new Map(open.rows.map((r) => [r.terminal_id, Number(r.id)]));
      let changed = false;
      for (const r of rows) {
        const id = alarmed.get(r.terminalId);
        if (r.state === 'offline' && id === undefined) {
          await raiseAlarm(this.sql, r.terminalId, 'table-offline', { lastSeenAt: r.lastSeenAt });
          changed = true;
        }
        if (r.state !== 'offline' && r.state !== 'revoked' && id !== undefined) {
          await this.sql.query('UPDATE alarms SET cleared_at = now() WHERE id = $1', [id]);
          changed = true;
        }
      }
      await this.send(changed ? await this.rows() : rows);
    } catch (e) {
      // The database is away: the next sweep tries again; /healthz says so meanwhile.
      this.failed(e, 'floor.sweep');
    } finally {
      this.busy = false;
    }
    // What was touched while the sweep read.
    void this.flush();
  }
}
