import { z } from 'zod';
import { chainHash, genesisHash, sha256Hex } from './chain.js';
import { KioskHealth, METERS_PAGE_MAX } from './schemas.js';

export { METERS_PAGE_MAX };
import type { Sql } from './sql.js';

export interface ChainReport {
  terminalId: string;
  ok: boolean;
  entries: number;
  headSeq: number;
  headHash: string;
  /** Sequences missing between 1 and the head (should never happen: ingest refuses gaps). */
  gaps: { from: number; to: number }[];
  problems: string[];
}

/** Re-hashes a terminal's whole stored chain from genesis, page by page, and checks the head row. */
export async function verifyChain(sql: Sql, terminalId: string, pageSize = 5000): Promise<ChainReport> {
  const problems: string[] = [];
  let prev = genesisHash(terminalId);
  let expected = 1;
  let entries = 0;
  const gaps: { from: number; to: number }[] = [];
  for (;;) {
    const page = await sql.query<{ seq: number; content_hash: string; prev_hash: string; hash: string; body: string }>(
      'SELECT seq, content_hash, prev_hash, hash, body FROM journal WHERE terminal_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
      [terminalId, expected, pageSize],
    );
    for (const r of page.rows) {
      if (r.seq !== expected) {
        gaps.push({ from: expected, to: r.seq - 1 });
        problems.push(`gap: ${expected}..${r.seq - 1} missing`);
      }
      if (sha256Hex(r.body) !== r.content_hash) problems.push(`seq ${r.seq}: content hash does not match the body`);
      if (r.prev_hash !== prev && r.seq === expected) problems.push(`seq ${r.seq}: prev_hash does not link`);
      if (chainHash(r.prev_hash, r.content_hash) !== r.hash) problems.push(`seq ${r.seq}: hash does not chain`);
      prev = r.hash;
      expected = r.seq + 1;
      entries++;
      if (problems.length > 100) break;
    }
    if (page.rows.length < pageSize || problems.length > 100) break;
  }
  const head = (await sql.query<{ seq: number; hash: string }>('SELECT seq, hash FROM heads WHERE terminal_id = $1', [terminalId])).rows[0];
  if (!head) problems.push('no head row (terminal not enrolled)');
  else if (head.seq !== expected - 1 || (head.seq > 0 && head.hash !== prev)) problems.push(`head row says ${head.seq}, the journal ends at ${expected - 1}`);
  return { terminalId, ok: problems.length === 0, entries, headSeq: head?.seq ?? 0, headHash: head?.hash ?? '', gaps, problems };
}

/** Missing sequence ranges by SQL alone (cheap enough to poll). */
export async function findGaps(sql: Sql, terminalId: string): Promise<{ from: number; to: number }[]> {
  const r = await sql.query<{ from: number; to: number }>(
    `SELECT prev + 1 AS "from", seq - 1 AS "to" FROM (
       SELECT seq, COALESCE(lag(seq) OVER (ORDER BY seq), 0) AS prev FROM journal WHERE terminal_id = $1
     ) s WHERE seq > prev + 1 ORDER BY seq`,
    [terminalId],
  );
  return r.rows;
}

/** Timestamps leave the service as ISO 8601 instants (pg and PGlite both hand back Dates). */
export function iso(v: Date | string): string {
  return new Date(v).toISOString();
}
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

/**
 * A stored health snapshot, or null for one over the heartbeat's bounds (`KioskHealth`): stored
 * before they were set, it would fail the terminals list's schema (a 500 for every terminal) and
 * give the metrics a label per made-up fault.
 */
function withinBounds(health: Record<string, unknown> | null): Record<string, unknown> | null {
  return KioskHealth.safeParse(health).success ? health : null;
}

