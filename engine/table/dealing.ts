import type { DecisionDue, ProgressiveSettled, RoundStake } from './game.js';
import { discardHeld, placeHeld } from './held-cards.js';
import { putOnHold } from './on-hold.js';
import { creditOf, decidesNow, deciderStations, pendingOf } from './queries.js';
import { applyDeferredShoe } from './shoe-change.js';
import { currencyOf, MAX_HISTORY, stationAt, type Decision, type HistoryItem, type InPlay, type SettledLine } from './state.js';
import type { Turn } from './turn.js';
import type { DecisionAction } from './vocabulary.js';

// A round in play: cards placed by the game, decisions with countdowns and stated defaults,
// settlement journalled, results held on screen. Money moves only by what the step journals:
// bets at the close and raises with their decisions, winnings at the settlement.

/**
 * Moves the round on: a decision's countdown, the next card, or — once nothing more is awaited —
 * the settlement, asked for as the next input: its own step and its own transaction, so the
 * last card is journalled before the round is settled, as a dealer turns the last card before
 * paying.
 */
export function advance<S, R>(t: Turn<S, R>, sameDecision = false): void {
  // Halted (a fault): nothing is decided or settled until it clears.
  if (t.state.faults.halted) return;
  let p = pendingOf(t.state, t.game);
  // A misdrawn card kept for the next card asked for takes its place (holds.ts, `misdrawn-card`).
  while (p?.kind === 'card' && p.cue.asked && (t.state.held?.length ?? 0) > 0 && placeHeld(t)) p = pendingOf(t.state, t.game);
  if (!p) return;
  if (p.kind === 'done') {
    t.stopCountdown();
    t.next = 'settle';
    return;
  }
  // The remote stations on the stadium box decide within one countdown: another of them deciding
  // leaves it running.
  const running = sameDecision && p.kind === 'decision' && p.decider.kind === 'stadium' && t.state.countdown?.kind === 'decision';
  if (p.kind === 'decision') {
    if (!running) t.schedule('decision', t.state.params.timings.decisionMs);
  } else t.stopCountdown();
}

export function decide<S, R>(t: Turn<S, R>, station: number, action: DecisionAction, amount?: number): void {
  const s = t.state;
  if (s.faults.halted) return t.refuse(`the table is halted: ${s.faults.halted}`, 'table-halted');
  const p = pendingOf(s, t.game);
  if (!p || p.kind !== 'decision' || s.hold || !decidesNow(s, p, station)) return t.refuse('no decision is due from this station', 'no-decision');
  // Fields that contradict each other are refused, not ignored: only an insurance names an amount.
  if (amount !== undefined && action !== 'insurance') return t.refuse(`"${action}" names no amount (only an insurance does)`, 'illegal-action');
  applyDecision(t, station, p, action, false, amount);
}

/**
 * A decision taken, with what it put into play: each bettor on the seat pays its own share of a
 * raise — the seat's station, and a station behind whose stake follows the double or split
 * (Art. 20) — journalled with the decision in the step's transaction, before any screen hears of it.
 */
