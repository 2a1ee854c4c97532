import type { Logger } from 'pino';
import { decisionAdvisor } from '../../engine/games.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import type { DecisionAdvisor } from '../../engine/table/advisor.js';
import {
  amountOn,
  decodeHostMessage,
  PROTOCOL_VERSION,
  ViewComposer,
  type BetSpot,
  type CommandBody,
  type DecisionAction,
  type Spot,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import type { RoundPlan } from './round-script.js';
import { windowMoney } from './window-money.js';

export interface AutoplayDeps {
  config: TableConfig;
  /** The host's screen connections: the players act through the same protocol path as a touch screen. */
  openSession(transport: ScreenTransport): ScreenSession;
  /** Each station view's launch token. */
  tokenFor(view: ViewName): string;
  /** Inserts a note (major units) into a station's simulated bill acceptor; false if it has none or it is still taking the last one. */
  insertNote(station: number, denomination: number): boolean;
  seed: number;
  log: Logger;
  /** How often a player cashes out (a ticket where the station prints one, else a handpay the simulated attendant pays: sim-attendant.ts). */
  cashOutChance?: number;
  /** Takes the tickets out of a station's simulated printer: their validation numbers (none without one). */
  takeTickets?(station: number): string[];
  /** Inserts a ticket's barcode into a station's simulated ID-003 acceptor; false if it takes none or is still taking the last one. */
  insertTicket?(station: number, barcode: string): boolean;
  /** Each station's credit meter (the ledger's), so scripted players can wait for one another. */
  credit?: (station: number) => number;
  /** Test only: the first round's bets and decisions per station (round-script.ts). */
  script?: RoundPlan;
}

/** A scripted player bets only with this multiple of its scripted bets in credit: room for its raises. */
const SCRIPT_HEADROOM = 4;

/** Notes a simulated player feeds, in major units. */
const NOTES = [100, 500, 1000];

/**
 * Simulated players, one per station, seeded: random bets within the limits and the credit,
 * basic strategy at blackjack, war or surrender at war, an occasional note through the simulated
 * bill acceptor and an occasional cash-out request. Everything goes through a ScreenSession, as
 * from a station's screen: hello with the launch token, subscribe, commands against the version
 * on screen; refusals (stale version, betting closed) are ordinary and just skipped.
 */
export class Autoplay {
  private readonly players: Player[] = [];
  /** The players' cash-out tickets, taken from the printers, to be inserted at another station (docs/tito.md). */
  private readonly pocket: { barcode: string; from: number; tried: boolean }[] = [];
  private readonly hand: TicketHand = {
    take: (station) => {
      for (const barcode of this.deps.takeTickets?.(station) ?? []) this.pocket.push({ barcode, from: station, tried: false });
    },
    fresh: (station) => this.pocket.some((t) => t.from !== station && !t.tried),
    holds: (station) => this.pocket.some((t) => t.from !== station),
    insertAt: (station) => {
      // A fresh ticket first; else one tried before (sent back offline, or a replay of one paid).
      const fresh = this.pocket.findIndex((t) => t.from !== station && !t.tried);
      const i = fresh >= 0 ? fresh : this.pocket.findIndex((t) => t.from !== station);
      const t = this.pocket[i];
      if (!t) return false;
      // Kept after: a ticket sent back (offline, say) is tried again later, one paid is a replay the floor refuses.
      if (!this.deps.insertTicket?.(station, t.barcode)) return false;
      this.pocket.splice(i, 1);
      if (this.pocket.length < 20) this.pocket.push({ ...t, from: station, tried: true });
      return true;
    },
  };

  constructor(private readonly deps: AutoplayDeps) {}

  start(): void {
    const script = this.deps.script;
    // Every scripted station must be able to cover its bets before any of them bets, so that the
    // scripted round is the first one with bets, whole. Decided once per round, when its window is
    // first seen (just opened), so that every player agrees and every bet fits in the window.
    const decided = new OncePerRound(() =>
      Object.entries(script?.stations ?? {}).every(([st, s]) => (this.deps.credit?.(Number(st)) ?? 0) >= SCRIPT_HEADROOM * total(s.bets)),
    );
    const ready = (roundId: string) => decided.ask(roundId);
    for (const s of this.deps.config.stations) {
      const mine = script?.stations[String(s.station)];
      this.players.push(new Player(this.deps, s.station, Rng.fromSeed(this.deps.seed * 100 + s.station), mine ? { ...mine, ready } : null, this.hand));
    }
    for (const p of this.players) p.connect();
  }

  stop(): void {
    for (const p of this.players) p.close();
  }
}

/**
 * A yes or no decided once per round, the first time the round is asked about: every asker of the
 * round gets the same. The last `KEPT_ROUNDS` rounds' answers are kept (the players ask while a
 * round's window is open, a player late by a change at most a round behind), not every round's the
 * host played (issue 52: it runs for weeks).
 */
export class OncePerRound {
  static readonly KEPT_ROUNDS = 4;
  private readonly decided = new Map<string, boolean>();

  constructor(private readonly decide: () => boolean) {}

  ask(roundId: string): boolean {
    let answer = this.decided.get(roundId);
    if (answer === undefined) {
      answer = this.decide();
      this.decided.set(roundId, answer);
      for (const oldest of this.decided.keys()) {
        if (this.decided.size <= OncePerRound.KEPT_ROUNDS) break;
        this.decided.delete(oldest);
      }
    }
    return answer;
  }

  /** The rounds whose answer it keeps. */
  get kept(): number {
    return this.decided.size;
  }
}

/** The players' tickets: taken from a station's printer, inserted at another station's acceptor. */
interface TicketHand {
  take(station: number): void;
  /** The players hold a ticket printed at another station that no acceptor has seen yet. */
  fresh(station: number): boolean;
  /** The players hold any ticket printed at another station. */
  holds(station: number): boolean;
  /** Inserts a ticket printed at another station here; false if the player holds none or the acceptor is busy. */
  insertAt(station: number): boolean;
}

class Player {
  private session: ScreenSession | null = null;
  private closed = false;
  private readonly view: ViewName;
  private betRound = '';
  /** The round this player last considered the jackpot chip in, how many rounds they have, whether they want it this one, and the view version they last pressed at. */
  private jackpotRound = '';
  private jackpotRounds = 0;
  private jackpotWanted = false;
  private jackpotPressedAt = -1;
  private behindRound = '';
  private decidedAt = -1;
  /** The betting window this player last decided its money in. */
  private moneyRound = '';
  private cashOutRound = '';
  private readonly chooser: DecisionAdvisor | null;
  private seq = 0;
  private readonly composer: ViewComposer;
  /** The scripted round's id once its bets went in; its scripted decisions taken so far. */
  private scriptRound: string | null = null;
  private scriptDone = false;
  private scriptDecided = 0;

  constructor(
    private readonly deps: AutoplayDeps,
    private readonly station: number,
    private readonly rng: Rng,
    private readonly script: { bets: { spot: Spot; amount: number }[]; decisions: DecisionAction[]; ready: (roundId: string) => boolean } | null = null,
    private readonly tickets: TicketHand | null = null,
  ) {
    this.view = `station/${station}`;
    this.composer = new ViewComposer(this.view, { resync: (parts) => this.send({ type: 'resync', id: this.id(), view: this.view, parts }) });
    this.chooser = decisionAdvisor(deps.config.game, deps.config.profile, (p) => this.chance(p));
  }

  connect(): void {
    this.session = this.deps.openSession({
      send: (text) => {
        if (!this.closed) setImmediate(() => this.receive(text));
      },
      close: () => {
        this.closed = true;
      },
    });
    this.send({ type: 'hello', id: this.id(), protocol: PROTOCOL_VERSION, token: this.deps.tokenFor(this.view) });
    this.send({ type: 'subscribe', id: this.id(), view: this.view });
  }

  close(): void {
    this.closed = true;
    this.session?.dispose();
  }

  /** A ticket out of this station's printer is taken; then a ticket printed elsewhere, a note, or nothing goes in (window-money.ts). */
  private feed(credit: number, min: number, reserve: number): void {
    this.tickets?.take(this.station);
    const short = credit < min + reserve;
    const holdsFresh = this.tickets?.fresh(this.station) ?? false;
    const holdsTickets = this.tickets?.holds(this.station) ?? false;
    const move = windowMoney({ credit, min, reserve, holdsFresh, holdsTickets }, (p) => this.chance(p));
    // A ticket the acceptor is too busy for: a player short of credit feeds a note instead.
    if (move === 'ticket' && this.tickets?.insertAt(this.station)) return;
    if (move === 'note' || short) this.deps.insertNote(this.station, NOTES[this.rng.below(NOTES.length)] as number);
  }

  private chance(p: number): boolean {
    return this.rng.below(1_000_000) < p * 1_000_000;
  }

  private receive(text: string): void {
    if (this.closed) return;
    const d = decodeHostMessage(text);
    if (!d.ok) return;
    // A station's own part and the public round come apart: the composer puts the view together.
    const view = this.composer.take(d.message);
    if (view) this.act(view.version, view.state);
  }

  private act(version: number, state: ViewState): void {
    if (state.kind !== 'station') return;
    const roundId = state.round?.roundId ?? '';
    if (this.script && !this.scriptDone) return this.actScripted(version, state, this.script);
    const { min, max } = state.limits;
    // At a jackpot table a player keeps a chip's worth beside the main bet (rule 45: the chip goes
    // with a main bet): without it a player down to one minimum never plays the chip.
    const jackpot = state.betting.spots.find(isJackpot);
    const reserve = jackpot?.min ?? 0;
    if (state.betting.open && roundId && this.moneyRound !== roundId) {
      this.moneyRound = roundId;
      this.feed(state.credit, min, reserve);
    }
    if (state.decision && version !== this.decidedAt) {
      this.decidedAt = version;
      const action = this.decide(state);
      return this.command(version, { name: 'decide', action });
    }
    // Portugal's progressive jackpot (rules 45, 47): one chip beside a main bet, every other round,
    // the first round a player bets in included, so that every host's life with bets plays chips (a
    // coin per round drew from one seeded sequence per life: a short soak killed every four rounds
    // had no chip at all in some runs). Pressed again at each newer view until the chip shows, as a
    // player does after a stale refusal (another station's bet moved the view on).
    const hasMain = state.betting.bets.some(isMain);
    const hasChip = state.betting.bets.some(isJackpot);
    if (jackpot && state.betting.open && roundId && this.betRound === roundId && hasMain && !hasChip) {
      if (this.jackpotRound !== roundId) {
        this.jackpotRound = roundId;
        this.jackpotWanted = this.jackpotRounds++ % 2 === 0;
      }
      if (this.jackpotWanted && version !== this.jackpotPressedAt && state.credit >= jackpot.min) {
        this.jackpotPressedAt = version;
        return this.command(version, { name: 'place-bet', spot: spotOf(jackpot), amount: jackpot.min });
      }
      if (this.jackpotWanted) return;
    }
    // Now and then a bet behind another station's seat too (Art. 20; rules 15, 28, 30), so soaks
    // play bets behind: decided by the seat, charged and paid here.
    const behind = state.betting.spots.filter(isBehind);
    const spot = behind[this.rng.below(Math.max(1, behind.length))];
    if (state.betting.open && roundId && this.behindRound !== roundId && this.betRound === roundId && spot && state.betting.bets.length === 1) {
      this.behindRound = roundId;
      if (this.chance(0.25) && state.credit >= 3 * spot.min) return this.command(version, { name: 'place-bet', spot: spotOf(spot), amount: spot.min });
    }
    if (state.betting.open && roundId && this.betRound !== roundId && state.betting.bets.length === 0) {
      this.betRound = roundId;
      if (this.cashOutRound !== roundId && state.credit > 0 && this.chance(this.deps.cashOutChance ?? 0.01)) {
        this.cashOutRound = roundId;
        return this.command(version, { name: 'cash-out' });
      }
      const free = state.credit - reserve;
      if (free < min || !this.chance(0.85)) return;
      const spot = state.betting.spots.find(isMain) ?? state.betting.spots[0];
      if (!spot) return;
      // Half the credit at most, so that raises (war, double, split) can usually be covered.
      const top = Math.min(max, spot.max, Math.floor(free / 2));
      const units = Math.max(1, Math.floor(top / min));
      const amount = min * (1 + this.rng.below(Math.min(units, 10)));
      if (amount > free) return;
      this.command(version, { name: 'place-bet', spot: spotOf(spot), amount });
    }
  }

  /**
   * The scripted round: a note until the scripted bets (and room for raises) are covered, the
   * bets once every scripted station is ready, at the start of a fresh window, then the scripted
   * decisions in order where legal (else the player's own choice).
   */
  private actScripted(version: number, state: Extract<ViewState, { kind: 'station' }>, script: NonNullable<Player['script']>): void {
    const roundId = state.round?.roundId ?? '';
    if (this.scriptRound !== null && roundId !== this.scriptRound) {
      this.scriptDone = true;
      return this.act(version, state);
    }
    if (state.decision && version !== this.decidedAt) {
      this.decidedAt = version;
      const next = script.decisions[this.scriptDecided];
      const action = next !== undefined && state.decision.legal.includes(next) ? next : this.decide(state);
      if (action === next) this.scriptDecided++;
      return this.command(version, { name: 'decide', action });
    }
    if (!state.betting.open || !roundId) return;
    if (this.scriptRound === null) {
      if (!script.ready(roundId)) {
        if (state.credit < SCRIPT_HEADROOM * total(script.bets) && this.moneyRound !== roundId) {
          this.moneyRound = roundId;
          this.deps.insertNote(this.station, 1000);
        }
        return;
      }
      this.scriptRound = roundId;
    }
    const missing = script.bets.find((b) => amountOn(state.betting.bets, b.spot) < b.amount);
    if (!missing) return;
    this.command(version, { name: 'place-bet', spot: missing.spot, amount: missing.amount - amountOn(state.betting.bets, missing.spot) });
  }

  private decide(state: Extract<ViewState, { kind: 'station' }>): DecisionAction {
    const d = state.decision;
    if (!d) return 'stand';
    return this.chooser ? this.chooser.choose(d, state.round?.hands ?? []) : d.default;
  }

  private command(version: number, command: CommandBody): void {
    this.send({ type: 'command', id: this.id(), view: this.view, version, command });
  }

  private send(m: object): void {
    if (!this.closed) this.session?.receive(JSON.stringify(m));
  }

  private id(): string {
    return `a${this.station}-${++this.seq}`;
  }
}

// The spots and bets looked for at every view, as functions made once: a closure made at every
// call is a new function to V8, optimised again and again over a long run (issue 52).
const isMain = (x: { bet: string }): boolean => x.bet === 'main';
const isJackpot = (x: { bet: string }): boolean => x.bet === 'jackpot';
const isBehind = (x: { bet: string }): boolean => x.bet === 'behind';

function total(bets: readonly { amount: number }[]): number {
  return bets.reduce((a, b) => a + b.amount, 0);
}

/** The spot a betting panel's spot names (its limits aside). */
function spotOf(s: BetSpot): Spot {
  if (!('seat' in s)) return { bet: s.bet };
  return s.bet === 'behind' ? { bet: 'behind', seat: s.seat } : { bet: s.bet, seat: s.seat };
}