export async function listTerminals(sql: Sql) {
  const r = await sql.query<{
    terminal_id: string;
    enrolled_at: Date;
    revoked_at: Date | null;
    seq: number;
    hash: string;
    updated_at: Date;
    last_seen_at: Date | null;
    last_health: Record<string, unknown> | null;
  }>(
    `SELECT t.terminal_id, t.enrolled_at, t.revoked_at, h.seq, h.hash, h.updated_at, t.last_seen_at, t.last_health
     FROM terminals t JOIN heads h USING (terminal_id) ORDER BY t.terminal_id`,
  );
  return r.rows.map((x) => ({
    terminalId: x.terminal_id,
    enrolledAt: iso(x.enrolled_at),
    revokedAt: isoOrNull(x.revoked_at),
    headSeq: x.seq,
    headHash: x.hash,
    lastIngestAt: iso(x.updated_at),
    lastSeenAt: isoOrNull(x.last_seen_at),
    health: withinBounds(x.last_health),
  }));
}

/**
 * The most of the journal's text (entries' bodies, in bytes) one answer of the entries or rounds
 * route holds; the first entry always, whatever its size (at most 1,000,000 characters: schemas.ts).
 * The routes answered up to 5,000 bodies and 500 rounds' payloads whole, and a table's entries may
 * each be a megabyte of fields the ingest does not read: one query read gigabytes into the
 * upstream's one process (tests/security/upstream-query-answer-size.test.ts). The entries route is
 * paged on from the last seq answered, which a page shorter than its limit does not end.
 */
export const ANSWER_TEXT_BUDGET = 16 * 1024 * 1024;

/**
 * The seqs of at most `limit` rows of `where` in `order`, while the bodies before each hold less
 * than ANSWER_TEXT_BUDGET bytes: their sizes are summed before any body is read out.
 */
const withinBudget = (where: string, order: 'ASC' | 'DESC', limit: string) =>
  `SELECT seq FROM (SELECT seq, SUM(n) OVER (ORDER BY seq ${order}) - n AS before
     FROM (SELECT seq, octet_length(body) AS n FROM journal WHERE ${where} ORDER BY seq ${order} LIMIT ${limit}) l) w
   WHERE before < ${ANSWER_TEXT_BUDGET}`;

export async function entries(sql: Sql, terminalId: string, from: number, limit: number, type?: string) {
  const r = await sql.query<{ seq: number; type: string; tx_id: string | null; ts: Date; hash: string; prev_hash: string; body: string; received_at: Date }>(
    `SELECT seq, type, tx_id, ts, hash, prev_hash, body, received_at FROM journal
     WHERE terminal_id = $1 AND seq IN (${withinBudget('terminal_id = $1 AND seq >= $2 AND ($4::text IS NULL OR type = $4)', 'ASC', '$3')})
     ORDER BY seq`,
    [terminalId, from, limit, type ?? null],
  );
  return r.rows.map((x) => ({
    seq: x.seq,
    type: x.type,
    txId: x.tx_id,
    ts: iso(x.ts),
    hash: x.hash,
    prevHash: x.prev_hash,
    body: x.body,
    receivedAt: iso(x.received_at),
  }));
}

/**
 * A currency as the meters projection keys it (migration 20): `''` and −1 when the table had named
 * none when it journalled the entries.
 */
export const meterCurrency = (x: { code: string; exponent: number }): { code: string; exponent: number } | null =>
  x.code === '' ? null : { code: x.code, exponent: Number(x.exponent) };

/**
 * The group of `row`'s currency in `list` (`meterCurrency`), added at its end by `fresh` when the
 * list has none yet: one group per currency a table journalled in, so HKD is never added to MOP
 * (the table's page and /metrics group their rows so).
 */
export function currencyGroup<G extends { currency: { code: string; exponent: number } | null }>(
  list: G[],
  row: { code: string; exponent: number },
  fresh: (currency: G['currency']) => G,
): G {
  const currency = meterCurrency(row);
  const found = list.find((g) => g.currency?.code === currency?.code && g.currency?.exponent === currency?.exponent);
  if (found) return found;
  const g = fresh(currency);
  list.push(g);
  return g;
}

/** Where a page of meters goes on from: the last row answered, by the order the rows are answered in. */
export interface MeterCursor {
  scope: string;
  name: string;
  code: string;
  exponent: number;
}

const CursorFields = z.tuple([z.string().max(1024), z.string().max(1024), z.string().max(16), z.number().int().min(-1).max(99)]);