function applyDecision<S, R>(t: Turn<S, R>, station: number, p: DecisionDue, action: DecisionAction, auto: boolean, amount?: number): boolean {
  const round = t.state.round;
  if (round === null) {
    t.refuse('no round', 'no-round');
    return false;
  }
  const seatStation = stationAt(t.state.params, p.seat) ?? station;
  const payer = (bettor?: number) => bettor ?? seatStation;
  const r = t.game.round.decide(t.state.shoe, round, {
    seat: p.seat,
    station,
    action,
    ...(amount !== undefined ? { amount } : {}),
    canAfford: (cost, bettor) => cost <= creditOf(t.state, payer(bettor)),
    ...(auto ? { auto } : {}),
  });
  if (!r.ok) {
    t.refuse(r.reason, r.refusal);
    return false;
  }
  // A timeout is no act of the player's: it never puts the player's credit into play (the war of
  // Art. 7 n.5 is the player's own doubling; a blackjack double, split or insurance likewise).
  // Only the timed-out station's own credit counts: a bettor behind who declines a split completes
  // the seat's split, whose second stake the seat's own player put into play (Portugal rule 28).
  if (auto && r.stakes.some((x) => payer(x.bettor) === station && x.amount > 0)) {
    t.refuse(`the default "${action}" would stake credit without the player`, 'illegal-action');
    return false;
  }
  // Macau 2009 Art. 5 n.2 3)(8): the maximum is «total, por mesa, … para cada jogada»: a double,
  // a split or an insurance counts against it as the bets placed before the deal do.
  const roundMax = t.state.params.roundMax;
  const raised = r.stakes.reduce((a, x) => a + x.amount, 0);
  if (roundMax !== undefined && raised > 0 && t.state.placed.reduce((a, x) => a + x.amount, 0) + raised > roundMax) {
    const rule = t.game.rules.limitRules.roundMaxRule;
    t.refuse(`over the table's maximum of ${roundMax} for the round${rule ? ` (${rule})` : ''}`, 'over-round-max');
    return false;
  }
  const { roundId } = t.state;
  const byStation = new Map<number, RoundStake[]>();
  for (const x of r.stakes) byStation.set(payer(x.bettor), [...(byStation.get(payer(x.bettor)) ?? []), x]);
  const n = t.state.decisions.length + 1;
  const placed: InPlay[] = [...t.state.placed];
  for (const [st, stakes] of byStation) {
    t.write({
      type: 'bet.place',
      txId: `${roundId}:bet:${st}:${n}`,
      payload: {
        station: st,
        roundId,
        tableId: t.tableId,
        bets: stakes.map((x) => ({ seat: x.seat, bet: x.bet, amount: x.amount })),
        ...currencyOf(t.state.params),
      },
    });
    t.credit(st, -stakes.reduce((a, x) => a + x.amount, 0));
    for (const x of stakes) addInPlay(placed, { station: st, bet: x.bet, ...(x.bettor !== undefined ? { seat: x.seat } : {}), amount: x.amount });
  }
  const notFollowing = r.notFollowing.map(bettorLabel);
  const decision: Decision = {
    seat: p.seat,
    ...(p.hand !== undefined ? { hand: p.hand } : {}),
    station,
    action,
    ...(auto ? { auto } : {}),
    ...(notFollowing.length > 0 ? { notFollowing } : {}),
  };
  // What the decision took from its station (an insurance's), never the amount its screen named (clamped, or ignored by a stand).
  const taken = amount === undefined ? 0 : (byStation.get(station) ?? []).reduce((a, x) => a + x.amount, 0);
  t.write({ type: 'round.decision', payload: decisionPayload(t.tableId, roundId, decision, taken) });
  t.set({ shoe: r.shoe, round: r.round, placed, decisions: [...t.state.decisions, decision] });
  if (notFollowing.length > 0)
    t.log('info', 'bets behind that do not follow the double or split stay at their stake', { roundId, seat: p.seat, action, notFollowing });
  advance(t, p.decider.kind === 'stadium');
  return true;
}

/** A decision as journalled (`round.decision`), with the amount it took from its station where it took one. */
function decisionPayload(tableId: string, roundId: string, d: Decision, taken: number) {
  const { notFollowing, ...decided } = d;
  return { tableId, roundId, ...decided, ...(taken > 0 ? { amount: taken } : {}), ...(notFollowing ? { notFollowing } : {}) };
}

/** How the round record names a bettor behind a seat. */
export function bettorLabel(station: number): string {
  return `station:${station}`;
}

/** A stake joins what the station has in play: a raise of the same line adds to it. */
function addInPlay(placed: InPlay[], x: InPlay): void {
  const i = placed.findIndex((p) => p.station === x.station && p.bet === x.bet && p.seat === x.seat);
  if (i < 0) placed.push(x);
  else {
    const had = placed[i];
    if (had) placed[i] = { ...had, amount: had.amount + x.amount };
  }
}

/**
 * The countdown ran out: the stated default, which puts no credit into play (a war tie surrenders,
 * the loss of Art. 7 n.4 1), the default itself the house's reading; a blackjack hand stands or
 * declines). The game is told the decision is the timeout's (`auto`): its line may say so.
 *
 * Should the game refuse even that (it never should: the default is legal and costs nothing the
 * station lacks), the table holds (`default-refused`, journalled) rather than guess another
 * action for the player or wait on a countdown that is over. A supervisor voids the round.
 */
export function decisionTimedOut<S, R>(t: Turn<S, R>): void {
  const p = pendingOf(t.state, t.game);
  if (!p || p.kind !== 'decision') return;
  const stations = deciderStations(t.state, p);
  if (stations.length === 0) return holdRefused(t, p, `seat ${p.seat} has no station to decide for it`);
  // On the stadium box every remote station that has not decided takes its own default, in
  // station order; elsewhere there is one.
  for (const station of stations) {
    const now = pendingOf(t.state, t.game);
    if (!now || now.kind !== 'decision' || !decidesNow(t.state, now, station)) continue;
    const refusedBefore = t.refused;
    const action = now.default;
    if (applyDecision(t, station, now, action, true)) continue;
    const why = t.refused?.reason ?? 'refused';
    // A timeout is not a command: its refusal is the table's hold, not an answer to anyone.
    t.refused = refusedBefore;
    return holdRefused(t, now, why, action);
  }
}

