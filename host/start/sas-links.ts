// Each station configured with `sas: { link, address }` is a machine on the casino's SAS link
// (docs/sas.md, "The host's wiring"): its game side reads the station's ledger meters, the
// table's identity and the clock, and turns the host's commands into journalled faults — disable
// play (0x01) holds the station like any station fault until 0x02; disable the bill acceptor
// (0x06) is its own reason at the acceptor until 0x07. The link going silent is a fault too.
import { isDeepStrictEqual } from 'node:util';
import { realpathSync } from 'node:fs';
import type { Logger } from 'pino';
import { interByteLimitMs, openSasLink, SasLink, type SasPortProblem, type SasPortWhy } from '../../hardware/sas/link.js';
import type { SasMachine } from '../../hardware/sas/machine.js';
import type { HandpayResetResult, SasGameSide, SasHandpay, SasMachineInfo } from '../../hardware/sas/types.js';
import { macauTime } from '../config/macau-time.js';
import type { TableConfig } from '../config/table-config.js';
import type { Ledger } from '../../ledger/index.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import type { TiltKind } from '../tilts/tilt-kinds.js';
import type { BillAcceptors } from '../devices/bill-acceptors.js';
import type { RemoteSas } from '../devices/remote-sas.js';
import { sasHandpayOf, sasMetersOf } from '../devices/sas-meters.js';
import { programImage } from './program-image.js';
import { SampledLog } from '../logging/sampled-log.js';
import { TokenBucket } from '../limits/token-bucket.js';
import { journalFacts, ReportedStore, seqOf, StationFeed, type FeedMachine } from '../devices/sas-feed.js';
import { ValidationRecords } from '../devices/sas-validation-info.js';
import { StationAft } from '../devices/sas-aft.js';
import { StationAftLock } from '../devices/sas-aft-lock.js';
import { creditRoom } from '../devices/credit-rule/credit-limit.js';
import { StationAftRegistration } from '../devices/sas-aft-register.js';
import { HandpayNotes } from '../devices/sas-handpay-note.js';
import type { SasAuthority } from '../tickets/sas-authority.js';
import type { SystemValidations } from '../devices/sas-system-validation.js';
import type { Handpays } from '../floor/handpays.js';
import type { TicketOut } from '../floor/ticket-out.js';
import { EXC } from '../../hardware/sas/constants.js';
import { tiltDetailSaid, type Said } from '../../locales/said.js';
import type { WiredFloorServices } from '../floor/floor-services.js';
import type { StationGate } from '../floor/station-gates.js';
import type { AftNotices } from '../floor/aft-notices.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';
import { unrefTimers } from '../table/timers.js';
import type { StartStops } from './stops.js';

/** The kiosk's accounting denomination: one minor unit (docs/sas.md, "The meter map"). */
const DENOMINATION_MINOR = 1;
/** A station's faults that only its SAS link raises and clears: the system's orders (`ordered`) and the link's outage. */
const SAS_STATION_FAULTS: ReadonlySet<TiltKind> = new Set<TiltKind>([
  'sas-aft-locked',
  'sas-play-disabled',
  'sas-bills-disabled',
  'sas-link-down',
  'sas-link-stop',
]);
/** The acceptor's reason while the casino's system has disabled it (beside the technician's and the faults'). */
export const SAS_BILLS_REASON = 'tilt:sas-bills-disabled' as const;

