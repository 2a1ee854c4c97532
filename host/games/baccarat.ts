import type { Card } from '../../engine/cards/card.js';
import { cardCode } from '../../engine/cards/card.js';
import { baccaratProfile, type BaccaratProfile } from '../../engine/baccarat/profiles.js';
import { settleBaccaratSeat, BACCARAT_BETS, type BaccaratBets } from '../../engine/baccarat/settle.js';
import { cutCardOut, newShoeSession, shoeExpected, shoeTake, voidCoup, type ShoeSession } from '../../engine/baccarat/shoe-session.js';
import { handTotal, type CoupResult } from '../../engine/baccarat/tableau.js';
import type { SettlementLine } from '../../engine/settlement/settlement-line.js';
import type { HandView, Prize } from '../../protocol/index.js';
import type { LiveGame, LiveRound, Outcome, Pending } from '../table/live-game.js';

/** Punto banco through `engine/baccarat`: the shoe session places every card, burns included. */
export class BaccaratGame implements LiveGame {
  readonly game = 'baccarat' as const;
  readonly bets = BACCARAT_BETS;
  readonly decks: number;
  private readonly rules: BaccaratProfile;
  private shoe: ShoeSession;

  constructor(readonly profile: string) {
    this.rules = baccaratProfile(profile);
    this.decks = this.rules.decks;
    this.shoe = newShoeSession(this.rules);
  }

  newShoe(): void {
    this.shoe = newShoeSession(this.rules);
  }

  /** The pairs are the table's additional bets; a tie is a main bet (8 : 1) and not celebrated. */
  prizeOf(line: Pick<SettlementLine, 'bet' | 'net'>): Prize | undefined {
    return line.net > 0 && (line.bet === 'playerPair' || line.bet === 'bankerPair') ? 'side-bet' : undefined;
  }

  cutCard(): void {
    this.shoe = cutCardOut(this.shoe);
  }

  /** The coup in play was voided: its cards must not start the next coup. */
  voidRound(): void {
    this.shoe = voidCoup(this.shoe);
  }

  lastRoundOfShoe(): boolean {
    // The cut card is out: the coups left (Art. 2's procedure) are the last of the shoe.
    return this.shoe.coupsLeft !== null;
  }

  shoeFinished(): boolean {
    return shoeExpected(this.shoe).kind === 'shoe-finished';
  }

  shoeCue(): ReturnType<LiveGame['shoeCue']> {
    const e = shoeExpected(this.shoe);
    if (e.kind === 'burn-indicator') return { kind: 'card', to: 'burn' };
    if (e.kind === 'burn') return { kind: 'card', to: 'burn', burnsLeft: e.remaining };
    return null;
  }

  takeShoeCard(card: Card): Outcome<{ to: string }> {
    if (this.shoeCue() === null) return { ok: false, reason: 'no burn is expected now' };
    this.shoe = shoeTake(this.shoe, card).session;
    return { ok: true, to: 'burn' };
  }

  newRound(seats: ReadonlyMap<number, Readonly<Record<string, number>>>): LiveRound {
    let result: CoupResult | null = null;
    const bets = new Map([...seats].map(([seat, b]) => [seat, b as BaccaratBets]));
    return {
      pending: (): Pending => {
        if (result) return { kind: 'done' };
        const e = shoeExpected(this.shoe);
        if (e.kind !== 'card') throw new Error(`a coup cannot start now: ${e.kind}`);
        return { kind: 'card', cue: { kind: 'card', to: e.to } };
      },
      takeCard: (card: Card) => {
        const e = shoeExpected(this.shoe);
        if (result || e.kind !== 'card') return { ok: false, reason: 'the coup expects no more cards' };
        const taken = shoeTake(this.shoe, card);
        this.shoe = taken.session;
        result = taken.completed;
        return { ok: true, to: e.to };
      },
      decide: () => ({ ok: false, reason: 'baccarat has no decisions', refusal: 'no-decision' }),
      hands: (): HandView[] => {
        const coup = result ? { player: result.player, banker: result.banker } : this.shoe.coup;
        const view = (owner: 'player' | 'banker', cards: readonly Card[]): HandView => ({
          owner,
          cards: cards.map(cardCode),
          total: cards.length ? handTotal(cards) : null,
        });
        return [view('player', coup.player), view('banker', coup.banker)];
      },
      settle: (): SettlementLine[] => {
        if (!result) throw new Error('the coup is not complete');
        const r = result;
        return [...bets].flatMap(([seat, b]) => settleBaccaratSeat(seat, b, r, this.rules));
      },
    };
  }
}