function holdRefused<S, R>(t: Turn<S, R>, p: DecisionDue, reason: string, action?: DecisionAction): void {
  t.log('error', 'the default decision was refused: table on hold', { roundId: t.state.roundId, seat: p.seat, ...(action ? { action } : {}), reason });
  if (!t.state.hold) putOnHold(t, 'default-refused', null);
}

/** The round is complete: its lines journalled with the round's record, then shown. */
export function settle<S, R>(t: Turn<S, R>): void {
  const round = t.state.round;
  if (round === null || t.state.phase !== 'dealing' || t.state.hold || t.state.faults.halted) return;
  if (t.game.round.pending(t.state.shoe, round).kind !== 'done') return;
  // A misdrawn card nobody asked for goes to the discards with the round (rule 18).
  discardHeld(t);
  const settled = t.game.round.settle(t.state.shoe, round);
  const handpayAbove = t.state.params.jackpotHandpayAbove;
  const lines: SettledLine[] = settled.lines.map((l) => {
    // A bettor behind is paid at its own station (the game names it on the line).
    const station = l.bettor ?? stationAt(t.state.params, l.seat);
    if (station === undefined) throw new Error(`seat ${l.seat} has no station`);
    // A jackpot award above the table's handpay amount goes to an attendant, not the credit meter.
    const award = l.stake + l.net;
    const handpay = l.bet === 'jackpot' && l.net > 0 && handpayAbove !== undefined && award > handpayAbove ? award : 0;
    return {
      station,
      seat: l.seat,
      bet: l.bet,
      ...(l.hand !== undefined ? { hand: l.hand } : {}),
      stake: l.stake,
      net: l.net,
      rule: l.rule,
      ...(l.choices?.length ? { choices: [...l.choices] } : {}),
      ...(l.choices?.length && l.authorisation ? { authorisation: l.authorisation } : {}),
      ...(handpay > 0 ? { handpay } : {}),
      ...(l.carried ? { carried: true as const } : {}),
    };
  });
  // Stakes of this round still open past it (winning streaks) are held by the ledger, not settled.
  const held = (settled.held ?? []).map((h) => {
    const station = stationAt(t.state.params, h.seat);
    if (station === undefined) throw new Error(`seat ${h.seat} has no station`);
    return { station, seat: h.seat, bet: h.bet, amount: h.amount };
  });
  // How the round moved the winning-streak markers: recall shows them before and after the round.
  const streaks = (settled.streaks ?? []).flatMap((m) => {
    const station = stationAt(t.state.params, m.seat);
    return station === undefined ? [] : [{ ...m, station }];
  });
  const notDealtIn = notDealtInOf(lines, held);
  t.write({
    type: 'round.settle',
    txId: `${t.state.roundId}:settle`,
    payload: {
      ...roundCore(t),
      lines,
      ...(held.length > 0 ? { held } : {}),
      ...(notDealtIn.length > 0 ? { notDealtIn } : {}),
      ...(streaks.length > 0 ? { streaks } : {}),
    },
  });
  for (const l of lines) t.credit(l.station, l.stake + l.net - (l.handpay ?? 0));
  writeProgressive(t, lines, settled.progressive);
  t.set({ shoe: settled.shoe });
  t.log('info', 'round settled', { roundId: t.state.roundId, lines: lines.length });
  t.set({ history: withHistory(t, lines) });
  applyDeferredShoe(t);
  showResults(t, lines);
}

/**
 * The progressive's part of a settlement: each award paid by hand gets its handpay request (the
 * attendant pays it, two people above the table's amount: host/floor), then the pools move
 * (`jackpot.settle`), all in the settlement's transaction. The last hit stays on the table.
 */
function writeProgressive<S, R>(t: Turn<S, R>, lines: readonly SettledLine[], progressive: ProgressiveSettled | undefined): void {
  const roundId = t.state.roundId;
  const owed: string[] = [];
  for (const l of lines) {
    if (!l.handpay) continue;
    const txId = `${roundId}:handpay:${l.station}:${l.seat}:${l.hand ?? 0}`;
    t.write({
      type: 'handpay.request',
      txId,
      payload: {
        station: l.station,
        amount: l.handpay,
        reason: 'jackpot',
        detail: `round ${roundId} seat ${l.seat}: ${l.rule}`,
        ...currencyOf(t.state.params),
      },
    });
    owed.push(txId);
  }
  // Rule 49: the winner's cards stay on the table until the award is paid.
  const first = lines.find((l) => l.handpay);
  if (first) t.set({ jackpotUnpaid: { roundId, seat: first.seat, handpays: owed } });
  if (!progressive) return;
  // A hit is paid at the seat's station (the jackpot is a seat's own bet, never one behind).
  const hits = progressive.hits.flatMap((h) => {
    const station = stationAt(t.state.params, h.seat);
    return station === undefined ? [] : [{ ...h, station }];
  });
  t.write({
    type: 'jackpot.settle',
    txId: `${roundId}:jackpot`,
    payload: { roundId, tableId: t.tableId, reference: progressive.reference, levels: progressive.levels, hits },
  });
  const hit = hits.at(-1);
  if (hit) t.set({ lastJackpotHit: { roundId, seat: hit.seat, station: hit.station, combination: hit.combination, level: hit.level, amount: hit.amount } });
}