export interface SasLinksDeps {
  config: TableConfig;
  ledger: Ledger;
  tilts: TiltManager;
  /** Only the inhibit the system's 0x06/0x07 set (a narrow need: a test gives just that). */
  billAcceptors: Pick<BillAcceptors, 'setInhibited'>;
  log: Logger;
  /** The station's pending handpay (amount in minor units), or null. */
  pendingHandpay: (station: number) => { amount: number } | null;
  /** Whether the station has bets on the table (a round in progress for it: an AFT lock waits for its end). */
  roundOpen: (station: number) => boolean;
  /** Why the station cannot give its credit away now (a handpay waiting, bets in play, no credit, a ticket in print), or null (AFT out). */
  cashOutRefusal: (station: number) => string | null;
  /** Why the station's credit is on the move now (a ticket cash-out under way), or null: no AFT game lock is taken meanwhile. Absent: never. */
  creditMoving?: (station: number) => string | null;
  /** The running program: its root and files (host/service/program-hash.ts), for long poll 0x21. */
  program: { root: string; files: readonly string[] };
  /** The data folder: what each station's SAS host acknowledged is kept there (`sas-reported.json`). */
  dataDir: string;
  /** Link timings, for tests (the protocol's by default). */
  timing?: { silenceMs?: number; ackTimeoutMs?: number; chirpMs?: number; handpayReissueMs?: number; systemValidationMs?: number };
  /** The casino system as the table's validation authority (`tickets.authority: sas`): the ticket polls answer from it. */
  sasTickets?: SasAuthority | null;
  /** SAS system validation (0x57/0x58) of the stations configured `validation: "system"`. */
  systemValidations?: Pick<SystemValidations, 'at' | 'side' | 'close'> | undefined;
  /** The remote stations' SAS lines, relayed by their agents (`remoteSas`; docs/sas.md, "Remote stations"). */
  remoteSas?: Pick<RemoteSas, 'opener' | 'onOpen'>;
  /** What each station's screen is told of the transfers in it refused (host/floor/aft-notices.ts). */
  aftNotices?: Pick<AftNotices, 'at'>;
}

/** A station's SAS link as the configuration gives it: a seated station's port, or `agent` (a remote station's, relayed). */
type StationSas = Omit<NonNullable<TableConfig['stations'][number]['sas']>, 'link'> & { link: string };

/** Every station with a SAS link: the seated ones' (`stations[].sas`), then the remote ones' (`remoteSas`, link `agent`). */
export function sasStations(config: Pick<TableConfig, 'stations' | 'remoteSas'>): { station: number; sas: StationSas }[] {
  const seated = config.stations.flatMap((s) => (s.sas ? [{ station: s.station, sas: s.sas }] : []));
  return [...seated, ...config.remoteSas.map(({ station, ...sas }) => ({ station, sas: { ...sas, link: 'agent' } }))];
}

export class SasLinks {
  private readonly links = new Map<number, SasLink>();
  private readonly feeds = new Map<number, StationFeed>();
  private readonly locks = new Map<number, StationAftLock>();
  /** Each AFT station's registration (0x73), which follows the journal until the close. */
  private readonly registrations = new Map<number, StationAftRegistration>();
  private offAppended: (() => void) | null = null;
  private offRemote: (() => void) | null = null;
  private readonly validations: ValidationRecords;
  /** Each station's poll failures and bytes dropped past its line's budget, logged once per kind every 10 s with how many since (said within 10 s though no failure follows). */
  private readonly pollFailures: SampledLog;

  constructor(private readonly d: SasLinksDeps) {
    this.validations = new ValidationRecords(d.ledger, d.dataDir, d.log);
    this.pollFailures = new SampledLog(d.log, () => performance.now(), 10_000);
  }

