import type { ServerResponse } from 'node:http';
import { raiseAlarm } from '../ingest.js';
import type { Sql } from '../sql.js';
import { FloorProjection, type FloorRow } from './floor.js';
import { readSettings } from './settings.js';

/** How often every table is looked at again, for a table that went quiet (offline) and its alarm. */
const SWEEP_MS = 5_000;
/** An SSE comment this often keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

/**
 * The live floor: Server-Sent Events to every open floor page. The upstream tells it which
 * terminal a batch or heartbeat came from (`touched`); it sends those tables' rows again at once
 * (no timer: what is touched while a send is being read goes in the next, so a busy upstream folds
 * many tables into one update), and every few seconds all of them (a table that stopped talking
 * changes nothing by itself). A table silent past the offline limit raises a `table-offline`
 * alarm, cleared when it is heard again.
 */
export class FloorHub {
  readonly projection: FloorProjection;
  private readonly clients = new Set<ServerResponse>();
  private readonly dirty = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private busy = false;

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {
    this.projection = new FloorProjection(sql);
  }

  start(): void {
    this.timers = [setInterval(() => void this.sweep(), SWEEP_MS), setInterval(() => this.clients.forEach((c) => c.write(': keep-alive\n\n')), KEEPALIVE_MS)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    this.timers.forEach(clearInterval);
    for (const c of this.clients) c.end();
    this.clients.clear();
  }

  /** A batch or heartbeat of `terminalId` was accepted: its row goes to the open pages now. */
  touched(terminalId: string): void {
    this.dirty.add(terminalId);
    void this.flush();
  }

  async rows(only?: readonly string[]): Promise<FloorRow[]> {
    const s = await readSettings(this.sql);
    return this.projection.rows(s.offlineLimitSeconds * 1000, this.now(), only);
  }

  /** A new stream: the whole floor first, then the rows that change. */
  async subscribe(res: ServerResponse): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
    res.write(`retry: 2000\nevent: floor\ndata: ${JSON.stringify(await this.rows())}\n\n`);
  }

  private send(rows: FloorRow[]): void {
    if (rows.length === 0 || this.clients.size === 0) return;
    const text = `event: rows\ndata: ${JSON.stringify(rows)}\n\n`;
    for (const c of this.clients) c.write(text);
  }

  private async flush(): Promise<void> {
    if (this.busy || this.dirty.size === 0) return;
    this.busy = true;
    const only = [...this.dirty];
    this.dirty.clear();
    let read = false;
    try {
      this.send(await this.rows(only));
      read = true;
    } catch {
      // The database is away: kept for the next touch or sweep, not retried in a loop.
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
      this.send(changed ? await this.rows() : rows);
    } catch {
      // The database is away: the next sweep tries again; /healthz says so meanwhile.
    } finally {
      this.busy = false;
    }
    // What was touched while the sweep read.
    void this.flush();
  }
}
