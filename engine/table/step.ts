import { clearBets, closeBetting, keepOut, openBetting, placeBet } from './betting.js';
import { decide, decisionTimedOut, jackpotPaid, resumeCountdown, settle } from './dealing.js';
import type { Effect, JournalRecord } from './effects.js';
import type { GameDefinition, Outcome } from './game.js';
import { anomaly, correct, dealingError, enterCard, voidRound } from './holds.js';
import { withChipLimits } from './limits.js';
import { putOnHold } from './on-hold.js';
import type { InputOf, TableInput } from './inputs.js';
import { expectsCard } from './queries.js';
import { cutCard, shoeLoaded, takeCard } from './shoe.js';
import type { TableParams, TableState } from './state.js';
import { Turn } from './turn.js';
import { configure } from './seat-change.js';

export interface StepResult<S, R> {
  /** The new state; the very same object when the input changed nothing (then nothing is journalled). */
  readonly state: TableState<S, R>;
  /** Ledger entries to write in one transaction with the input, before anything is acknowledged. */
  readonly journal: readonly JournalRecord[];
  readonly effects: readonly Effect[];
  /** A command refused: the state is unchanged, and the refusal goes back to whoever sent it. */
  readonly refused?: Extract<Outcome, { ok: false }>;
}

/** A table that has never opened a round: its first `open` input starts the first betting window. */
export function initialTable<S, R>(params: TableParams, game: GameDefinition<S, R>): TableState<S, R> {
  return {
    params: withChipLimits(params, game.rules.limitRules),
    credits: {},
    roundNo: 0,
    roundId: '',
    phase: 'betting',
    countdown: null,
    countdowns: 0,
    chips: [],
    placed: [],
    unplayed: [],
    shoe: game.shoe.initial(),
    round: null,
    cards: [],
    decisions: [],
    results: null,
    hold: null,
    needsShuffle: false,
    shoeDeferred: false,
    shoeNo: 1,
    out: {},
    sequences: [],
    faults: { halted: null, newBetsStopped: null, disabled: [] },
    history: [],
    held: [],
  };
}

/**
 * The table's one transition: `state` with `input` becomes a new state, with what to journal and
 * what to ask of the world. No clock (the input carries its time), no I/O, no randomness: live
 * play, recovery after a kill, an inspector's replay and the tests are all this function folded
 * over the inputs the journal holds.
 */
export function step<S, R>(state: TableState<S, R>, input: TableInput, game: GameDefinition<S, R>): StepResult<S, R> {
  // Asked of the state before it changes: a game may keep its objects for the newest state only.
  const gateBefore = expectsCard(state, game);
  const t = new Turn(state, game, 'at' in input ? input.at : 0);
  apply(t, input);
  if (t.refused) return { state, journal: [], effects: logs(t), refused: t.refused };
  const next: Effect[] = t.next ? [{ type: 'next', input: t.next }] : [];
  if (t.state === state) return { state, journal: [], effects: [...logs(t), ...next] };
  return { state: t.state, journal: t.journal, effects: [...effectsBetween(state, gateBefore, t.state, game), ...logs(t), ...next] };
}