  /** Opens every configured station's link; a disable journalled before a restart stands; the journal's exceptions it has not reported are fed to it. */
  start(): void {
    refuseOneDeviceTwice(sasStations(this.d.config));
    const store = new ReportedStore(this.d.dataDir, this.d.log);
    const notes = new HandpayNotes(this.d.dataDir, this.d.log);
    const facts = journalFacts(this.d.ledger);
    this.clearUnlinked();
    for (const s of sasStations(this.d.config)) {
      const station = s.station;
      // A lock never survives a restart (docs/sas.md, "The game lock"): its timer went with the run.
      if (this.d.tilts.list().some((t) => t.kind === 'sas-aft-locked' && t.station === station))
        this.d.tilts.conditionGone('sas-aft-locked', station, tiltDetailSaid('aftLockRestart'));
      if (this.d.tilts.list().some((t) => t.kind === 'sas-bills-disabled' && t.station === station))
        this.d.billAcceptors.setInhibited(station, SAS_BILLS_REASON, true);
      const { systemValidationMs, ...timing } = this.d.timing ?? {};
      let raise57 = (): void => {};
      const sv = this.d.systemValidations?.at(station) ? { systemValidation: this.d.systemValidations.side(station, () => raise57(), systemValidationMs) } : {};
      const link = this.openLink(station, s.sas.link, {
        address: s.sas.address,
        game: { ...this.gameSide(station), ...sv },
        ...timing,
        // §7.8.2: the operator's setting for a system that does not ask 1B after 51.
        ...(s.sas.handpayReissue === false ? { handpayReissueMs: null } : {}),
        // §7.8.1's note as it stood before this start (51 acknowledged, 1B not asked since).
        handpayAckedAt: notes.of(station),
        onPortDown: (problem) => this.portDown(station, s.sas.link, problem),
        onOverBudget: (dropped, total) => this.overBudget(station, s.sas.link, dropped, total),
        // The port back while the host's polls were being answered all along: no silence will end the port's fault.
        onPortUp: () => {
          if (s.sas.link.startsWith('uart:') && this.links.get(station)?.machine.linkUp) this.d.tilts.conditionGone('sas-link-down', station);
        },
      });
      // Exception 57 (a priority exception) when a cash-out begins to wait: the machine's own, not the journal's.
      raise57 = () => link.machine.raise(EXC.systemValidationRequest);
      const stopPlay = s.sas.stopPlayOnLinkDown === true;
      const feed = new StationFeed(station, { ledger: this.d.ledger, store, machine: this.feedMachine(station, link.machine), facts, log: this.d.log });
      link.machine.events.on((e) => {
        if (e.type === 'link-down') {
          // The port's own trouble, if any (a uart: line that would not configure, a device gone): the technician's reason.
          const problem = link.portProblem;
          this.d.tilts.raise('sas-link-down', { station, say: linkDownSaid(s.sas.link, problem !== null ? { port: problem.why } : e.reason) });
          if (stopPlay)
            this.d.tilts.raise('sas-link-stop', { station, say: tiltDetailSaid('sasStopOnLinkDown', { setting: 'stations[].sas.stopPlayOnLinkDown' }) });
        } else if (e.type === 'link-up') {
          this.d.tilts.conditionGone('sas-link-down', station);
          this.d.tilts.conditionGone('sas-link-stop', station);
        } else if (e.type === 'handpay-note') {
          // Kept before the poll that changed it is answered (the machine reports it synchronously).
          this.guard(station, () => notes.set(station, e.ackedAt));
        } else if (e.type === 'exception-acked') {
          const tag = e.tag;
          if (tag !== undefined) this.guard(station, () => feed.acknowledged(tag));
        } else if (e.type === 'poll-failed') {
          // Its cause (the disk refusing a write) is the host's own trouble, which a fault could not journal either.
          const command = e.command === null ? 'general' : `0x${e.command.toString(16).padStart(2, '0')}`;
          // Sampled: a disk that refuses every write fails every poll, 40 a second.
          this.pollFailures.error(
            `${station} ${command} ${e.stage}`,
            { err: e.error, station, command, stage: e.stage },
            'SAS poll failed at the station: left unanswered',
          );
        } else {
          this.d.log.warn({ station, code: e.code }, 'SAS exception lost to a full queue');
          if (e.tag !== undefined) feed.lost(e.tag);
        }
      });
      this.links.set(station, link);
      this.feeds.set(station, feed);
      this.d.log.info({ station, link: s.sas.link, address: s.sas.address, exceptions: feed.outstanding }, 'SAS link opened');
    }
    const remote = this.d.remoteSas;
    if (remote) this.offRemote = remote.onOpen((station) => this.links.get(station)?.wake());
    // The append is committed when its listeners hear of it: a feed that fails must not fail the appender.
    if (this.feeds.size > 0)
      this.offAppended = this.d.ledger.onAppended((entries) => {
        for (const f of this.feeds.values()) this.guard(f.station, () => f.appended(entries));
        // A pending lock takes effect once its station's round is over; after this append has been heard by all.
        if (this.locks.size > 0) queueMicrotask(() => this.checkLocks());
      });
  }

