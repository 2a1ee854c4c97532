/**
 * Settlement of a «Desafio ao Casino» coup (Art. 7), one line per bet.
 *
 * Reading of Art. 7 n.5 ("o valor em jogo"): with an initial bet B the player adds B and the
 * croupier adds B, so 3B is in play of which the player staked 2B.
 * - al.1, player higher: "o jogador ganha o valor em jogo" — the player receives the 3B: net +B.
 * - al.2, tie again: the 3B and "um montante igual ao da aposta inicial": receives 4B, net +2B.
 * - al.3, player lower: "a casa ganha o valor em jogo": the player loses the 2B staked, net −2B.
 * The main line of a seat that went to war shows stake 2B (initial bet plus the raise).
 * Surrender (n.4 al.1) loses half the initial bet; half of an odd number of minor units is
 * rounded down (the house never takes more than half).
 */
import { assertMinorUnits, type SettlementLine } from '../settlement/settlement-line.js';
import type { Card } from '../cards/card.js';
import { compareCards, warExpected, type SeatWar, type WarAction, type WarBets, type WarCoup } from './coup.js';
import { WAR_RULES, warRulesOf, type WarProfile } from './profiles.js';

// A top-level function, not a closure: the simulator calls this millions of times.
function mainLine(seat: number, stake: number, net: number, rule: string): SettlementLine {
  // A stake so large that the raise or the prize is no longer an exact integer is refused.
  assertMinorUnits(stake, `seat ${seat} main stake after the raise`);
  assertMinorUnits(net, `seat ${seat} main result`);
  return { seat, bet: 'main', stake, net, rule };
}

/** One bettor's card against the croupier's, its choice after a tie and its war's cards, as Art. 7 settles them. */
interface Played {
  readonly seat: number;
  readonly bets: WarBets;
  readonly card: Card;
  readonly decision: WarAction | undefined;
  /** The decision was the timeout's default, not the player's. */
  readonly timedOut: boolean;
  readonly war: SeatWar | undefined;
}

function settleBettor(p: Played, croupier: Card, profile: Pick<WarProfile, 'tiePays'>, rules: ReturnType<typeof warRulesOf>): SettlementLine[] {
  const out: SettlementLine[] = [];
  const first = compareCards(p.card, croupier);
  const main = p.bets.main ?? 0;
  const tie = p.bets.tie ?? 0;
  if (main > 0) {
    assertMinorUnits(main, `seat ${p.seat} main`);
    if (first > 0) out.push(mainLine(p.seat, main, main, rules.win));
    else if (first < 0) out.push(mainLine(p.seat, main, -main, rules.lose));
    else if (p.decision === undefined) out.push(mainLine(p.seat, main, 0, rules.mainReturned));
    else if (p.decision === 'surrender') out.push(mainLine(p.seat, main, 0 - Math.floor(main / 2), p.timedOut ? rules.surrenderTimedOut : rules.surrender));
    else {
      if (p.war?.seatCard === undefined || p.war.croupierCard === undefined) throw new Error('unreachable: war without its cards');
      const r = compareCards(p.war.seatCard, p.war.croupierCard);
      const stake = 2 * main;
      if (r > 0) out.push(mainLine(p.seat, stake, main, rules.warHigher));
      else if (r === 0) out.push(mainLine(p.seat, stake, 2 * main, rules.warTie));
      else out.push(mainLine(p.seat, stake, -stake, rules.warLower));
    }
  }
  if (tie > 0) {
    assertMinorUnits(tie, `seat ${p.seat} tie`);
    const net = first === 0 ? tie * profile.tiePays : -tie;
    assertMinorUnits(net, `seat ${p.seat} tie result`);
    out.push({ seat: p.seat, bet: 'tie', stake: tie, net, rule: first === 0 ? rules.tieBetWins : first > 0 ? rules.win : rules.lose });
  }
  return out;
}

function completeCroupier(c: WarCoup): Card {
  const e = warExpected(c);
  if (e.kind !== 'complete') throw new Error(`the coup is not complete (${e.kind} expected)`);
  if (c.croupier === undefined) throw new Error('unreachable: complete coup without croupier card');
  return c.croupier;
}

/** The seats' lines (the box's are `settleWarBox`'s). */
export function settleWarCoup(c: WarCoup, profile: Pick<WarProfile, 'tiePays' | 'id'>): SettlementLine[] {
  const rules = warRulesOf(profile.id);
  const croupier = completeCroupier(c);
  const out: SettlementLine[] = [];
  for (let i = 0; i < c.seats.length; i++) {
    const s = c.seats[i] as WarCoup['seats'][number];
    const card = c.cards[i];
    if (card === undefined) throw new Error('unreachable: complete coup with a seat missing its card');
    for (const l of settleBettor(
      { seat: s.seat, bets: s.bets, card, decision: c.decisions[s.seat], timedOut: c.timedOut?.includes(s.seat) === true, war: c.wars[s.seat] },
      croupier,
      profile,
      rules,
    ))
      out.push(l);
  }
  return out;
}

/**
 * The remote stations' lines on the box, by station: each bettor's own bets against the box's
 * card, with its own choice after a tie; those that chose war share the box's war. `seat` is the
 * caller's number for the box.
 */
export function settleWarBox(c: WarCoup, profile: Pick<WarProfile, 'tiePays' | 'id'>, seat: number): { station: number; line: SettlementLine }[] {
  const box = c.box;
  if (!box) return [];
  const rules = warRulesOf(profile.id);
  const croupier = completeCroupier(c);
  const card = box.card;
  if (card === undefined) throw new Error('unreachable: complete coup with the box missing its card');
  return box.bettors.flatMap((b) =>
    settleBettor(
      { seat, bets: b.bets, card, decision: box.decisions[b.station], timedOut: box.timedOut?.includes(b.station) === true, war: box.war },
      croupier,
      profile,
      rules,
    ).map((line) => ({
      station: b.station,
      line,
    })),
  );
}

/** A coup voided because a dealing error could not be corrected (Art. 6): every bet returned. */
export function voidWarCoup(c: WarCoup): SettlementLine[] {
  const out: SettlementLine[] = [];
  for (const s of c.seats) {
    const raised = c.decisions[s.seat] === 'war' ? 2 : 1;
    if (s.bets.main) out.push({ seat: s.seat, bet: 'main', stake: raised * s.bets.main, net: 0, rule: WAR_RULES.void });
    if (s.bets.tie) out.push({ seat: s.seat, bet: 'tie', stake: s.bets.tie, net: 0, rule: WAR_RULES.void });
  }
  return out;
}
