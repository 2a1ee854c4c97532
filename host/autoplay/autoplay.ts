import type { Logger } from 'pino';
import { Rng } from '../../engine/random/seeded-rng.js';
import { decodeHostMessage, PROTOCOL_VERSION, type CommandBody, type ViewName, type ViewState } from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import { BlackjackChooser } from './blackjack-choice.js';

export interface AutoplayDeps {
  config: TableConfig;
  /** The host's screen connections: the players act through the same protocol path as a touch screen. */
  openSession(transport: ScreenTransport): ScreenSession;
  /** Each station view's launch token. */
  tokenFor(view: ViewName): string;
  /** Inserts a note (major units) into a station's simulated bill acceptor; false if it has none. */
  insertNote(station: number, denomination: number): boolean;
  seed: number;
  log: Logger;
  /** How often a player cashes out (a handpay the simulated attendant pays: sim-attendant.ts). */
  cashOutChance?: number;
}

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

  constructor(private readonly deps: AutoplayDeps) {}

  start(): void {
    for (const s of this.deps.config.stations) {
      this.players.push(new Player(this.deps, s.station, Rng.fromSeed(this.deps.seed * 100 + s.station)));
    }
    for (const p of this.players) p.connect();
  }

  stop(): void {
    for (const p of this.players) p.close();
  }
}

class Player {
  private session: ScreenSession | null = null;
  private closed = false;
  private readonly view: ViewName;
  private betRound = '';
  private decidedAt = -1;
  private noteRound = '';
  private cashOutRound = '';
  private readonly chooser: BlackjackChooser | null;
  private seq = 0;

  constructor(
    private readonly deps: AutoplayDeps,
    private readonly station: number,
    private readonly rng: Rng,
  ) {
    this.view = `station/${station}`;
    this.chooser = deps.config.game === 'blackjack' ? new BlackjackChooser(deps.config.profile) : null;
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

  private chance(p: number): boolean {
    return this.rng.below(1_000_000) < p * 1_000_000;
  }

  private receive(text: string): void {
    if (this.closed) return;
    const d = decodeHostMessage(text);
    if (!d.ok || d.message.type !== 'snapshot' || d.message.view !== this.view) return;
    this.act(d.message.version, d.message.state);
  }

  private act(version: number, state: ViewState): void {
    if (state.kind !== 'station') return;
    const roundId = state.round?.roundId ?? '';
    const { min, max } = state.limits;
    if (state.betting.open && roundId && this.noteRound !== roundId && (state.credit < min || this.chance(0.03))) {
      this.noteRound = roundId;
      const note = NOTES[this.rng.below(NOTES.length)] as number;
      this.deps.insertNote(this.station, note);
    }
    if (state.decision && version !== this.decidedAt) {
      this.decidedAt = version;
      const action = this.decide(state);
      return this.command(version, { name: 'decide', action });
    }
    if (state.betting.open && roundId && this.betRound !== roundId && Object.keys(state.betting.bets).length === 0) {
      this.betRound = roundId;
      if (this.cashOutRound !== roundId && this.chance(this.deps.cashOutChance ?? 0.01)) {
        this.cashOutRound = roundId;
        return this.command(version, { name: 'cash-out' });
      }
      if (state.credit < min || !this.chance(0.85)) return;
      const spot = state.betting.spots.find((s) => s.bet === 'main') ?? state.betting.spots[0];
      if (!spot) return;
      // Half the credit at most, so that raises (war, double, split) can usually be covered.
      const top = Math.min(max, spot.max, Math.floor(state.credit / 2));
      const units = Math.max(1, Math.floor(top / min));
      const amount = min * (1 + this.rng.below(Math.min(units, 10)));
      if (amount > state.credit) return;
      this.command(version, { name: 'place-bet', bet: spot.bet, amount });
    }
  }

  private decide(state: Extract<ViewState, { kind: 'station' }>): string {
    const d = state.decision;
    if (!d) return '';
    if (this.chooser) return this.chooser.choose(d, state.round?.hands ?? []);
    if (d.legal.includes('war') && d.legal.includes('surrender')) return this.chance(0.8) ? 'war' : 'surrender';
    return d.default;
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
