import {
  protocolError,
  stationOf,
  type CommandBody,
  type Language,
  type ProtocolError,
  type StationTransfers,
  type TransferCommand,
  type ViewName,
} from '../../protocol/index.js';
import { hasLanguage } from '../../locales/index.js';
import type { Outcome } from '../../engine/table/game.js';
import type { StationGate } from '../floor/station-gates.js';
import type { ServiceHost } from '../service/service-host.js';
import type { LiveTable } from '../table/runtime.js';
import { isTableCommand, stationCommand, type TableCommandBody } from '../table/station-command.js';

/** Where a station's credit moves between tables are decided (host/peers/host-transfers.ts). */
export interface StationCreditMoves {
  /** `gate`: asked after the transfer's own refusals, before anything is journalled (StationGate.streakRefusal). */
  command(station: number, command: TransferCommand, gate?: () => Outcome | null): Outcome;
  /** The station's transfers this host sent or took (its screen lists them). */
  transfersOf(station: number): StationTransfers;
  /** Calls back on each change to the transfers. */
  watch(listener: () => void): void;
}

export type ApplyResult = { ok: true; version: number } | { ok: false; error: ProtocolError };

/** What the commands read and change of the views (the hub), and who else decides a command. */
export interface CommandRoutes {
  readonly table: LiveTable;
  /** The view's version now (built now if it never was). */
  version(view: ViewName, conn?: string): number;
  /** The screen's language, its view built again in it. */
  setLanguage(view: ViewName, conn: string | undefined, language: Language): void;
  /** The faults and handpays, the transfers with peer tables and service mode, once attached. */
  floor(): StationGate | null;
  transfers(): StationCreditMoves | null;
  service(): ServiceHost | null;
}

/**
 * Where a screen's command goes, each made against a version of its view (a stale one is
 * refused): a station's bet, chips cleared or decision to the table's group commit, answered once
 * durable (journalled before acknowledged); a cash-out to the floor; a credit move to the peer
 * tables; a service command to service mode; a language to the views. Routing only: the views,
 * their versions and patches are the hub's.
 */
export class ScreenCommands {
  /** Each station view's last command still waiting for its answer (its group commit). */
  private readonly answering = new Map<string, Promise<ApplyResult>>();

  constructor(private readonly routes: CommandRoutes) {}

  /**
   * A screen's command: a station's bet, chips cleared or decision goes to the table's group
   * commit and its result comes once the commit is durable (journalled before acknowledged);
   * every other command is applied at once, as `apply` does.
   */
  submit(view: ViewName, version: number, command: CommandBody, conn?: string): ApplyResult | Promise<ApplyResult> {
    // A station's commands are judged one after another, each against the version the one before
    // it left: a command that comes while another of the same view waits for its group commit
    // waits for that one's answer, then is checked as if it had come alone. Without this, two bets
    // made against one version (a resend, a double tap, a station replaying its own command) both
    // passed the version check inside one window and were both staked (issue 30).
    if (stationOf(view) === null) return this.submitNow(view, version, command, conn);
    const key = view;
    const ahead = this.answering.get(key);
    const now = () => this.submitNow(view, version, command, conn);
    const r = ahead ? ahead.then(now, now) : now();
    if (!(r instanceof Promise)) return r;
    const tail: Promise<ApplyResult> = r.finally(() => {
      if (this.answering.get(key) === tail) this.answering.delete(key);
    });
    this.answering.set(key, tail);
    return tail;
  }

  /**
   * A bet, chips cleared or a decision: the one path a station's command to the table takes (the
   * table's group commit); every other command is applied at once by `apply`.
   */
  private submitNow(view: ViewName, version: number, command: CommandBody, conn?: string): ApplyResult | Promise<ApplyResult> {
    if (!isTableCommand(command)) return this.apply(view, version, command, conn);
    const current = this.routes.version(view, conn);
    if (version !== current) return this.stale(view, version, current);
    const station = stationOf(view);
    if (station === null) return { ok: false, error: protocolError('rejected', `${command.name} is a station command`, { view, refusal: 'not-a-station' }) };
    const gated = this.routes.floor()?.refuse(station, command.name);
    if (gated) return { ok: false, error: protocolError('rejected', gated.reason, { view, currentVersion: current, refusal: gated.refusal }) };
    const outcome = this.routes.table.submit(stationCommand(station, command));
    return outcome instanceof Promise ? outcome.then((r) => this.result(view, r)) : this.result(view, outcome);
  }