/**
 * The stations whose lines are only stakes held from earlier rounds (a winning streak settled for a
 * station that did not bet: kept out by a fault, or not betting), ascending. A station that bet has
 * a line of this round's stake or a stake held past it. The ledger counts them no game (docs/sas.md).
 */
function notDealtInOf(lines: readonly SettledLine[], held: readonly { station: number }[]): number[] {
  const bettors = new Set([...lines.filter((l) => !l.carried).map((l) => l.station), ...held.map((h) => h.station)]);
  return [...new Set(lines.map((l) => l.station))].filter((s) => !bettors.has(s)).sort((a, b) => a - b);
}

/** The round's record as journalled with its settlement or its void. */
export function roundCore<S, R>(t: Turn<S, R>) {
  return { roundId: t.state.roundId, tableId: t.tableId, game: t.game.kind, profile: t.game.profile, cards: t.state.cards, decisions: t.state.decisions };
}

/** The history strip of blackjack and war: the dealer's cards and each seat's own result. */
function withHistory<S, R>(t: Turn<S, R>, lines: readonly SettledLine[]): readonly HistoryItem[] {
  if (t.game.presentation.panel !== 'history') return t.state.history;
  const dealer = t.game.screens.hands(t.state.shoe, t.state.round).find((h) => h.owner === 'dealer');
  const net = new Map<number, number>();
  // The seat's own result: bets behind it are other players' and stay on their stations.
  for (const l of lines) if (l.station === stationAt(t.state.params, l.seat)) net.set(l.seat, (net.get(l.seat) ?? 0) + l.net);
  const item: HistoryItem = {
    roundId: t.state.roundId,
    dealer: dealer?.cards.slice(0, 24) ?? [],
    dealerTotal: dealer?.total ?? null,
    seats: [...net].sort((a, b) => a[0] - b[0]).map(([seat, n]) => ({ seat, outcome: n > 0 ? 'win' : n < 0 ? 'lose' : 'push' })),
  };
  return [...t.state.history, item].slice(-MAX_HISTORY);
}

/** Results on screen for the minimum time, then the next betting window (after a shuffle if the shoe ended). */
export function showResults<S, R>(t: Turn<S, R>, lines: readonly SettledLine[] | null): void {
  t.set({ phase: 'results', results: lines });
  if (t.game.shoe.shoeFinished(t.state.shoe)) t.set({ needsShuffle: true });
  t.schedule('results', t.state.params.timings.resultsMs);
}

/** After a halt, a hold between rounds or a restart: the step that was running starts its countdown again. */
export function resumeCountdown<S, R>(t: Turn<S, R>): void {
  if (t.state.phase === 'betting') t.schedule('betting', t.state.params.timings.bettingMs);
  else if (t.state.phase === 'dealing') advance(t);
  else t.schedule('results', t.state.params.timings.resultsMs);
}

/**
 * An attendant paid one of the round's jackpot awards handed to them. Once the last is paid the
 * cards may be collected (Portugal rule 49, "só depois sendo recolhidas"): the results show for
 * their time again, then the next betting opens. A handpay this table does not owe is refused.
 */
export function jackpotPaid<S, R>(t: Turn<S, R>, handpay: string): void {
  const owed = t.state.jackpotUnpaid;
  if (!owed || !owed.handpays.includes(handpay)) return t.refuse(`no jackpot award of this table awaits handpay ${handpay}`, 'no-round');
  const rest = owed.handpays.filter((h) => h !== handpay);
  if (rest.length > 0) return t.set({ jackpotUnpaid: { ...owed, handpays: rest } });
  const { jackpotUnpaid: _paid, ...state } = t.state;
  void _paid;
  t.state = state;
  t.log('info', 'jackpot paid: the cards may be collected (portugal-2001 rule 49)', { roundId: owed.roundId });
  if (t.state.phase === 'results' && t.state.countdown === null && !t.state.hold && !t.state.faults.halted)
    t.schedule('results', t.state.params.timings.resultsMs);
}
