import type { Sql } from '../sql.js';
import { ANSWERS } from './config-requests.js';
import { KioskHealth } from '../schemas.js';
import type { TableCurrency } from '../table-currency.js';
import { MAX_TABLE_STATIONS } from '../../terms/stations.js';
import { isCreditTriple } from '../ingest/report-fields.js';

/** What the floor shows of one table host, derived from what the upstream ingests. */
export interface FloorRow {
  terminalId: string;
  tableId: string | null;
  game: string | null;
  /** The table's currency as the upstream holds it (its heartbeat's); null until it reported one. */
  currency: TableCurrency | null;
  /** The rule profile of the table's last settled round (`round.settle`'s `profile`). */
  profile: string | null;
  /**
   * The table's last settled round as its journal says: the round's id and when the table
   * journalled its settlement (the table's own clock). How the floor shows that a round happened,
   * and how a test measures how long after the round the floor showed it.
   */
  lastRound: { roundId: string; at: string } | null;
  /** The table's phase from its heartbeat, or `offline` when it has not been heard from within the limit, `revoked` when its key is. */
  state: string;
  hold: boolean;
  /** The kinds of the table's current faults, each once (the table's page lists them where they are: a station's fault at each station). */
  faults: string[];
  /** Stations with credit on their meter, of those the journal has seen. */
  occupied: number;
  stations: number;
  lastSeenAt: string | null;
  /** Entries the kiosk still has to send, and how old the oldest is, as its last heartbeat said. */
  lagEntries: number | null;
  lagSeconds: number | null;
  headSeq: number;
  openAlarms: number;
  /** Open alarms nobody has acknowledged yet. */
  unacknowledged: number;
  /**
   * Configuration changes approved in the back office that the table's journal has not answered
   * yet (neither made nor refused): waiting to be fetched, or for the next shoe.
   */
  configWaiting: number;
}

/** What the journal told of a terminal so far, read on from `seq` at each change (never from the start again). */
interface Seen {
  seq: number;
  profile: string | null;
  lastRound: { roundId: string; at: string } | null;
  credits: Map<number, number>;
  /** The seq of the entry that last left each station's credit: its currency is the one held there (currency_spans). */
  creditSeqs: Map<number, number>;
}

/**
 * An entry's credits as a ledger writes them: the ingest refuses any other (report-fields.ts), and
 * of a row stored before it did, only the triples of a station a table may have are read. So a
 * table's map holds at most MAX_TABLE_STATIONS stations: any number used to be a station, and 60,000
 * fractional ones an entry grew the service's memory for good.
 */
const Credits = (v: unknown): [number, number, number][] => (Array.isArray(v) ? v.slice(0, MAX_TABLE_STATIONS).filter(isCreditTriple) : []);

/**
 * The floor's rows. Each terminal's stations and profile are read from the journal incrementally
 * (only entries past the last one read), so an update after a round costs that round's entries.
 */
export class FloorProjection {
  private readonly seen = new Map<string, Seen>();
  /** Each table's read under way, which the next read of it waits for. */
  private readonly reading = new Map<string, Promise<Seen>>();
  constructor(private readonly sql: Sql) {}

  /**
   * One read of a table at a time: two at once (the floor's push and a table's page) went to the
   * database apart, and on PostgreSQL's pool of connections could be answered out of order; the
   * older answer, applied last, put the table's stations, last round and seq read back as they were.
   */
  private catchUp(terminalId: string): Promise<Seen> {
    const before = this.reading.get(terminalId);
    const read = (before ?? Promise.resolve()).then(
      () => this.readOn(terminalId),
      () => this.readOn(terminalId),
    );
    this.reading.set(terminalId, read);
    const forget = () => {
      if (this.reading.get(terminalId) === read) this.reading.delete(terminalId);
    };
    void read.then(forget, forget);
    return read;
  }

  private async readOn(terminalId: string): Promise<Seen> {
    const s = this.seen.get(terminalId) ?? {
      seq: 0,
      profile: null,
      lastRound: null,
      credits: new Map<number, number>(),
      creditSeqs: new Map<number, number>(),
    };
    const r = await this.sql.query<{ seq: number; type: string; profile: string | null; round_id: string | null; ts: Date; credits: unknown }>(
      `SELECT seq, type, doc->'payload'->>'profile' AS profile, doc->'payload'->>'roundId' AS round_id, ts, doc->'credits' AS credits FROM journal
       WHERE terminal_id = $1 AND seq > $2 AND (doc ? 'credits' OR type = 'round.settle') ORDER BY seq`,
      [terminalId, s.seq],
    );
    for (const row of r.rows) {
      if (row.type === 'round.settle' && row.profile) s.profile = row.profile;
      if (row.type === 'round.settle' && row.round_id) s.lastRound = { roundId: row.round_id, at: new Date(row.ts).toISOString() };
      for (const [station, , after] of Credits(row.credits)) {
        s.credits.set(station, after);
        s.creditSeqs.set(station, Number(row.seq));
      }
      s.seq = Number(row.seq);
    }
    this.seen.set(terminalId, s);
    return s;
  }

