import path from 'node:path';
import { z } from 'zod';
import { NOTE_FACE_VALUES } from '../../hardware/billacceptor/notes.js';
import { TICKET_TABLE_CHARS } from '../../hardware/printer/ticket.js';
import { hasLanguage } from '../../locales/index.js';
import { Currency, GameKind, Language, Limits, MAX_REMOTE_STATIONS, MAX_STATIONS, MinorUnits } from '../../protocol/index.js';
import { CREDIT_LIMIT_MAX } from '../../terms/config-order-terms.js';
import { CONFIGURED_MACHINE_ID_MAX } from '../../terms/validation-number.js';
import { ConnectionLimitsConfig } from './connection-limits.js';
import { DeviceSpec } from './device-spec.js';
import { BET_IDS, REMOTE_STATION_BASE, type BetId } from '../../engine/table/vocabulary.js';
import { checkTableOptions, DEFAULT_GAME, gameDefaults, tableGame } from '../../engine/games.js';
import { limitProblems } from '../../engine/table/limits.js';
import { describeRuleRefusal } from '../../engine/table/rule-options.js';

/** The largest credit SAS's current credits (long poll 0x1A: 4 BCD bytes, 8 digits) can say, in minor units. */
export const SAS_CREDIT_MAX = CREDIT_LIMIT_MAX;

/** A bill acceptor's protocol: JCM ID-003 or Innovative SSP (hardware/billacceptor/{id003,ssp}). */
const AcceptorProtocol = z.enum(['id003', 'ssp']);

/** A bet type as the games name them (`main`, `tie`, `anyPair`…), or `behind` for a bet behind another seat. */
const BetType = z.enum([...BET_IDS, 'behind']);

/** What a station's SAS link is, wherever its line is (a seated station's port, a remote station's agent). */
const SasStation = {
  address: z.number().int().min(1).max(127),
  /** Stop play (no bet, no note, no cash-out) while the link is down (docs/sas.md); default: play goes on, the journal keeps what the system has not read. */
  stopPlayOnLinkDown: z.boolean().optional(),
  /** Exception 51 reissued every 15 s until the system asks long poll 1B (SAS 6.02 §7.8.1, docs/sas.md); `false` for a system that never asks 1B (§7.8.2). Default true. */
  handpayReissue: z.boolean().optional(),
  /** AFT, the casino system's cashless transfers (docs/sas.md, "AFT"): the station's asset number and the most one transfer may put on its credit (minor units). Absent: 0x72/0x74 are ignored. */
  aft: z.strictObject({ assetNumber: z.number().int().min(1).max(0xff_ff_ff_ff), limit: MinorUnits.positive().default(5_000_000) }).optional(),
};

/**
 * A device path said two ways (`/dev/./ttyS0`, `//dev/ttyS0`, `/dev/pts/../ttyS0`) is one device:
 * kept in its normal form, so that two stations cannot be put at one address of one line under two
 * spellings (a review: both then answered, and one 0x72 credited both). Pure, as a schema must be:
 * a symbolic link (`/dev/serial/by-id/…`) is resolved where the host opens the links
 * (host/start/sas-links.ts), which refuses two stations at one address of one device.
 */
function normalLink(link: string): string {
  const m = /^(uart|serial):(\/.*)$/.exec(link);
  if (!m?.[1] || !m[2]) return link;
  const normal = path.posix.normalize(m[2]);
  return `${m[1]}:${normal.length > 1 ? normal.replace(/\/+$/, '') : normal}`;
}

/**
 * A remote station's SAS link (docs/sas.md, "Remote stations"): its line is on the station's own
 * machine, and its agent (`etg station-agent --sas SPEC`) relays the bytes to this host, which runs
 * the station's SAS machine. No ticket validation by the system: a remote station prints no ticket.
 */
const RemoteSas = z.strictObject({
  station: z.number().int().min(1),
  ...SasStation,
  /**
   * Every byte of a relayed line comes from the station's own machine, and SAS has only a CRC: a
   * compromised station can send what the casino system would (a 0x72 transfer-in, the answer to
   * its own ticket's redemption). Absent, the line moves no money: `aft` is refused here and a
   * ticket redemption it would answer (`tickets.authority: "sas"`) is refused at the table.
   * `"accept-unverified"`: the floor takes that risk, and the casino system's reconciliation of
   * the station's meters (00A0, 00B8) against its own AFT and ticket logs is the only detection
   * (docs/security.md). A relayed line's 0x4C never sets the table's validation id either way.
   */
  relayedMoney: z.literal('accept-unverified').optional(),
});