/** A cursor as the route writes it in the next page's address: opaque to the reader (base64url of its fields). */
export const writeMeterCursor = (c: MeterCursor): string => Buffer.from(JSON.stringify([c.scope, c.name, c.code, c.exponent])).toString('base64url');

/** A cursor the route wrote, or null for any other text (never trusted: it comes back from the reader). */
export function readMeterCursor(text: string): MeterCursor | null {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(text)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const r = CursorFields.safeParse(fields);
  return r.success ? { scope: r.data[0], name: r.data[1], code: r.data[2], exponent: r.data[3] } : null;
}

/**
 * SQL: a page of a table's meters ($1 the table, $2 a scope or null, $3…$6 the cursor's fields or
 * null, $7 the most rows), in the order of METERS_PAGE_INDEX_SQL.
 */
export const METERS_PAGE_SQL = `SELECT scope, name, value, code, exponent FROM meters WHERE terminal_id = $1 AND ($2::text IS NULL OR scope = $2)
   AND ($3::text IS NULL OR (scope, name, code = '', code, exponent) > ($3::text, $4::text, $5::text = '', $5::text, $6::int))
 ORDER BY scope, name, code = '', code, exponent LIMIT $7`;

/**
 * Migration 21: the meters in the order a page reads them. The projection's key is (terminal_id,
 * code, exponent, scope, name), in no page's order: each page read every row of its table and
 * sorted them (a stadium's 80,000: 0.2 s a page, and the pages of a table's whole projection the
 * square of its rows).
 */
export const METERS_PAGE_INDEX_SQL = `CREATE INDEX meters_page ON meters (terminal_id, scope, name, (code = ''), code, exponent);`;

/**
 * The table's meters, one row per scope, name and currency (the one it held when it journalled
 * them): MOP is never added to HKD. At most `limit` rows, after `after` (a row of an earlier page)
 * in the same order; `next` is the cursor of the last row when the page is full.
 */
export async function meters(sql: Sql, terminalId: string, scope?: string, page: { after?: MeterCursor; limit?: number } = {}) {
  const a = page.after;
  const r = await sql.query<{ scope: string; name: string; value: number; code: string; exponent: number }>(METERS_PAGE_SQL, [
    terminalId,
    scope ?? null,
    a?.scope ?? null,
    a?.name ?? null,
    a?.code ?? null,
    a?.exponent ?? null,
    page.limit ?? null,
  ]);
  return r.rows.map((x) => ({ scope: x.scope, name: x.name, value: x.value, currency: meterCurrency(x) }));
}

/** A page of meters and the cursor of its last row when the page is full (there may be more). */
export async function metersPage(sql: Sql, terminalId: string, scope: string | undefined, after: MeterCursor | undefined, limit: number) {
  const rows = await meters(sql, terminalId, scope, { ...(after ? { after } : {}), limit });
  const last = rows.at(-1);
  const next: MeterCursor | undefined =
    rows.length === limit && last
      ? { scope: last.scope, name: last.name, code: last.currency?.code ?? '', exponent: last.currency?.exponent ?? -1 }
      : undefined;
  return { rows, next };
}

/** Settled and voided rounds, newest first, with the round's payload as the kiosk journalled it (within ANSWER_TEXT_BUDGET). */
export async function rounds(sql: Sql, terminalId: string, limit: number) {
  const r = await sql.query<{ seq: number; type: string; ts: Date; payload: unknown; credits: unknown }>(
    `SELECT seq, type, ts, doc->'payload' AS payload, doc->'credits' AS credits FROM journal
     WHERE terminal_id = $1 AND seq IN (${withinBudget("terminal_id = $1 AND type IN ('round.settle', 'round.void')", 'DESC', '$2')})
     ORDER BY seq DESC`,
    [terminalId, limit],
  );
  return r.rows.map((x) => ({
    seq: x.seq,
    status: x.type === 'round.settle' ? ('settled' as const) : ('void' as const),
    ts: iso(x.ts),
    round: x.payload,
    credits: x.credits,
  }));
}