  /**
   * A station the configuration no longer gives a SAS link: what its casino system ordered (a game
   * lock, play or the acceptor disabled) and its link's own faults clear only by themselves, through
   * a link that will never answer again, so the start ends them, each with why in the journal
   * (docs/sas.md, "The host's wiring"). Before, the player's credit stayed frozen under a lock no one
   * could clear until SAS was configured again (a review).
   */
  private clearUnlinked(): void {
    const linked = new Set(sasStations(this.d.config).map((s) => s.station));
    for (const t of this.d.tilts.list())
      if (t.station !== undefined && !linked.has(t.station) && SAS_STATION_FAULTS.has(t.kind))
        this.d.tilts.conditionGone(t.kind, t.station, tiltDetailSaid('sasLinkRemoved'));
  }

  /** What the feed raises into: exception 0x68 also names the ticket's end it reports, which 0x71 FF answers (§15.12). */
  private feedMachine(station: number, machine: SasMachine): FeedMachine {
    const sas = this.d.sasTickets;
    if (!sas) return machine;
    return {
      exceptions: machine.exceptions,
      raise: (code, tag) => {
        if (code === EXC.ticketTransferComplete && tag !== undefined) sas.transferComplete(station, seqOf(tag));
        machine.raise(code, tag);
      },
    };
  }

  /** A seated station's port, or a remote station's line relayed by its agent (`agent`). */
  private openLink(station: number, spec: string, options: Parameters<typeof openSasLink>[1]): SasLink {
    if (spec !== 'agent') return openSasLink(spec, options);
    const remote = this.d.remoteSas;
    if (!remote) throw new Error(`station ${station}: a SAS link through its agent needs the remote stations`);
    const link = new SasLink(remote.opener(station), { interByteMs: interByteLimitMs(spec), ...options });
    link.start();
    return link;
  }

  /**
   * The port would not open or was lost. A `uart:` line that cannot be a SAS line (no device, a
   * driver without stick parity) is the technician's to fix: its fault is raised at once with the
   * reason, not only after the machine's 5 s of silence (docs/sas.md, "Framing"); cleared by the
   * machine's link-up, or when the port opens again while the host's polls are being answered.
   */
  private portDown(station: number, spec: string, problem: SasPortProblem): void {
    // The port's own English (the system's, the driver's) is said here only: the fault names its cause by code.
    this.d.log.warn({ station, link: spec, why: problem.why, reason: problem.report }, 'SAS port down');
    if (!spec.startsWith('uart:')) return;
    const say = linkDownSaid(spec, { port: problem.why });
    // The machine's silence may have raised it first (an open is slow on a loaded host): the reason
    // replaces it. Compared by what it says (its key, which names the cause, and its parameters), not by its English.
    const held = this.d.tilts.list().find((t) => t.kind === 'sas-link-down' && t.station === station);
    if (held && !isDeepStrictEqual(held.say, say)) this.d.tilts.conditionGone('sas-link-down', station, tiltDetailSaid('sasPortSaysWhy'));
    this.d.tilts.raise('sas-link-down', { station, say });
  }

  /** Bytes dropped past the line's budget: short of the flood cut nothing else says why the host's polls went unanswered (sampled: a flood drops a chunk a turn). */
  private overBudget(station: number, link: string, dropped: number, total: number): void {
    this.pollFailures.warn(
      `${station} over-budget`,
      { station, link, dropped, total },
      'SAS bytes dropped past the line’s budget: the peer sends faster than a SAS line carries, its polls unanswered',
    );
  }