const Station = z.strictObject({
  station: z.number().int().min(1).max(MAX_STATIONS),
  /** The seat this station controls. */
  seat: z.number().int().min(1).max(MAX_STATIONS),
  billAcceptor: DeviceSpec,
  /** The acceptor's protocol: JCM ID-003 or Innovative SSP (hardware/billacceptor/{id003,ssp}). */
  billProtocol: z.enum(['id003', 'ssp']).default('id003'),
  /**
   * The casino's SAS link of this station (docs/sas.md): `uart:PATH` (a real UART, the wake-up bit
   * by stick parity), `serial:PATH` (a tty carrying the fallback stream: a pty) or `tcp:HOST:PORT`,
   * and its address 1–127.
   */
  sas: z
    .strictObject({
      link: z
        .string()
        .regex(/^(uart:\/[\w.\-/]+|serial:\/.+|tcp:[^:\s]+:\d{1,5})$/, 'uart:/dev/PATH, serial:/dev/PATH or tcp:HOST:PORT')
        .transform(normalLink),
      ...SasStation,
      /**
       * Who numbers this station's cash-out tickets (docs/sas.md, "System validation at a station"):
       * `secure-enhanced` (default) the table itself, under the id the system set by 0x4C; `system`
       * the casino's system, asked for each ticket (exception 57, long polls 0x57/0x58), a handpay
       * when it denies or is silent. `system` needs `tickets.authority: "sas"` and a printer.
       */
      validation: z.enum(['secure-enhanced', 'system']).optional(),
    })
    .optional(),
  /** The station's ticket printer (TCL: FutureLogic/JCM GEN2–GEN5 and the printers that emulate it; docs/tito.md); none: cash-out by handpay only. */
  printer: DeviceSpec.optional(),
});

/**
 * Cash-out tickets (issue 47, docs/tito.md). `limit`: the most one ticket pays (minor units);
 * above it a cash-out is a handpay. `expiryDays`: how long a ticket is redeemable (until that many days after
 * its issue end in Macau, the day its paper prints as its last). `machineId`:
 * the validation id this table numbers its tickets under, when the floor assigns it by
 * configuration rather than through the validation authority (a table offline at its first
 * cash-out): the lower half of the ids only, the upper being the ones the upstream assigns.
 */
const Tickets = z.strictObject({
  limit: MinorUnits.positive().default(5_000_000),
  expiryDays: z.number().int().min(1).max(3650).default(90),
  machineId: z
    .number()
    .int()
    .min(1)
    .max(CONFIGURED_MACHINE_ID_MAX, { message: `a configured validation id is 1..${CONFIGURED_MACHINE_ID_MAX}: the ids above are the upstream's to assign` })
    .optional(),
  /**
   * Who validates this table's tickets (docs/sas.md, "Tickets through SAS"): `upstream` (the
   * floor's own authority, docs/tito.md) or `sas` (the casino's system over each station's SAS
   * link: 0x4C sets the id, 0x4D reads the tickets printed, 0x70/0x71 redeem). Never both.
   * Absent: `upstream`.
   */
  authority: z.enum(['upstream', 'sas']).optional(),
});

/** Every ticket names its table: an id its line cannot carry fails every ticket's schema, and every cash-out is a handpay. */
function checkTicketTableId(c: { tableId: string; stations: readonly { printer?: unknown }[] }, ctx: z.RefinementCtx): void {
  if (c.tableId.length > TICKET_TABLE_CHARS && c.stations.some((s) => s.printer !== undefined))
    ctx.addIssue({
      code: 'custom',
      path: ['tableId'],
      message: `a table with a ticket printer has an id of at most ${TICKET_TABLE_CHARS} characters (the ticket prints it): this one has ${c.tableId.length}`,
    });
}

