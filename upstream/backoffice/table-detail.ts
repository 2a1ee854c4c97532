import { KioskHealth } from '../schemas.js';
import { currencyGroup, iso } from '../queries.js';
import { tableTickets } from '../ticket-queries.js';
import type { Sql } from '../sql.js';
import { workedAlarms } from './alarm-acks.js';
import type { FloorProjection } from './floor.js';

/**
 * The meters the page shows per station (backoffice/src/table-page.ts, held equal by
 * tests/security/backoffice-table-meters.test.ts), and all of the table's scope it is answered.
 * The ingest takes any meter name (a newer table's are stored as they come): the page answered
 * every name a table ever sent, and a hostile one's 5,000 names made it over 100 kB on every refresh.
 */
export const TABLE_PAGE_METERS = ['totalIn', 'creditsWagered', 'creditsWon', 'totalOut', 'gamesPlayed', 'handpays'] as const;

/** One table's page: its stations with credit and meters, recent rounds, faults, jackpots, transfers, tickets, alarms. */
export async function tableDetail(sql: Sql, projection: FloorProjection, terminalId: string) {
  const t = await sql.query<{ last_health: unknown; currency: string | null; currency_exponent: number | null }>(
    'SELECT last_health, currency, currency_exponent FROM terminals WHERE terminal_id = $1',
    [terminalId],
  );
  const row = t.rows[0];
  if (!row) return null;
  const health = KioskHealth.safeParse(row.last_health);
  // The table's currencies by seq (migration 13), as the reports read each entry: the page reads an
  // entry or a round in the one in force at its seq, not the table's of now (a review of 6 December).
  const spans = await sql.query<{ from_seq: number; code: string; exponent: number }>(
    'SELECT from_seq, code, exponent FROM currency_spans WHERE terminal_id = $1 ORDER BY from_seq',
    [terminalId],
  );
  const { credits, seqs: creditSeqs } = await projection.stationCredits(terminalId);
  // Per scope, one group per currency the table journalled in (migration 20): HKD never added to MOP.
  // The page's meters only, of any name a table sent.
  const m = await sql.query<{ scope: string; name: string; value: number; code: string; exponent: number }>(
    "SELECT scope, name, value, code, exponent FROM meters WHERE terminal_id = $1 AND name = ANY($2::text[]) ORDER BY scope, code = '', code, exponent, name",
    [terminalId, [...TABLE_PAGE_METERS]],
  );
  const meters = new Map<string, { currency: { code: string; exponent: number } | null; meters: Record<string, number> }[]>();
  for (const x of m.rows) {
    const list = meters.get(x.scope) ?? [];
    const g = currencyGroup(list, x, (currency) => ({ currency, meters: {} }));
    g.meters[x.name] = Number(x.value);
    meters.set(x.scope, list);
  }
  const stationNumbers = new Set([
    ...credits.keys(),
    ...[...meters.keys()].flatMap((s) => (/^station:(\d+)$/.exec(s)?.[1] ? [Number(/^station:(\d+)$/.exec(s)?.[1])] : [])),
  ]);
  const entries = async (types: string[], limit: number) =>
    (
      await sql.query<{ seq: number; type: string; ts: Date; payload: unknown }>(
        `SELECT seq, type, ts, ${SHOWN_AMOUNT} AS payload FROM journal WHERE terminal_id = $1 AND type = ANY($2::text[]) ORDER BY seq DESC LIMIT $3`,
        [terminalId, types, limit],
      )
    ).rows.map((x) => ({ seq: Number(x.seq), type: x.type, ts: iso(x.ts), payload: x.payload }));
  return {
    terminalId,
    health: health.success ? health.data : null,
    /** Every amount on the page is minor units of this (null: the table has not named one yet). */
    currency: row.currency === null ? null : { code: row.currency, exponent: Number(row.currency_exponent) },
    /** Each from `fromSeq` up to the next's: the currency the table held when it journalled an entry. */
    currencies: spans.rows.map((x) => ({ fromSeq: Number(x.from_seq), code: x.code, exponent: Number(x.exponent) })),
    faults: health.success ? (health.data.table?.faults ?? []) : [],
    /** The table's meters, one group per currency (the one held when the entries were journalled). */
    table: meters.get('table') ?? [],
    stations: [...stationNumbers]
      .sort((a, b) => a - b)
      .map((station) => {
        // The credit in the currency of the entry that left it (`creditSeq`), not necessarily the table's of now.
        const creditSeq = creditSeqs.get(station);
        return {
          station,
          credit: credits.get(station) ?? 0,
          ...(creditSeq === undefined ? {} : { creditSeq }),
          meters: meters.get(`station:${station}`) ?? [],
        };
      }),
    rounds: await shownRounds(sql, terminalId, 20),
    jackpots: await entries(['jackpot.settle', 'jackpot.reset'], 20),
    transfers: await entries(['transfer.out', 'transfer.in', 'transfer.complete', 'transfer.reverse', 'transfer.refuse', 'transfer.recall'], 50),
    handpays: await entries(['handpay.request', 'handpay.confirm'], 20),
    tickets: await tableTickets(sql, terminalId),
    alarms: await workedAlarms(sql, { terminal: terminalId, limit: 50 }),
  };
}