  private stale(view: ViewName, version: number, current: number): ApplyResult {
    return {
      ok: false,
      error: protocolError('stale-version', `command made against version ${version}, view is at ${current}`, { view, currentVersion: current }),
    };
  }

  /** A command's outcome as the screen is answered: the view's version after it, or the refusal. */
  private result(view: ViewName, r: Outcome): ApplyResult {
    if (!r.ok) {
      const extra = { view, currentVersion: this.routes.version(view), ...(r.refusal ? { refusal: r.refusal } : {}) };
      return { ok: false, error: protocolError('rejected', r.reason, extra) };
    }
    return { ok: true, version: this.routes.version(view) };
  }

  /**
   * Applies a command that is not the table's, made against `version` of `view`; a stale version is
   * refused. A bet, chips cleared or a decision goes through `submit` (the table's group commit):
   * the type keeps them out, so no second path to the table is left to test instead of the product's.
   */
  apply(view: ViewName, version: number, command: Exclude<CommandBody, TableCommandBody>, conn?: string): ApplyResult {
    const current = this.routes.version(view, conn);
    if (version !== current) return this.stale(view, version, current);
    if (command.name === 'set-language') {
      // The protocol takes any well-formed tag; a screen is kept only to a language it has words for.
      if (!hasLanguage(command.language))
        return { ok: false, error: protocolError('rejected', `no catalogue for ${command.language}`, { view, currentVersion: current }) };
      this.routes.setLanguage(view, conn, command.language);
      return { ok: true, version: this.routes.version(view, conn) };
    }
    const service = this.routes.service();
    if (view === 'service' && service && conn !== undefined && command.name.startsWith('service-')) {
      const r = service.apply(conn, command);
      if (!r.ok) {
        return {
          ok: false,
          error: {
            ...protocolError('rejected', r.detail, { view, currentVersion: this.routes.version(view, conn) }),
            messageKey: `service.refused.${r.reason}`,
          },
        };
      }
      return { ok: true, version: this.routes.version(view, conn) };
    }
    const station = stationOf(view);
    if (station === null) return { ok: false, error: protocolError('rejected', `${command.name} is a station command`, { view, refusal: 'not-a-station' }) };
    const floor = this.routes.floor();
    if (command.name === 'move-credit' || command.name === 'leave-table') {
      // Credit leaving this table is gated as a cash-out is (a halted table, a locked station).
      const held = floor?.refuse(station, command.name);
      if (held) return { ok: false, error: protocolError('rejected', held.reason, { view, currentVersion: current, refusal: held.refusal }) };
      // An open winning-streak stake stays here: the player must have confirmed leaving it (docs/rules/blackjack.md).
      const streak = () => floor?.streakRefusal(station, command.endsStreak === true) ?? null;
      const moved = this.routes.transfers()?.command(station, command, streak) ?? {
        ok: false as const,
        reason: 'this table has no peer tables',
        refusal: 'unknown-table' as const,
      };
      return this.result(view, moved);
    }
    if (command.name !== 'cash-out') {
      return { ok: false, error: protocolError('rejected', `${command.name} is a service command`, { view, refusal: 'not-a-station' }) };
    }
    const gated = floor?.refuse(station, command.name);
    if (gated) return { ok: false, error: protocolError('rejected', gated.reason, { view, currentVersion: current, refusal: gated.refusal }) };
    const r = floor?.cashOut(station, command.via, command.endsStreak === true) ?? {
      ok: false as const,
      reason: 'cash-out is not available at this table',
      refusal: 'cash-out-empty' as const,
    };
    return this.result(view, r);
  }
}