/** A table's configuration is data, validated before the host starts (docs/architecture.md). */
export const TableConfig = z
  .strictObject({
    tableId: z.string().regex(/^[A-Za-z0-9-]{1,32}$/),
    game: GameKind,
    profile: z.string().min(1),
    currency: Currency,
    limits: Limits,
    seats: z.number().int().min(6).max(MAX_STATIONS),
    stations: z.array(Station).min(1).max(MAX_STATIONS),
    /**
     * Remote stations (a stadium): how many machines on the casino LAN may play this table,
     * numbered 101 on; each is enrolled in service mode and has its own credential.
     */
    remoteStations: z.number().int().min(0).max(MAX_REMOTE_STATIONS).default(0),
    /** The remote stations on the casino's SAS system, each through its agent (docs/sas.md, "Remote stations"). */
    remoteSas: z.array(RemoteSas).max(MAX_REMOTE_STATIONS).default([]),
    /**
     * Where the host listens for its remote stations, over TLS with the table's own certificate
     * (their enrolment pins it). 127.0.0.1 unless configured; port 0 picks a free one.
     */
    lan: z
      .strictObject({ host: z.string().min(1).max(255).default('127.0.0.1'), port: z.number().int().min(0).max(65535).default(0) })
      .default({ host: '127.0.0.1', port: 0 }),
    /**
     * Edges (issue 55, docs/stadium.md): the names of the edge processes (`etg edge`) that hold
     * this table's remote stations, and where the table's NATS server listens for them (each edge
     * its own NATS user, its password made on the first start in `<data>/edges/<name>.password`).
     * Absent: no edges, and no NATS server is started or needed.
     */
    edges: z
      .strictObject({
        // Each its own NATS user: never `host` (the host's, with every right; its password would be
        // written to host.password for an edge's machine), nor one name twice.
        names: z
          .array(
            z
              .string()
              .regex(/^[A-Za-z0-9_-]{1,32}$/)
              .refine((n) => n !== 'host', "an edge may not be named 'host': that is the table host's own NATS user"),
          )
          .min(1)
          .max(64)
          .refine((ns) => new Set(ns).size === ns.length, 'an edge is named twice: each edge is a NATS user of its own'),
        nats: z
          .strictObject({ host: z.string().min(1).max(255).default('127.0.0.1'), port: z.number().int().min(0).max(65535).default(4222) })
          .default({ host: '127.0.0.1', port: 4222 }),
      })
      .optional(),
    /** How the loopback and the LAN listeners admit connections: the hello deadline, caps per address and in all. */
    connections: ConnectionLimitsConfig,
    /**
     * The remote stations' acceptors. `relayOnly`: an agent must relay its acceptor's bytes (the
     * host runs the driver, `station-agent --relay`); one that runs the driver itself is refused.
     * Absent: relay only in a production build, both modes in a test build; `false` refuses a
     * production start (issue 50: an agent running its own driver can report a consistent credit
     * for a note that never existed; host/config/build-kind.ts).
     * `esspFixedKey`: the 64-bit fixed part of the SSP validators' eSSP key (16 hex digits), held
     * by the host only: a relayed SSP acceptor always runs encrypted, end to end (docs/security.md).
     * `protocol`, `stationProtocols` (`{ "103": "id003" }`): the acceptors' protocol, the table's
     * and a station's own; an agent's hello naming another is refused. Absent: `ssp` where
     * `esspFixedKey` is set (else a station machine greeting as `id003` would play a whole ID-003
     * device, a CRC and no key), either otherwise (`remoteAcceptorProtocol`).
     */
    remoteAcceptors: z
      .strictObject({
        relayOnly: z.boolean().optional(),
        esspFixedKey: z
          .string()
          .regex(/^[0-9a-fA-F]{16}$/, '16 hex digits')
          .optional(),
        protocol: AcceptorProtocol.optional(),
        stationProtocols: z.record(z.string().regex(/^\d{1,4}$/, 'a station number'), AcceptorProtocol).optional(),
      })
      .default({}),
    shoe: DeviceSpec,
    /**
     * The shoe's protocol: our framed one (sequence numbers, acknowledgements, a gate the host can
     * lock) or a vendor's one-way ASCII stream (no lock: a card drawn out of turn is a hold).
     */
    shoeProtocol: z.enum(['framed', 'ascii']).default('framed'),
    // Any language with a catalogue (locales/catalogues/): the protocol checks only the tag's form.
    defaultLanguage: Language.refine(hasLanguage, 'a language with a catalogue in locales/catalogues/'),
    timings: z
      .strictObject({
        bettingMs: z.number().int().min(1000).max(120_000),
        decisionMs: z.number().int().min(1000).max(120_000),
        resultsMs: z.number().int().min(1000).max(60_000),
      })
      .default({ bettingMs: 15_000, decisionMs: 15_000, resultsMs: 5_000 }),
    /**
     * Limits of a bet type where they differ from the table's (`limits`): a side bet, the tie, the
     * pairs. A bet type not named here plays between the table's minimum and maximum.
     */
    betLimits: z.partialRecord(BetType, Limits).default({}),
    /** Note face values the acceptors take (major units); default every note of the currency. */
    denominations: z.array(z.number().int().positive()).min(1).max(16).optional(),
    /**
     * The SSP validators' dataset: each channel's note face value (major units), channel 1 first, as
     * the units were set up. A validator whose SETUP REQUEST values a channel otherwise takes no note
     * on it (a `dataset-mismatch` violation); without this, each is held to the first dataset it
     * reported (docs/security.md, "A hostile SSP dataset").
     */
    sspDataset: z.array(z.number().int().nonnegative()).min(1).max(16).optional(),
    /** Past either limit of unsynced entries, new bets stop until the upstream catches up. */
    offlineLimit: z
      .strictObject({
        maxUnsyncedEntries: z.number().int().min(1).max(10_000_000),
        maxUnsyncedSeconds: z
          .number()
          .int()
          .min(60)
          .max(7 * 24 * 3600),
      })
      .default({ maxUnsyncedEntries: 50_000, maxUnsyncedSeconds: 4 * 3600 }),
    /** The casino's upstream ledger service (`--upstream` overrides it). */
    upstream: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Rule options chosen over the profile's defaults (blackjack: `engine/blackjack/rules.ts`,
     * e.g. `betBehind: 'highest-bet'`; baccarat and war: a dotted field of the profile, e.g.
     * `mainBetOnTieWithTieBet: 'choose'`). Each goes through the engine's one guard
     * (`checkTableOptions`): a value the text fixes is refused with its article, and a choice, a
     * waiver or a reading needs the reference in `profileAuthorisation` where the text requires one
     * (Macau 2009 Art. 21, baccarat Art. 19). The lines settled under them name them.
     */
    profileOptions: z.record(z.string().min(1).max(64), z.unknown()).default({}),
    profileAuthorisation: z.string().min(1).max(128).optional(),
    /**
     * The day (YYYY-MM-DD) the authorisation takes effect: a live table opens under its reference
     * from that day, for the rule set it was recorded for (host/config/authorisation.ts, issue 51).
     */
    profileAuthorisationEffective: z.iso.date().optional(),
    /**
     * The most all stations together may bet on the table in one round (minor units), if the
     * casino sets one (Macau 2009 Art. 5 n.2 3)(8)); absent, only each bet's maximum applies.
     */
    roundMax: MinorUnits.positive().optional(),
    /** A handpay above this amount (minor units) is confirmed by two people (issue 9). */
    handpayTwoPersonAbove: MinorUnits.nonnegative().default(5_000_000),
    tickets: Tickets.default({ limit: 5_000_000, expiryDays: 90 }),
    /**
     * The most a station's credit meter may hold (minor units; docs/sas.md, "The station credit
     * limit"): credit in (a note, a ticket, an AFT transfer, credit moved from another table) that
     * would take it past this is refused before any money is taken; a win is paid whatever it
     * makes. At most 99,999,999, what SAS's current credits (0x1A, 4 BCD bytes) can say: above it
     * the casino's system reads the remainder.
     */
    creditLimit: MinorUnits.positive().max(SAS_CREDIT_MAX).default(SAS_CREDIT_MAX),
  })
  .superRefine((c, ctx) => {
    checkTicketTableId(c, ctx);
    // The one guard of the rule options: a table plays only a profile a text governs, under what it allows.
    const refused = checkTableOptions(c.game, c.profile, tableOptions(c), true);
    for (const r of refused) {
      const path = r.option === 'profile' ? ['profile'] : r.reason === 'needs-authorisation' ? ['profileAuthorisation'] : ['profileOptions', r.option];
      ctx.addIssue({ code: 'custom', path, message: describeRuleRefusal(r) });
    }
    if (c.profileAuthorisationEffective !== undefined && c.profileAuthorisation === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['profileAuthorisationEffective'],
        message: 'an effective date without its authorisation reference (profileAuthorisation)',
      });
    if (Object.hasOwn(c.profileOptions, 'authorisation'))
      ctx.addIssue({
        code: 'custom',
        path: ['profileOptions', 'authorisation'],
        message: 'the authorisation reference is profileAuthorisation, not an option',
      });
    else if (refused.length === 0) {
      // Limits and seats the text fixes (Portugal rules 14, 37; war's seven places), each naming its rule.
      try {
        for (const p of limitProblems(tableGame(c.game, c.profile, tableOptions(c)).rules.limitRules, c))
          ctx.addIssue({ code: 'custom', path: ['limits'], message: p });
      } catch (e) {
        ctx.addIssue({ code: 'custom', path: ['profile'], message: e instanceof Error ? e.message : String(e) });
      }
    }
    for (const d of c.denominations ?? []) {
      if (!NOTE_FACE_VALUES[c.currency].includes(d)) {
        ctx.addIssue({
          code: 'custom',
          path: ['denominations'],
          message: `${c.currency} has no ${d} note (notes: ${NOTE_FACE_VALUES[c.currency].join(', ')})`,
        });
      }
    }
    // Each remote station holds two connections (its screen, its acceptor link).
    if (c.connections.lan.total < 2 * c.remoteStations)
      ctx.addIssue({
        code: 'custom',
        path: ['connections', 'lan', 'total'],
        message: `${c.remoteStations} remote stations hold ${2 * c.remoteStations} connections: connections.lan.total is ${c.connections.lan.total}`,
      });
    checkRemoteSas(c, ctx);
    checkAssetNumbers(c, ctx);
    checkStationProtocols(c, ctx);
    const stations = new Set<number>();
    const sasAt = new Set<string>();
    const seats = new Set<number>();
    for (const s of c.stations) {
      if (stations.has(s.station)) ctx.addIssue({ code: 'custom', message: `station ${s.station} is listed twice` });
      if (seats.has(s.seat)) ctx.addIssue({ code: 'custom', message: `seat ${s.seat} is controlled by two stations` });
      if (s.seat > c.seats) ctx.addIssue({ code: 'custom', message: `station ${s.station} controls seat ${s.seat}, but the table has ${c.seats} seats` });
      stations.add(s.station);
      if (s.sas) {
        // uart:PATH and serial:PATH name one device: one line, whichever way it is driven.
        const at = `${s.sas.link.replace(/^(uart|serial):/, 'tty:')}#${s.sas.address}`;
        if (sasAt.has(at))
          ctx.addIssue({ code: 'custom', message: `station ${s.station}: SAS address ${s.sas.address} on ${s.sas.link} is another station's` });
        sasAt.add(at);
        if (s.sas.validation === 'system' && c.tickets.authority !== 'sas')
          ctx.addIssue({
            code: 'custom',
            path: ['stations', c.stations.indexOf(s), 'sas', 'validation'],
            message: `station ${s.station}: sas.validation "system" needs tickets.authority "sas" (the casino system that numbers a ticket is the one that pays it; the upstream never registers such a number)`,
          });
        if (s.sas.validation === 'system' && !s.printer)
          ctx.addIssue({
            code: 'custom',
            path: ['stations', c.stations.indexOf(s), 'printer'],
            message: `station ${s.station}: sas.validation "system" numbers tickets, and the station has no printer`,
          });
      }
      seats.add(s.seat);
    }
  });
