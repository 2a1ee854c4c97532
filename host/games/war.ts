import type { Card } from '../../engine/cards/card.js';
import { cardCode } from '../../engine/cards/card.js';
import { newWarCoup, warDecide, warExpected, warRank, warTakeCard, type WarAction, type WarCoup } from '../../engine/war/coup.js';
import { warProfile, type WarProfile } from '../../engine/war/profiles.js';
import { settleWarCoup } from '../../engine/war/settle.js';
import { newWarShoe, warAfterCoup, warCutCardOut, type WarShoe } from '../../engine/war/shoe-session.js';
import type { HandView, Prize } from '../../protocol/index.js';
import type { SettlementLine } from '../../engine/settlement/settlement-line.js';
import type { LiveGame, LiveRound, Pending } from '../table/live-game.js';

/**
 * The default when a seat lets its decision time run out after a tie: war. Going to war loses
 * less on average than surrendering half (about −0.31 of the bet against −0.5 under the Macau
 * payouts of Art. 7 n.5), so the default never costs the player more than the choice would.
 */
export const WAR_TIMEOUT_DEFAULT: WarAction = 'war';

/**
 * War doubles the initial bet (Art. 7 n.5); a seat whose credit cannot cover that raise cannot go
 * to war, so its timeout takes the one choice left to it by Art. 7 n.4: surrender half.
 */
export const WAR_TIMEOUT_FALLBACK: WarAction = 'surrender';

/** «Desafio ao Casino» through `engine/war`. */
export class WarGame implements LiveGame {
  readonly game = 'war' as const;
  readonly bets = ['main', 'tie'] as const;
  readonly decks: number;
  private readonly rules: WarProfile;
  private shoe: WarShoe;
  private needsShuffle = false;

  constructor(readonly profile: string) {
    this.rules = warProfile(profile);
    this.decks = this.rules.decks;
    this.shoe = newWarShoe(this.rules);
  }

  newShoe(): void {
    this.shoe = newWarShoe(this.rules);
    this.needsShuffle = false;
  }

  /** The tie bet (10 : 1) is the side bet celebrated when a coup ties. */
  prizeOf(line: Pick<SettlementLine, 'bet' | 'net'>): Prize | undefined {
    return line.net > 0 && line.bet === 'tie' ? 'side-bet' : undefined;
  }

  cutCard(): void {
    this.shoe = warCutCardOut(this.shoe);
  }

  lastRoundOfShoe(): boolean {
    return this.shoe.cutCardOut;
  }

  shoeFinished(): boolean {
    return this.needsShuffle;
  }

  shoeCue(): null {
    return null;
  }

  takeShoeCard(): { ok: false; reason: string } {
    return { ok: false, reason: 'no card is expected between coups' };
  }

  newRound(seats: ReadonlyMap<number, Readonly<Record<string, number>>>): LiveRound {
    let coup: WarCoup = newWarCoup(
      [...seats].map(([seat, b]) => ({ seat, bets: { main: b.main ?? 0, tie: b.tie ?? 0 } })),
      this.rules,
    );
    const mainOf = (seat: number) => seats.get(seat)?.main ?? 0;
    return {
      pending: (): Pending => {
        const e = warExpected(coup);
        switch (e.kind) {
          case 'complete':
            return { kind: 'done' };
          case 'decisions': {
            const seat = e.seats[0] as number;
            return {
              kind: 'decision',
              seat,
              legal: ['war', 'surrender'],
              default: WAR_TIMEOUT_DEFAULT,
              defaultCost: { amount: mainOf(seat), otherwise: WAR_TIMEOUT_FALLBACK },
            };
          }
          case 'burn':
            return { kind: 'card', cue: { kind: 'card', to: 'burn', burnsLeft: e.remaining } };
          case 'card':
            return { kind: 'card', cue: e.to === 'croupier' ? { kind: 'card', to: 'dealer' } : { kind: 'card', to: 'seat', seat: e.to } };
        }
      },
      takeCard: (card: Card) => {
        const e = warExpected(coup);
        if (e.kind !== 'card' && e.kind !== 'burn') return { ok: false, reason: `no card is expected (${e.kind})` };
        coup = warTakeCard(coup, card);
        const to = e.kind === 'burn' ? 'burn' : e.to === 'croupier' ? 'dealer' : `seat:${e.to}${e.phase === 'war' ? ':war' : ''}`;
        return { ok: true, to };
      },
      decide: (seat: number, action: string, canAfford: (amount: number) => boolean) => {
        const e = warExpected(coup);
        if (e.kind !== 'decisions' || !e.seats.includes(seat)) return { ok: false, reason: `seat ${seat} has no decision to make`, refusal: 'no-decision' };
        if (action !== 'war' && action !== 'surrender') return { ok: false, reason: `"${action}" is not war or surrender`, refusal: 'illegal-action' };
        // Going to war doubles the initial bet (Art. 7 n.5): the raise must be covered by credit.
        if (action === 'war' && !canAfford(mainOf(seat))) return { ok: false, reason: 'not enough credit to go to war', refusal: 'over-credit' };
        coup = warDecide(coup, seat, action);
        return { ok: true, extra: action === 'war' ? [{ seat, bet: 'main', amount: mainOf(seat) }] : [] };
      },
      hands: (): HandView[] => {
        const out: HandView[] = coup.seats.map((s, i) => {
          const first = coup.cards[i];
          const war = coup.wars[s.seat]?.seatCard;
          const cards = [first, war].filter((c): c is Card => c !== undefined);
          return { owner: 'seat', seat: s.seat, cards: cards.map(cardCode), total: cards.length ? warRank((cards.at(-1) as Card).rank) : null };
        });
        const dealer = [coup.croupier, ...Object.values(coup.wars).map((w) => w.croupierCard)].filter((c): c is Card => c !== undefined);
        out.push({ owner: 'dealer', cards: dealer.map(cardCode), total: dealer.length ? warRank((dealer.at(-1) as Card).rank) : null });
        return out;
      },
      settle: () => {
        const lines = settleWarCoup(coup, this.rules);
        const after = warAfterCoup(this.shoe);
        this.shoe = after.shoe;
        this.needsShuffle = after.next === 'shuffle';
        return lines;
      },
    };
  }
}