function apply<S, R>(t: Turn<S, R>, input: TableInput): void {
  switch (input.kind) {
    case 'open':
      return open(t, input);
    case 'configure':
      return configure(t, input.params);
    case 'resume':
      return resume(t, input);
    case 'place-bet':
      return placeBet(t, input.station, input.spot, input.amount);
    case 'clear-bets':
      return clearBets(t, input.station);
    case 'decide':
      return decide(t, input.station, input.action, input.amount);
    case 'timer':
      return timer(t, input);
    case 'settle':
      return settle(t);
    case 'card':
      return takeCard(t, input.card, input.sequence, input.burn === true);
    case 'anomaly':
      return anomaly(t, input.reason, input.card ?? null, input.sequence);
    case 'cut-card':
      return cutCard(t, input.sequence);
    case 'shoe-loaded':
      return shoeLoaded(t, input.sequence);
    case 'void':
      return voidRound(t, input.reason, input.authorisedBy, input.uncorrectable);
    case 'dealing-error':
      return dealingError(t, input.by);
    case 'correct':
      return correct(t, input.correction, input.supervisor, input.witness);
    case 'enter-card':
      return enterCard(t, input.card, input.supervisor, input.witness);
    case 'faults':
      return faults(t, input);
    case 'jackpot-paid':
      return jackpotPaid(t, input.handpay);
    case 'jackpot-reset':
      return jackpotReset(t, input);
    case 'credit':
      if ((t.state.credits[input.station] ?? 0) !== input.balance) t.set({ credits: { ...t.state.credits, [input.station]: input.balance } });
      return;
    case 'journal-refused':
      t.log('error', 'the ledger refused what the table was to journal: table on hold', { reason: input.reason });
      if (!t.state.hold) putOnHold(t, 'ledger', null);
      return;
  }
}

/**
 * Two people set a progressive level (Portugal rules 40, 44): the game checks it (the level, the
 * minimum of 10,000 chips, never below what the pool holds: that is the players'), the pool is
 * set and the house's part journalled (`jackpot.reset`), between rounds only.
 */
function jackpotReset<S, R>(t: Turn<S, R>, input: InputOf<'jackpot-reset'>): void {
  if (t.state.phase === 'dealing' || t.state.hold)
    return t.refuseAct('a jackpot level is reset between rounds only', { why: 'jackpot-between-rounds' }, 'betting-closed');
  if (!t.game.shoe.resetProgressive) return t.refuseAct('this table plays no progressive jackpot', { why: 'jackpot-none' }, 'illegal-action');
  const r = t.game.shoe.resetProgressive(t.state.shoe, input.level, input.to);
  if (!r.ok) return r.act ? t.refuseAct(r.reason, r.act, r.refusal ?? 'illegal-action') : t.refuse(r.reason, r.refusal ?? 'illegal-action');
  // The id names the level and the time; a reset no later than the latest one (two in one
  // millisecond) adds the count of resets, which only grows: no two resets share an id, and the
  // ids journalled before the count was kept stay what they were.
  const was = t.state.jackpotResets;
  const n = (was?.n ?? 0) + 1;
  const repeat = was !== undefined && input.at <= was.at;
  t.set({ shoe: r.shoe, jackpotResets: { at: Math.max(input.at, was?.at ?? input.at), n } });
  t.write({
    type: 'jackpot.reset',
    txId: `${t.tableId}:jackpot-reset:${input.level}:${input.at}${repeat ? `:${n}` : ''}`,
    payload: {
      tableId: t.tableId,
      level: input.level,
      to: input.to,
      unfunded: r.unfunded,
      who: input.supervisor,
      witness: input.witness,
      authorisation: input.authorisation,
    },
  });
  t.log('warn', 'jackpot level reset', { level: input.level, to: input.to, authorisation: input.authorisation });
}

/**
 * The table opens afresh under these parameters (its first start, another game or profile, or a
 * journal the fold could not read): everything but the credits and the serials starts again,
 * and the first betting window opens. The shell voids any round left open before.
 */
function open<S, R>(t: Turn<S, R>, input: InputOf<'open'>): void {
  const s = t.state;
  t.state = {
    ...initialTable(input.params, t.game),
    credits: s.credits,
    roundNo: s.roundNo,
    countdowns: s.countdowns,
    ...(s.jackpotResets ? { jackpotResets: s.jackpotResets } : {}),
  };
  openBetting(t);
}

/**
 * The host started again on this state: the step that was running starts its countdown afresh
 * (a hold or a halt keeps none). A shoe that is a new device (a simulated one after an unclean
 * stop) must be loaded before the next round.
 */
function resume<S, R>(t: Turn<S, R>, input: InputOf<'resume'>): void {
  if (input.newShoe) t.set({ needsShuffle: true });
  if (t.state.hold || t.state.faults.halted) return t.stopCountdown();
  resumeCountdown(t);
}