export type TableConfig = z.infer<typeof TableConfig>;

/** Each `remoteSas` entry is one of the table's remote stations, listed once. */
function checkRemoteSas(
  c: { remoteSas: readonly { station: number; aft?: unknown; relayedMoney?: string | undefined }[]; remoteStations: number },
  ctx: z.RefinementCtx,
): void {
  const seen = new Set<number>();
  c.remoteSas.forEach((r, i) => {
    if (r.station <= REMOTE_STATION_BASE || r.station > REMOTE_STATION_BASE + c.remoteStations)
      ctx.addIssue({ code: 'custom', path: ['remoteSas', i, 'station'], message: `remoteSas: ${r.station} is not one of the table's remote stations` });
    if (seen.has(r.station)) ctx.addIssue({ code: 'custom', path: ['remoteSas', i, 'station'], message: `remoteSas: station ${r.station} is listed twice` });
    seen.add(r.station);
    if (r.aft && r.relayedMoney !== 'accept-unverified')
      ctx.addIssue({
        code: 'custom',
        path: ['remoteSas', i, 'aft'],
        message:
          `remoteSas: station ${r.station}'s SAS line is relayed by its own machine, which can send an AFT transfer-in as the casino system would (SAS has only a CRC); ` +
          'AFT there needs relayedMoney: "accept-unverified", and then only the casino system\'s reconciliation of its AFT log against the meters finds a forged one (docs/sas.md)',
      });
  });
}