  /** A failure in a feed or a note is logged and does not fail the appender or the poll; a feed's write of its file that fails is its own to log and try again (sas-feed.ts). */
  private guard(station: number, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.d.log.error({ err, station }, 'SAS exceptions from the journal');
    }
  }

  private checkLocks(): void {
    for (const [station, lock] of this.locks) this.guard(station, () => lock.check());
  }

  /** The station's SAS link, if it has one. */
  link(station: number): SasLink | null {
    return this.links.get(station) ?? null;
  }

  async close(): Promise<void> {
    this.offAppended?.();
    this.offAppended = null;
    this.offRemote?.();
    this.offRemote = null;
    this.feeds.clear();
    for (const l of this.locks.values()) l.dispose();
    // A cash-out still waiting for the system's number is given up unended: the next start's restart rule makes it a handpay.
    this.d.systemValidations?.close();
    this.locks.clear();
    for (const r of this.registrations.values()) r.dispose();
    this.registrations.clear();
    // Poll failures held back since their last line are said now, not lost with the process.
    this.pollFailures.close();
    await Promise.all([...this.links.values()].map((l) => l.close()));
    this.links.clear();
  }

  private gameSide(station: number): SasGameSide {
    const d = this.d;
    const changes = stateChanges((kind) => d.tilts.list().some((t) => t.kind === kind && t.station === station));
    const info: SasMachineInfo = {
      gameId: 'ET',
      additionalId: '000',
      denominationMinor: DENOMINATION_MINOR,
      maxBet: Math.floor(d.config.limits.max / DENOMINATION_MINOR),
      progressiveGroup: 0,
      gameOptions: 0,
      paytableId: d.config.game.slice(0, 6).toUpperCase().padEnd(6, '0'),
      basePercent: '0000',
      serialNumber: `${d.config.tableId}-S${station}`.slice(0, 40),
    };
    return {
      info,
      meters: () =>
        sasMetersOf(
          { station: d.ledger.meters(`station:${station}`), credit: d.ledger.credit(station), powerResets: d.ledger.meters('table').powerResets ?? 0 },
          DENOMINATION_MINOR,
        ),
      setPlay: (enabled) => {
        // Journalled by the fault manager before it takes effect: a restart keeps the station disabled.
        if (!changes.allows('sas-play-disabled', enabled)) return false;
        if (enabled) d.tilts.conditionGone('sas-play-disabled', station);
        else d.tilts.raise('sas-play-disabled', { station, say: tiltDetailSaid('sasLongPoll', { poll: '0x01' }) });
        return true;
      },
      setBillAcceptor: (enabled) => {
        if (!changes.allows('sas-bills-disabled', enabled)) return false;
        if (enabled) d.tilts.conditionGone('sas-bills-disabled', station);
        else d.tilts.raise('sas-bills-disabled', { station, say: tiltDetailSaid('sasLongPoll', { poll: '0x07' }) });
        d.billAcceptors.setInhibited(station, SAS_BILLS_REASON, !enabled);
        return true;
      },
      // Macau's time, as the tickets and screens give it, whatever zone the cabinet's system has (host/config/macau-time.ts).
      now: () => macauTime(Date.now()),
      // The host's clock is the operating system's (NTP): the casino's system may read it, not set it.
      setTime: () => false,
      handpay: () => handpayOf(d.pendingHandpay(station)),
      // A handpay is paid by an attendant who confirms it in service mode: never reset from the link.
      resetHandpay: (): HandpayResetResult => (d.pendingHandpay(station) ? 'unable' : 'none'),
      romImage: () => this.romImage(),
      ...this.ticketSide(station),
      ...this.aftSide(station),
    };
  }

  /** AFT (0x72, 0x74), where the station is configured for it (`stations[].sas.aft`). */
  private aftSide(station: number): Pick<SasGameSide, 'aft'> {
    const d = this.d;
    const aft = sasStations(d.config).find((s) => s.station === station)?.sas.aft;
    if (!aft) return {};
    // The station's own AFT lock does not refuse the transfer it was taken for.
    const refuseIn = (): string | null =>
      d.pendingHandpay(station) ? 'a handpay waiting' : (d.tilts.refusal(station, 'bet', 'sas-aft-locked')?.reason ?? null);
    const refuseOut = (): string | null => d.cashOutRefusal(station) ?? d.tilts.refusal(station, 'cash-out', 'sas-aft-locked')?.reason ?? null;
    const roomIn = (): number => creditRoom(d.ledger, station, d.config.creditLimit);
    // A ticket cash-out under way moves the credit (its issue takes it, a void puts it back): no lock meanwhile, whatever the condition.
    const creditMoving = (): string | null => d.creditMoving?.(station) ?? null;
    const lock = new StationAftLock({
      station,
      tilts: d.tilts,
      roundOpen: () => d.roundOpen(station),
      refuseIn,
      refuseOut,
      roomIn,
      creditMoving,
      timers: LOCK_TIMERS,
    });
    this.locks.set(station, lock);
    const registration = new StationAftRegistration({ ledger: d.ledger, station, assetNumber: aft.assetNumber });
    this.registrations.set(station, registration);
    return {
      aft: new StationAft({
        ledger: d.ledger,
        station,
        assetNumber: aft.assetNumber,
        limit: aft.limit,
        currency: d.config.currency,
        creditLimit: () => d.config.creditLimit,
        refuseIn,
        refuseOut,
        local: macauTime,
        lock,
        registration,
        onLockError: (err) => d.log.error({ err, station }, 'AFT: the transfer is done but its game lock did not end (its fault stays until a restart)'),
        ...(d.aftNotices ? { notice: d.aftNotices.at(station) } : {}),
        onNoticeError: (err) => d.log.error({ err, station }, 'AFT: the station screen could not be told of a transfer in (the system was answered)'),
      }),
    };
  }

  /**
   * The ticket polls (0x4C, 0x4D, 0x70, 0x71), only where the casino system validates the table's
   * tickets. A relayed line's 0x4C only reads: its bytes are the station machine's, and the id it
   * would set numbers every station's tickets, seated ones too (docs/sas.md, "Remote stations").
   */
  private ticketSide(station: number): Pick<SasGameSide, 'tickets'> {
    const sas = this.d.sasTickets;
    if (!sas) return {};
    const relayed = sasStations(this.d.config).find((s) => s.station === station)?.sas.link === 'agent';
    return {
      tickets: {
        redemption: sas.redemption(station),
        validationId: (requested) => sas.validationId(relayed ? { ...requested, machineId: 0 } : requested),
        validationInfo: (which) => this.validations.of(station, which),
      },
    };
  }

  /** The program's files as the start hashed them, in the manifest's order, read part by part at each 0x21 (program-image.ts). */
  private romImage(): AsyncIterable<Uint8Array> {
    return programImage(this.d.program.root, this.d.program.files);
  }
}

