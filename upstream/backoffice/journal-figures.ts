// The journal's figures as the reports read them in SQL, each read so that a row that does not
// hold one counts for nothing rather than failing the query. Ingest refuses such a body today
// (upstream/ingest/report-fields.ts); an upstream of an earlier version stored them, and a report
// that fails on one row fails for every table of its gaming day, for good. Sums are numeric, never
// cast to bigint: a total past bigint's range would fail the report the same way.
import { MAX_REMOTE_STATIONS, REMOTE_STATION_BASE, SEATED_STATIONS } from '../../terms/stations.js';

/**
 * The integer a jsonb value holds, as numeric; NULL when it holds none. As the ingest read it:
 * JSON.parse makes `5000.0` (or `5000.00000000000001`) the integer 5000, which the ingest took
 * (report-fields.ts) and added to the table's meters, where jsonb keeps the digits as written. Read
 * only as digits alone, such a figure counted for nothing in the report and plots while the meters
 * held it (a review of 6 December). Digits with a fraction are read as the double JSON.parse makes
 * of them, an integer or nothing (through bigint, which takes a double exactly where numeric keeps
 * only 15 digits of it); a text longer than that (past a double's range) is never cast.
 */
export const intOf = (jsonb: string): string =>
  `(CASE WHEN jsonb_typeof(${jsonb}) <> 'number' THEN NULL
     WHEN (${jsonb})::text ~ '^-?[0-9]{1,16}$' THEN (${jsonb})::text::numeric
     WHEN (${jsonb})::text ~ '^-?[0-9]{1,16}[.][0-9]{1,32}$' THEN
       (CASE WHEN (${jsonb})::text::float8 = trunc((${jsonb})::text::float8) THEN (${jsonb})::text::float8::bigint::numeric END) END)`;

/** A station's number (1–9999) a jsonb value holds; NULL when it holds none. */
export const stationOf = (jsonb: string): string => `(CASE WHEN ${intOf(jsonb)} BETWEEN 0 AND 9999 THEN ${intOf(jsonb)}::int END)`;

/** Of an SQL integer: whether it numbers a station some table may have (terms/stations.ts, isTableStation). */
const stationNumberFits = (n: string): string =>
  `(${n} BETWEEN 1 AND ${SEATED_STATIONS} OR ${n} BETWEEN ${REMOTE_STATION_BASE + 1} AND ${REMOTE_STATION_BASE + MAX_REMOTE_STATIONS})`;

/**
 * Of a jsonb value: whether it names a station some table may have, seated 1–7 or remote 101–2100
 * (terms/stations.ts, as the ingest holds a transfer's station to it: upstream/ingest/report-fields.ts).
 * The report has a line per station a transfer names: an earlier upstream stored any of 1–9999, so
 * one table could add thousands of "station:N" lines to every report of its day.
 */
export const tableStationFits = (jsonb: string): string => stationNumberFits(intOf(jsonb));

/**
 * Of a `handpay.request`'s payload `p`: whether it holds what a ledger writes there (ledger/entries.ts):
 * a station some table may have (1–7, 101–2100) and a positive safe amount. An earlier upstream stored any, and
 * the report subtracts the amount from the win: a negative one raised it, one past 2^53 failed the
 * page's schema for every table of the day.
 */
export const handpayFits = (p: string): string =>
  `(${tableStationFits(`${p}->'station'`)} AND ${intOf(`${p}->'amount'`)} BETWEEN 1 AND ${Number.MAX_SAFE_INTEGER})`;

/** The elements of a jsonb array, none when it is not one (for `jsonb_array_elements`). */
export const arrayOf = (jsonb: string): string => `(CASE WHEN jsonb_typeof(${jsonb}) = 'array' THEN ${jsonb} ELSE '[]'::jsonb END)`;

/**
 * Of a meter triple `m`: whether its scope is one a ledger writes, `table` or `station:N` (N a
 * station some table may have, terms/stations.ts, MeterScope); an earlier upstream stored any, and
 * the report has a line per scope.
 */
export const meterScopeFits = (m: string): string =>
  `(CASE WHEN ${m}->>0 ~ '^station:[1-9][0-9]{0,3}$' THEN ${stationNumberFits(`substr(${m}->>0, 9)::int`)} ELSE ${m}->>0 = 'table' END)`;

/** Of a meter triple `m`: whether it is [text, text, integer]. */
export const meterFits = (m: string): string =>
  `(jsonb_typeof(${m}) = 'array' AND jsonb_typeof(${m}->0) = 'string' AND jsonb_typeof(${m}->1) = 'string' AND ${intOf(`${m}->2`)} IS NOT NULL)`;