/**
 * No two stations, seated or remote, share an AFT asset number: a 0x72 names the machine by it, and
 * two stations that both hear one (one line, one address) would both take the transfer (a review:
 * one 0x72 credited both). Asset numbers are the floor's, one per machine.
 */
function checkAssetNumbers(
  c: {
    stations: readonly { station: number; sas?: { aft?: { assetNumber: number } | undefined } | undefined }[];
    remoteSas: readonly { station: number; aft?: { assetNumber: number } | undefined }[];
  },
  ctx: z.RefinementCtx,
): void {
  const owner = new Map<number, number>();
  const all = [...c.stations.map((s) => ({ station: s.station, aft: s.sas?.aft })), ...c.remoteSas];
  for (const { station, aft } of all) {
    if (!aft) continue;
    const first = owner.get(aft.assetNumber);
    if (first === undefined) owner.set(aft.assetNumber, station);
    else
      ctx.addIssue({ code: 'custom', message: `AFT asset number ${aft.assetNumber} is station ${first}'s and station ${station}'s: each machine has its own` });
  }
}

/** Each station `remoteAcceptors.stationProtocols` pins is one of the table's remote stations. */
function checkStationProtocols(
  c: { remoteAcceptors: { stationProtocols?: Record<string, unknown> | undefined }; remoteStations: number },
  ctx: z.RefinementCtx,
): void {
  for (const key of Object.keys(c.remoteAcceptors.stationProtocols ?? {}))
    if (Number(key) <= REMOTE_STATION_BASE || Number(key) > REMOTE_STATION_BASE + c.remoteStations)
      ctx.addIssue({
        code: 'custom',
        path: ['remoteAcceptors', 'stationProtocols', key],
        message: `remoteAcceptors.stationProtocols: ${key} is not one of the table's remote stations`,
      });
}

