import { z } from 'zod';
import { TERMINAL_ID } from './auth.js';
import { HEX64 } from './chain.js';
import { HeartbeatCurrency } from './currency-exponent.js';

// Every route's querystring, parameters, body and answers as zod schemas: Fastify validates and
// serialises with them (fastify-type-provider-zod) and the OpenAPI document is generated from them
// (GET /openapi.json). The kiosk's sync client checks the answers it reads against its own copy
// of the wire contract (ledger/wire.ts), since it may not import this layer.

const Seq = z.number().int().nonnegative();
const Hex64 = z.string().regex(HEX64);
const TerminalId = z.string().regex(TERMINAL_ID);
/** Timestamps leave the service as ISO 8601 instants. */
const Instant = z.iso.datetime({ offset: true });

export const ErrorBody = z.looseObject({ error: z.string(), message: z.string().optional() }).meta({ id: 'Error' });

export const IngestBody = z
  .strictObject({
    terminalId: TerminalId,
    prevHash: Hex64,
    entries: z
      .array(z.strictObject({ seq: z.number().int().min(1), hash: Hex64, body: z.string().min(2).max(1_000_000) }))
      .min(1)
      .max(5000),
  })
  .meta({ id: 'IngestBatch' });

/** The service's signature over the head it holds of the terminal (upstream/receipts.ts). */
export const Receipt = z
  .strictObject({ seq: Seq, hash: Hex64, at: Instant, signature: z.string().max(200) })
  .meta({ id: 'Receipt', description: 'Ed25519 over "macau-etg-upstream receipt v1\\n" terminal "\\n" seq "\\n" hash "\\n" at, base64' });

export const IngestAck = z
  .strictObject({ ackedSeq: Seq, headHash: Hex64, inserted: Seq, duplicates: Seq, receipt: Receipt })
  .meta({ id: 'IngestAck', description: 'the acknowledgement: highest contiguous seq stored and its hash, and the receipt of that head' });

export const ReceiptKey = z.strictObject({ publicKey: z.string(), keyId: z.string() }).meta({ id: 'ReceiptKey' });
export const HeadBody = z.strictObject({ terminalId: TerminalId }).meta({ id: 'HeadRequest' });
export const HeadAnswer = z.strictObject({ receipt: Receipt }).meta({ id: 'HeadReceipt' });
export const IngestGap = z.strictObject({ error: z.literal('gap'), ackedSeq: Seq, headHash: Hex64, message: z.string() });
export const IngestDivergence = z.strictObject({ error: z.literal('divergence'), seq: Seq, ackedSeq: Seq, headHash: Hex64, message: z.string() });
/** A signed request received a second time: refused, with the head the kiosk goes on from. */
export const IngestReplay = z.strictObject({ error: z.literal('replay'), ackedSeq: Seq, headHash: z.string(), message: z.string() });
export const IngestRefused = z.strictObject({ error: z.enum(['bad-chain', 'bad-entry']), seq: Seq, message: z.string() });

/**
 * A heartbeat's faults (`table.faults`: the kinds of the table's current faults, host/tilts/
 * tilt-kinds.ts, one per place it holds one) at most: every station kind at each of the 2,007
 * stations a table may have (seats 1–7, remote 101–2100) and every table kind once is 38,149 with
 * today's 19 station and 16 table kinds (32,768 was passed when the printer's jam and mechanism
 * faults came: the honest heartbeat's test caught it). Each is a kind's name (the longest today 21
 * characters): 65,536 of at most 64 characters stay well inside the 8 MiB body limit.
 */
export const MAX_FAULTS = 65_536;
const FAULT_LENGTH = 64;
/** Different kinds among them at most (35 kinds today): the floor's row names each once. */
export const MAX_FAULT_KINDS = 64;
const Faults = z
  .array(z.string().max(FAULT_LENGTH))
  .max(MAX_FAULTS)
  .refine((faults) => new Set(faults).size <= MAX_FAULT_KINDS, { message: `at most ${MAX_FAULT_KINDS} kinds of fault` });

/**
 * The kiosk's health as it reports it with each heartbeat (its /healthz): the fields the service
 * reads are named, each bounded above what an honest table sends (the floor copies the phase, hold
 * and faults into a row every open floor page is sent: tests/security/backoffice-heartbeat.test.ts
 * sends the host's own heartbeat with every fault a table can hold); the rest is kept as sent,
 * bounded by the body limit.
 */
export const KioskHealth = z
  .looseObject({
    tableId: z.string().max(64).optional(),
    game: z.string().max(32).optional(),
    // The rule profile it plays and its game's profiles: the back office's form offers those only.
    profile: z.string().max(64).optional(),
    profiles: z.array(z.string().max(64)).max(64).optional(),
    version: z.string().max(64).optional(),
    uptimeSeconds: z.number().nonnegative().optional(),
    // The table's currency (issue 49): held per table, every amount of it labelled by it; its exponent ISO 4217's.
    currency: HeartbeatCurrency.optional(),
    // The round's phase (betting, dealing, results, hold) and why the table is on hold (a reason's name, engine/table/vocabulary.ts).
    table: z
      .looseObject({
        phase: z.string().max(32).optional(),
        hold: z
          .union([z.string().max(64), z.boolean()])
          .nullable()
          .optional(),
        faults: Faults.optional(),
      })
      .optional(),
    // The table's journal head when it built the heartbeat: where a change of currency it reports takes effect after (table-currency.ts).
    ledger: z.looseObject({ head: Seq.optional() }).optional(),
    sync: z
      .union([
        z.literal('off'),
        z.looseObject({ lagEntries: Seq.optional(), lagSeconds: z.number().nonnegative().optional(), state: z.string().max(32).optional() }),
      ])
      .optional(),
  })
  .meta({ id: 'KioskHealth' });