function timer<S, R>(t: Turn<S, R>, input: InputOf<'timer'>): void {
  const c = t.state.countdown;
  // A timer that fires for a countdown already replaced changes nothing.
  if (!c || c.id !== input.countdown) return;
  t.set({ countdown: null });
  if (c.kind === 'betting') return closeBetting(t);
  if (c.kind === 'decision') return decisionTimedOut(t);
  // Portugal rule 49: a jackpot paid by hand keeps its round's cards on the table until paid.
  if (t.state.jackpotUnpaid)
    return t.log('info', 'the cards stay on the table until the jackpot is paid (portugal-2001 rule 49)', { ...t.state.jackpotUnpaid });
  openBetting(t);
}

/**
 * What the current faults stop. A halt pauses the table (its countdown stops, chips come off the
 * spots: nothing had moved); when it lifts, the step that was running starts its countdown
 * again. New bets stopped take the chips off too, except through a card hold between rounds,
 * whose window runs again once the hold is resolved. A disabled station's chips come off.
 */
function faults<S, R>(t: Turn<S, R>, input: InputOf<'faults'>): void {
  const was = t.state.faults;
  const jackpotStopped = input.jackpotStopped ?? null;
  const next = {
    halted: input.halted,
    newBetsStopped: input.newBetsStopped,
    disabled: [...input.disabled].sort((a, b) => a - b),
    // Absent from states before the progressive: kept absent until a fault stops its chip.
    ...(jackpotStopped !== null || was.jackpotStopped != null ? { jackpotStopped } : {}),
  };
  if (
    was.halted === next.halted &&
    was.newBetsStopped === next.newBetsStopped &&
    JSON.stringify(was.disabled) === JSON.stringify(next.disabled) &&
    (was.jackpotStopped ?? null) === jackpotStopped
  )
    return;
  t.set({ faults: next });
  if (jackpotStopped !== (was.jackpotStopped ?? null)) {
    t.log('warn', jackpotStopped ? 'jackpot bets stopped' : 'jackpot bets allowed again', { reason: jackpotStopped });
    // The chips on the jackpot spot come off: nothing had moved.
    if (jackpotStopped && t.state.phase === 'betting') t.set({ chips: t.state.chips.filter((c) => c.spot.bet !== 'jackpot') });
  }
  if (next.halted !== was.halted) {
    t.log('warn', next.halted ? 'table halted' : 'table resumed', { reason: next.halted, phase: t.state.phase });
    if (next.halted) t.set({ countdown: null, chips: [] });
    else if (!t.state.hold) resumeCountdown(t);
  }
  if (next.newBetsStopped !== was.newBetsStopped) {
    t.log('warn', next.newBetsStopped ? 'new bets stopped' : 'new bets allowed again', { reason: next.newBetsStopped });
    if (next.newBetsStopped && !t.state.hold) t.set({ chips: [] });
  }
  const off = next.disabled.filter((s) => !was.disabled.includes(s));
  if (off.length > 0 && t.state.phase === 'betting') t.set({ chips: t.state.chips.filter((c) => !off.includes(c.station)) });
  keepOut(t);
}

/** What the world must do because the state changed: the countdown to run, the shoe's gate. */
function effectsBetween<S, R>(before: TableState<S, R>, gateBefore: boolean, after: TableState<S, R>, game: GameDefinition<S, R>): Effect[] {
  const out: Effect[] = [];
  const b = before.countdown;
  const a = after.countdown;
  if (b?.id !== a?.id || b?.endsAt !== a?.endsAt) out.push({ type: 'countdown', countdown: a });
  const gate = expectsCard(after, game);
  if (gate !== gateBefore) out.push({ type: 'shoe-gate', open: gate });
  return out;
}

function logs<S, R>(t: Turn<S, R>): Effect[] {
  return t.logs.map((line) => ({ type: 'log', line }));
}