/**
 * Two stations at one address of one device both answer every poll to it: one 0x72 would credit
 * both (a review). The configuration refuses one path spelled two ways (its schema normalises
 * them); a device named through a symbolic link (`/dev/serial/by-id/…`) is found only here, where the
 * links open, and refused before any is: the host does not start.
 */
function refuseOneDeviceTwice(stations: readonly { station: number; sas: StationSas }[]): void {
  const at = new Map<string, number>();
  for (const { station, sas } of stations) {
    const m = /^(?:uart|serial):(.*)$/.exec(sas.link);
    if (!m?.[1]) continue;
    const device = deviceOf(m[1]);
    const key = `${device}#${sas.address}`;
    const other = at.get(key);
    if (other !== undefined)
      throw new Error(
        `stations ${other} and ${station}: SAS address ${sas.address} on one device (${device}, the configuration names it two ways): each station needs its own address`,
      );
    at.set(key, station);
  }
}

/** The device a path names, its symbolic links followed; a path that does not resolve (not plugged in yet) as it is. */
function deviceOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * What a station's `sas-link-down` says, by key (the Status page shows a fault's detail only so):
 * the link, and why: the casino system silent (`no-address`), polling with no answer acknowledged
 * (`no-ack`), or the port down, with its cause by code (`sasPort`, said by `sasPortWhy.<code>`).
 * The port's own report (the operating system's or the driver's English) is the host's log's
 * alone ("SAS port down"). Until 7 December the fault carried only the host's English
 * (`uart:… port: …`), which the Status page did not show in any language, and then that English
 * as a journalled parameter, its cause in no language's words.
 */
export function linkDownSaid(link: string, why: 'no-address' | 'no-ack' | { port: SasPortWhy }): Said {
  if (typeof why === 'object') return tiltDetailSaid('sasPortDown', { link, sasPort: why.port });
  return tiltDetailSaid(why === 'no-address' ? 'sasLinkSilent' : 'sasLinkNoAck', { link });
}

/** A lock's timer does not keep the process alive (the host's close disposes it anyway). */
const LOCK_TIMERS = unrefTimers;