/** A jsonb figure as the page shows it: a number of at most 40 characters (the page says ⚠ of one past a safe integer), else SQL NULL. */
const shownNumber = (j: string): string => `CASE WHEN jsonb_typeof(${j}) = 'number' AND length((${j})::text) <= 40 THEN ${j} END`;

/**
 * Of a jackpot's, hand pay's or transfer's entry, what the page shows of its payload: its amount
 * (`amount`, or a transfer's `transfer.amount`). The payload was answered whole, and the ingest
 * checks no field of a `transfer.complete` or a `jackpot.settle`: 30 entries of a 100 kB field
 * made every view of the page 3.2 MB (tests/security/backoffice-table-meters.test.ts).
 */
const SHOWN_AMOUNT = `jsonb_strip_nulls(jsonb_build_object(
  'amount', ${shownNumber("doc->'payload'->'amount'")},
  'transfer', CASE WHEN ${shownNumber("doc->'payload'->'transfer'->'amount'")} IS NOT NULL THEN jsonb_build_object('amount', doc->'payload'->'transfer'->'amount') END))`;

/** The most of a round's cards (as JSON text) the page is answered: a stadium's or a blackjack table's hands are far less. */
const SHOWN_CARDS_TEXT = 16_384;

/**
 * The table's last `limit` rounds as the page shows them: the round's id (at most 100 characters,
 * as the evidence route takes it) and its cards, not the closing entry's payload whole (a void's is
 * checked by no schema at ingest, nor a settlement's cards).
 */
async function shownRounds(sql: Sql, terminalId: string, limit: number) {
  const r = await sql.query<{ seq: number; type: string; ts: Date; round: unknown; credits: unknown }>(
    `SELECT seq, type, ts, doc->'credits' AS credits, jsonb_strip_nulls(jsonb_build_object(
       'roundId', CASE WHEN jsonb_typeof(doc->'payload'->'roundId') = 'string' AND length(doc->'payload'->>'roundId') <= 100 THEN doc->'payload'->'roundId' END,
       'cards', CASE WHEN jsonb_typeof(doc->'payload'->'cards') = 'array' AND length((doc->'payload'->'cards')::text) <= ${SHOWN_CARDS_TEXT} THEN doc->'payload'->'cards' END)) AS round
     FROM journal WHERE terminal_id = $1 AND type IN ('round.settle', 'round.void') ORDER BY seq DESC LIMIT $2`,
    [terminalId, limit],
  );
  return r.rows.map((x) => ({
    seq: Number(x.seq),
    status: x.type === 'round.settle' ? ('settled' as const) : ('void' as const),
    ts: iso(x.ts),
    round: x.round,
    credits: x.credits,
  }));
}