/** Alarms newest first, at most `limit`, older than the id `before` when given (the last of the page before). */
export async function alarms(sql: Sql, terminalId?: string, limit = 100, before?: number) {
  const r = await sql.query<{ id: number; terminal_id: string | null; kind: string; detail: unknown; raised_at: Date; cleared_at: Date | null }>(
    `SELECT id, terminal_id, kind, detail, raised_at, cleared_at FROM alarms
     WHERE ($1::text IS NULL OR terminal_id = $1) AND ($3::bigint IS NULL OR id < $3) ORDER BY id DESC LIMIT $2`,
    [terminalId ?? null, limit, before ?? null],
  );
  return r.rows.map((x) => ({
    id: x.id,
    terminalId: x.terminal_id,
    kind: x.kind,
    detail: x.detail,
    raisedAt: iso(x.raised_at),
    clearedAt: isoOrNull(x.cleared_at),
  }));
}

/**
 * What the metrics endpoint reads per terminal: its table meters named `names` (those it counts;
 * a table may name any number of others, and every scrape read them all), head, last contact and
 * last health.
 */
export async function terminalFigures(sql: Sql, names: readonly string[]) {
  const t = await sql.query<{
    terminal_id: string;
    seq: number;
    updated_at: Date;
    last_seen_at: Date | null;
    last_health: Record<string, unknown> | null;
    revoked: boolean;
  }>(
    `SELECT t.terminal_id, h.seq, h.updated_at, t.last_seen_at, t.last_health, t.revoked_at IS NOT NULL AS revoked
     FROM terminals t JOIN heads h USING (terminal_id) ORDER BY t.terminal_id`,
  );
  // A counter's value is never below zero, and read as a JS number it must be exact: a table's meter
  // that is neither (the table's deltas are its word) is left out and counted, not given to
  // prom-client, whose refusal of a negative one failed the whole floor's scrape (a review of 4 December).
  // One group per currency the table journalled in (migration 20): a counter never adds HKD to MOP.
  const m = await sql.query<{ terminal_id: string; code: string; exponent: number; name: string; value: number; fits: boolean }>(
    `SELECT terminal_id, code, exponent, name, value, value BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER} AS fits FROM meters WHERE scope = 'table' AND name = ANY($1::text[])
     ORDER BY terminal_id, code = '', code, exponent, name`,
    [[...names]],
  );
  const groups = new Map<string, MeterGroup[]>();
  for (const r of m.rows) {
    const list = groups.get(r.terminal_id) ?? [];
    const g = currencyGroup<MeterGroup>(list, r, (currency) => ({ currency, values: {}, unreadable: [] }));
    if (r.fits) g.values[r.name] = r.value;
    else g.unreadable.push(r.name);
    groups.set(r.terminal_id, list);
  }
  return t.rows.map((r) => ({
    terminalId: r.terminal_id,
    headSeq: r.seq,
    lastIngestAt: new Date(r.updated_at),
    lastSeenAt: r.last_seen_at === null ? null : new Date(r.last_seen_at),
    health: withinBounds(r.last_health),
    revoked: r.revoked,
    /** Its table meters per currency; in each, the names left out of `values` (below zero or past a safe integer) in `unreadable`. */
    meters: groups.get(r.terminal_id) ?? [],
  }));
}

/** A table's meters in one currency (null: none named when they were journalled). */
export interface MeterGroup {
  currency: { code: string; exponent: number } | null;
  values: Record<string, number>;
  unreadable: string[];
}

/** Alarms raised and not cleared, by kind. */
export async function openAlarms(sql: Sql): Promise<{ kind: string; n: number }[]> {
  const r = await sql.query<{ kind: string; n: number }>('SELECT kind, COUNT(*)::int AS n FROM alarms WHERE cleared_at IS NULL GROUP BY kind ORDER BY kind');
  return r.rows;
}

/** A terminal's acknowledged head (what ingest would answer), for a refused replay. */
export async function head(sql: Sql, terminalId: string): Promise<{ ackedSeq: number; headHash: string }> {
  const r = (await sql.query<{ seq: number; hash: string }>('SELECT seq, hash FROM heads WHERE terminal_id = $1', [terminalId])).rows[0];
  return { ackedSeq: Number(r?.seq ?? 0), headHash: r?.hash ?? '' };
}