  /** The rows of `only` (or every terminal), in terminal order. */
  async rows(offlineAfterMs: number, now: number, only?: readonly string[]): Promise<FloorRow[]> {
    const t = await this.sql.query<{
      terminal_id: string;
      revoked: boolean;
      seq: number;
      last_seen_at: Date | null;
      last_health: unknown;
      currency: string | null;
      currency_exponent: number | null;
    }>(
      `SELECT t.terminal_id, t.revoked_at IS NOT NULL AS revoked, h.seq, t.last_seen_at, t.last_health, t.currency, t.currency_exponent
       FROM terminals t JOIN heads h USING (terminal_id) WHERE ($1::text[] IS NULL OR t.terminal_id = ANY($1::text[])) ORDER BY t.terminal_id`,
      [only ? [...only] : null],
    );
    const a = await this.sql.query<{ terminal_id: string; open: number; unacked: number }>(
      `SELECT terminal_id, COUNT(*)::int AS open, COUNT(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM alarm_acks k WHERE k.alarm_id = a.id))::int AS unacked
       FROM alarms a WHERE cleared_at IS NULL AND terminal_id IS NOT NULL GROUP BY terminal_id`,
    );
    const alarms = new Map(a.rows.map((x) => [x.terminal_id, x]));
    // The same answer as the requests' list (config-requests.ts): a journalled change or refusal naming the order.
    const c = await this.sql.query<{ terminal_id: string; waiting: number }>(
      `SELECT r.terminal_id, COUNT(*)::int AS waiting FROM config_requests r
       JOIN config_request_steps s ON s.request_id = r.id AND s.step = 'approved'
       LEFT JOIN config_request_steps d ON d.request_id = r.id AND d.step = 'delivered'
       WHERE NOT EXISTS (SELECT 1 FROM journal j WHERE ${ANSWERS})
       GROUP BY r.terminal_id`,
    );
    const waiting = new Map(c.rows.map((x) => [x.terminal_id, x.waiting]));
    const out: FloorRow[] = [];
    for (const x of t.rows) {
      const seen = await this.catchUp(x.terminal_id);
      const parsed = KioskHealth.safeParse(x.last_health);
      const health = parsed.success ? parsed.data : undefined;
      const lastSeen = x.last_seen_at === null ? null : new Date(x.last_seen_at);
      const offline = lastSeen === null || now - lastSeen.getTime() > offlineAfterMs;
      const sync = health?.sync && health.sync !== 'off' ? health.sync : undefined;
      const credits = [...seen.credits.values()];
      out.push({
        terminalId: x.terminal_id,
        tableId: health?.tableId ?? null,
        game: health?.game ?? null,
        currency: x.currency === null ? null : { code: x.currency, exponent: Number(x.currency_exponent) },
        profile: seen.profile,
        lastRound: seen.lastRound,
        state: x.revoked ? 'revoked' : offline ? 'offline' : (health?.table?.phase ?? 'unknown'),
        hold: Boolean(health?.table?.hold),
        faults: [...new Set(health?.table?.faults)],
        occupied: credits.filter((c) => c > 0).length,
        stations: credits.length,
        lastSeenAt: lastSeen?.toISOString() ?? null,
        lagEntries: sync?.lagEntries ?? null,
        lagSeconds: sync?.lagSeconds ?? null,
        headSeq: Number(x.seq),
        openAlarms: alarms.get(x.terminal_id)?.open ?? 0,
        unacknowledged: alarms.get(x.terminal_id)?.unacked ?? 0,
        configWaiting: waiting.get(x.terminal_id) ?? 0,
      });
    }
    return out;
  }

  /** Each station's credit as the journal last left it, and the seq of the entry that did. */
  async stationCredits(terminalId: string): Promise<{ credits: ReadonlyMap<number, number>; seqs: ReadonlyMap<number, number> }> {
    const s = await this.catchUp(terminalId);
    return { credits: s.credits, seqs: s.creditSeqs };
  }
}