function handpayOf(p: { amount: number } | null): SasHandpay | null {
  return sasHandpayOf(p, DENOMINATION_MINOR);
}

/**
 * Why the casino system may not take a station's credit by AFT now (0x72 type 80 answered 87, and
 * 0x74 offers no transfer from it), or null: a handpay waiting, bets in play, no credit, a ticket
 * in print, and an open winning-streak stake held (Macau 2009 Art. 13 5)). The last because the
 * system, not the player, asks, and 0x72 carries no confirmation of the player's: the stake would
 * stay held and be lost at the next round dealt without the station, nobody at the station told
 * (docs/sas.md, "AFT out with a winning-streak stake held").
 */
export function aftOutRefusal(
  floor: { handpays: Pick<Handpays, 'refusal'>; tickets: Pick<TicketOut, 'holdAt'>; gate: Pick<StationGate, 'streakRefusal'> },
  station: number,
): string | null {
  return floor.handpays.refusal(station)?.reason ?? floor.tickets.holdAt(station) ?? floor.gate.streakRefusal(station, false)?.reason ?? null;
}

type RemoteSasLinks = NonNullable<SasLinksDeps['remoteSas']>;

/** The stations' SAS links, opened once the devices are (docs/sas.md, "The host's wiring"). */
export function openSasLinks(
  options: { dataDir: string; sasTiming?: SasLinksDeps['timing'] },
  { config, ledger, log, layout, manifest }: Pick<Opened, 'config' | 'ledger' | 'log' | 'layout' | 'manifest'>,
  { tilts, billAcceptors, sasTickets, table }: Pick<TableRuntime, 'tilts' | 'billAcceptors' | 'sasTickets' | 'table'>,
  floor: Pick<WiredFloorServices, 'handpays' | 'tickets' | 'gate' | 'aftNotices'>,
  remoteSas?: RemoteSasLinks,
  stops?: StartStops,
): SasLinks {
  const sas = new SasLinks({
    config,
    ledger,
    tilts,
    billAcceptors,
    log,
    pendingHandpay: (station) => floor.handpays.pendingAt(station),
    roundOpen: (station) => table.reads.hasBets(station),
    cashOutRefusal: (station) => aftOutRefusal(floor, station),
    creditMoving: (station) => floor.tickets.holdAt(station),
    program: { root: layout.root, files: manifest.files.map(([file]) => file) },
    dataDir: options.dataDir,
    sasTickets,
    systemValidations: floor.tickets.system,
    aftNotices: floor.aftNotices,
    ...(remoteSas ? { remoteSas } : {}),
    ...(options.sasTiming ? { timing: options.sasTiming } : {}),
  });
  // A link that fails to open after others did (or a configuration refused before any) leaves them to `stops`.
  stops?.add('devices', 'the SAS links', () => sas.close());
  sas.start();
  return sas;
}

/**
 * The changes a system may make to a station's play and acceptor (0x01/0x02, 0x06/0x07): each one
 * is a journal entry (a fault raised or cleared), so at most `SAS_CHANGES_BURST` at once, then one
 * every `SAS_CHANGES_EVERY_MS`; a change past it is NACKed and taken when the system asks again. A
 * poll that changes nothing costs nothing. Before (a review), a system, or a station machine on a
 * relayed line, alternating 0x01 and 0x02 as fast as the line carries journalled every toggle:
 * hundreds of entries a second for one station. An honest system changes a station a few times a
 * shift.
 */
export const SAS_CHANGES_BURST = 10;
export const SAS_CHANGES_EVERY_MS = 5_000;

function stateChanges(held: (kind: 'sas-play-disabled' | 'sas-bills-disabled') => boolean) {
  const bucket = new TokenBucket(SAS_CHANGES_BURST, 1000 / SAS_CHANGES_EVERY_MS, () => performance.now());
  return {
    /** Whether setting `kind`'s condition to `enabled` may go ahead now (true when it changes nothing). */
    allows: (kind: 'sas-play-disabled' | 'sas-bills-disabled', enabled: boolean): boolean => held(kind) !== enabled || bucket.take(),
  };
}