/**
 * The protocol a remote station's acceptor must speak, by the configuration alone (null: either).
 * Never the agent's word: the protocol decides whether the relayed bytes carry a key at all.
 */
export function remoteAcceptorProtocol(c: Pick<TableConfig, 'remoteAcceptors'>, station: number): 'id003' | 'ssp' | null {
  const r = c.remoteAcceptors;
  return r.stationProtocols?.[String(station)] ?? r.protocol ?? (r.esspFixedKey !== undefined ? 'ssp' : null);
}

/**
 * The remote stations whose relayed SAS line is not believed about money (no `relayedMoney`
 * opt-in): a ticket redemption their line would answer is refused (host/tickets/sas-authority.ts).
 */
export function unbelievedSasLines(c: Pick<TableConfig, 'remoteSas'>): ReadonlySet<number> {
  return new Set(c.remoteSas.filter((r) => r.relayedMoney !== 'accept-unverified').map((r) => r.station));
}

/**
 * The default of `npm start`: a Macau table (the engine's default game unless told) with every
 * device simulated, under `profile` if given (the game's own default profile otherwise). Its limits keep to what the profile fixes (Portugal's maximum of 30
 * minimums, rule 37), so a demo of any profile starts.
 */
export function simulatedTableConfig(
  game: TableConfig['game'] = DEFAULT_GAME,
  profile: string = gameDefaults(game).profile,
  authorisation?: string,
): TableConfig {
  const min = 10_000;
  let max = 1_000_000;
  try {
    const spread = tableGame(game, profile, authorisation ? { authorisation } : {}).rules.limitRules.maxTimesMinimum;
    if (spread) max = Math.min(max, spread.times * min);
  } catch {
    // An unknown profile: the table refuses it by name when it opens.
  }
  return TableConfig.parse({
    tableId: `SIM-${gameDefaults(game).tableCode}-01`,
    game,
    profile,
    currency: 'MOP',
    limits: { min, max },
    seats: 7,
    stations: Array.from({ length: 7 }, (_, i) => ({ station: i + 1, seat: i + 1, billAcceptor: 'sim' })),
    shoe: 'sim',
    defaultLanguage: 'zh-Hant',
    ...(authorisation ? { profileAuthorisation: authorisation } : {}),
  });
}

/** The options the table's game is built with: the configuration's rule options and their authorisation reference. */
export function tableOptions(c: Pick<TableConfig, 'profileOptions' | 'profileAuthorisation'>): Record<string, unknown> {
  return { ...c.profileOptions, ...(c.profileAuthorisation ? { authorisation: c.profileAuthorisation } : {}) };
}

/** Bet types the config limits that the game does not have: a bet of another game would silently do nothing. */
export function unknownBetTypes(config: Pick<TableConfig, 'betLimits'>, bets: readonly BetId[]): string[] {
  return BET_TYPES.filter((b) => config.betLimits[b] !== undefined && b !== 'behind' && !bets.some((x) => x === b));
}

const BET_TYPES = BetType.options;