export const HeartbeatBody = z.strictObject({ terminalId: TerminalId, at: Instant, health: KioskHealth }).meta({ id: 'Heartbeat' });
export const HeartbeatAck = z.strictObject({ ok: z.literal(true), serverTime: Instant }).meta({ id: 'HeartbeatAck' });
/** `POST /v1/config-orders`: a table asks for the back office's approved configuration orders (issue 49 item 6). */
export const ConfigOrdersBody = z.strictObject({ terminalId: TerminalId }).meta({ id: 'ConfigOrdersRequest' });
export const ConfigOrders = z
  .strictObject({ orders: z.array(z.strictObject({ order: z.string(), signature: z.string() })) })
  .meta({ id: 'ConfigOrders', description: "each order's exact text and the upstream's Ed25519 signature over it (docs/backoffice.md)" });

export const Health = z.strictObject({ ok: z.boolean(), database: z.enum(['pg', 'pglite']), error: z.string().optional() });

export const TerminalParams = z.strictObject({ id: TerminalId });

const Limit = (dflt: number, max: number) => z.coerce.number().int().min(0).max(max).default(dflt);

export const EntriesQuery = z.strictObject({
  from: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(1),
  limit: Limit(100, 5000),
  type: z.string().max(64).optional(),
});
/**
 * The most rows of a table's meters one answer holds (`limit`'s default and most). The projection
 * holds a row per scope (the table and up to 2,007 stations), name and currency: an honest
 * stadium's alone is some 80,000 rows, and one whose key leaked may grow it to hundreds of
 * thousands (tests/security/upstream-meters-paging.test.ts). Any table of a few stations reads
 * whole in one answer; past it, the route names the next page (`MeterCursor`).
 */
export const METERS_PAGE_MAX = 10_000;

export const MetersQuery = z.strictObject({
  scope: z.string().max(64).optional(),
  /** The next page's cursor, as the route wrote it in its `link` header (upstream/queries.ts readMeterCursor). */
  after: z.string().max(4096).optional(),
  /** Not 0: a full page of nothing would link to itself. */
  limit: z.coerce.number().int().min(1).max(METERS_PAGE_MAX).default(METERS_PAGE_MAX),
});
export const RoundsQuery = z.strictObject({ limit: Limit(10, 500) });
export const AlarmsQuery = z.strictObject({
  terminal: TerminalId.optional(),
  /** At most this many, newest first (100 when not given, as the route always answered). */
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** Only alarms older than this id: the last id of the page before. */
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});
// Enrolment only: a new key for an enrolled terminal is its own route (rotate-key).
export const EnrolBody = z.strictObject({ terminalId: TerminalId });

export const Terminal = z
  .strictObject({
    terminalId: TerminalId,
    enrolledAt: Instant,
    revokedAt: Instant.nullable(),
    headSeq: Seq,
    headHash: Hex64,
    lastIngestAt: Instant,
    lastSeenAt: Instant.nullable(),
    health: KioskHealth.nullable(),
  })
  .meta({ id: 'Terminal' });

export const Entry = z
  .strictObject({
    seq: Seq,
    type: z.string(),
    txId: z.string().nullable(),
    ts: Instant,
    hash: Hex64,
    prevHash: Hex64,
    body: z.string(),
    receivedAt: Instant,
  })
  .meta({ id: 'Entry' });

export const Meter = z
  .strictObject({
    scope: z.string(),
    name: z.string(),
    value: z.number().int(),
    /** The currency the table held when it journalled the entries summed here (null: none named yet); one row per currency. */
    currency: z.strictObject({ code: z.string(), exponent: z.number().int() }).nullable(),
  })
  .meta({ id: 'Meter' });

export const Round = z
  .strictObject({ seq: Seq, status: z.enum(['settled', 'void']), ts: Instant, round: z.unknown(), credits: z.unknown() })
  .meta({ id: 'Round' });

export const ChainReport = z
  .strictObject({
    terminalId: TerminalId,
    ok: z.boolean(),
    entries: Seq,
    headSeq: Seq,
    headHash: z.string(),
    gaps: z.array(z.strictObject({ from: Seq, to: Seq })),
    problems: z.array(z.string()),
  })
  .meta({ id: 'ChainReport' });

export const Gap = z.strictObject({ from: Seq, to: Seq });

export const Alarm = z
  .strictObject({ id: Seq, terminalId: z.string().nullable(), kind: z.string(), detail: z.unknown(), raisedAt: Instant, clearedAt: Instant.nullable() })
  .meta({ id: 'Alarm' });

export const Credentials = z.strictObject({ terminalId: TerminalId, key: z.string(), receiptKey: z.string() }).meta({ id: 'Credentials' });
