import { Container, Graphics, Text } from 'pixi.js';
import { CachedLayer } from '../pixi/cached-layer.js';
import { DISPOSE } from '../pixi/dispose.js';
import type { TFunction } from 'i18next';
import { amountOn, STADIUM_SEAT, type BetSpot, type HandView, type LineBet, type PrizeWin, type Spot, type StationState } from '../../../protocol/index.js';
import { CARD } from '../cards/card-view.js';
import { HandSprite } from '../cards/hand-view.js';
import { formatAmount, formatMoney } from '../../../locales/money.js';
import { Button } from '../ui/button.js';
import { Celebration } from '../ui/celebration.js';
import { liveText } from '../ui/live-text.js';
import { COLORS, textStyle } from '../ui/theme.js';
import type { ScreenContext } from '../screens/screen.js';
import { offerText, PrizeWatch, prizeText, resultText } from '../screens/result-text.js';
import { phaseText, secondsLeft } from '../screens/round-text.js';
import { NEVER, nextSecondAt, nextStepAt } from '../anim/wake.js';
import { ticketWords, type TicketKey } from './ticket-words.js';
import { BetPlan, CommandQueue } from './bet-plan.js';
import { actionKey } from '../screens/action-words.js';
import { streakText } from './streak-text.js';
import { DecisionButtons } from './decision-buttons.js';
import { HAND_LABEL, HAND_SCALE, stationHandPlaces } from './station-hands.js';

/** Chips offered: the usual casino denominations (1-2-5 steps) from the table minimum up to the maximum. */
export function chipValues(min: number, max: number): number[] {
  return [1, 2, 5, 10, 20, 50, 100]
    .map((k) => k * min)
    .filter((v) => v <= max)
    .slice(0, 5);
}

/** Chip colours by position in the selector (low to high), as Macau cages colour them. */
const CHIP_COLOURS = [0x2d6cc0, 0xc8102e, 0x1f8a4c, 0x222222, 0x6b2fa0];

/**
 * The countdown bar drains in steps of this many ms (4 a second), not at the display's rate: each
 * step is a whole frame of the station (a full-screen frame for SwiftShader on the build machines,
 * and GPU time on a cabinet), and a bar moving 4 times a second still reads as moving (issue 31).
 */
export const BAR_STEP_MS = 250;

/**
 * The station's left column, in design units. While betting there are no hands yet, so the spots
 * start where the hands go: the seat's own spots in one row, then (where the table allows bets
 * behind) a sub-panel "bets behind another seat" with one spot per seat in rows of three (where
 * the profile offers additional bets on another seat's hand, tabs over it pick the kind: behind,
 * any pair, …, and the seat buttons place that bet on that seat's hand), then
 * the chips, always in the same place. A decision shows the offer's question, the buttons, what
 * happens on timeout and, under it, any note about spots that did not play.
 */
export const PLAY = {
  x: 40,
  width: 1140,
  status: 178,
  bar: 232,
  hands: 262,
  result: 534,
  spots: 262,
  spotH: 170,
  behindHeading: 450,
  /** With kinds to pick: the seat buttons in one row, the kind tabs under it (touch-sized). */
  kindH: 104,
  behind: 494,
  behindH: 116,
  behindPerRow: 3,
  chips: 748,
  offer: 544,
  decisions: 600,
  prompt: 776,
  notes: 826,
} as const;

/**
 * The playing part of a station: the round's hands, bet spots (only the host's list, with their
 * limits), chips, the decision prompt with its countdown and stated default. Every action is a
 * command to the host; nothing is decided here.
 */
export class StationPlay extends Container {
  /** The seat's own spots; bets behind other seats are `behindSpots`. */
  private spots: Button[] = [];
  private chips: Button[] = [];
  /**
   * The spots and the chips, each cached over its own bounds (pixi/cached-layer.ts): a chip is a
   * dozen circles and rings, a spot a stroked rounded rectangle, and drawn anew every frame of the
   * draining bar they cost SwiftShader about as much as the rest of the play area (issue 31,
   * `npm run bench -- screen-frame`). Drawn again when a snapshot or a chip chosen changes them.
   */
  private readonly spotLayer = new CachedLayer('spots');
  private readonly chipLayer = new CachedLayer('chips');
  private readonly actionLayer: DecisionButtons;
  private readonly handLayer = new Container();
  private readonly hands: HandSprite[] = [];
  private readonly handLabels: Text[] = [];
  /** The phase or decision with its countdown, redrawn every second: a live text (ui/live-text.ts). */
  private readonly status = liveText({ fontSize: 40, fill: COLORS.goldText, fontWeight: '700' });
  /** The countdown: a track and its fill (a Container: in pixi v8 only containers hold children). */
  private readonly bar = new Container();
  private readonly offer = new Text({ text: '', style: textStyle({ fontSize: 38, fill: COLORS.warning, fontWeight: '700' }) });
  private readonly prompt = new Text({ text: '', style: textStyle({ fontSize: 32, fill: COLORS.ivory }) });
  private readonly result = new Text({
    text: '',
    style: textStyle({ fontSize: 44, fontWeight: '700', wordWrap: true, wordWrapWidth: PLAY.width - 40, breakWords: true }),
  });
  private readonly behindHeading = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.goldText, fontWeight: '700' }) });
  private behindSpots: Button[] = [];
  /** The tabs picking what the seat buttons place: behind the seat, or an additional bet on its hand. */
  private kinds: Button[] = [];
  private kind: BetSpot['bet'] = 'behind';
  /** A tab was pressed: the seat buttons are rebuilt on the next frame, never inside the tab's own press. */
  private kindChanged = false;
  private readonly streak = new Text({ text: '', style: textStyle({ fontSize: 28, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly celebration = new Celebration(44);
  private readonly prizeWatch = new PrizeWatch<PrizeWin[]>();
  private prizes: PrizeWin[] = [];
  private chip = 0;
  private state: StationState | null = null;
  private shape = '';
  /** What the spots and tabs were last labelled from (`show`). */
  private labelled = '';
  private barEnds: number | null = null;
  private readonly barFill = new Graphics();
  private barFrom = 0;
  readonly plan = new BetPlan();
  readonly queue: CommandQueue;

  constructor(private readonly ctx: ScreenContext) {
    super();
    this.queue = new CommandQueue((c) => ctx.command(c));
    this.actionLayer = new DecisionButtons(PLAY.width, (c) => ctx.command(c));
    this.status.position.set(PLAY.x + 20, PLAY.status);
    const track = new Graphics().roundRect(0, 0, PLAY.width - 40, 12, 6).fill({ color: 0x0b2a1e });
    this.barFill.roundRect(0, 0, PLAY.width - 40, 12, 6).fill({ color: COLORS.gold });
    this.bar.addChild(track, this.barFill);
    this.bar.position.set(PLAY.x + 20, PLAY.bar);
    this.handLayer.position.set(PLAY.x, PLAY.hands);
    this.result.position.set(PLAY.x + 20, PLAY.result);
    this.spotLayer.position.set(PLAY.x, PLAY.spots);
    this.chipLayer.position.set(PLAY.x, PLAY.chips);
    this.offer.position.set(PLAY.x + 20, PLAY.offer);
    this.actionLayer.position.set(PLAY.x, PLAY.decisions);
    this.prompt.position.set(PLAY.x + 20, PLAY.prompt);
    this.behindHeading.position.set(0, PLAY.behindHeading - PLAY.spots);
    this.streak.anchor.set(1, 0);
    this.streak.position.set(PLAY.x + PLAY.width - 20, PLAY.status + 6);
    this.spotLayer.addChild(this.behindHeading);
    this.celebration.position.set(PLAY.x + PLAY.width / 2, PLAY.hands + 190);
    this.addChild(
      this.status,
      this.bar,
      this.handLayer,
      this.result,
      this.spotLayer,
      this.chipLayer,
      this.offer,
      this.actionLayer,
      this.prompt,
      this.streak,
      this.celebration,
    );
  }

  show(state: StationState, t: TFunction, now: number): void {
    this.state = state;
    this.queue.snapshot();
    if (!this.queue.busy()) this.plan.sync(state.betting.open, state.betting.bets);
    this.rebuild(state);
    const { betting, decision } = state;
    const ticket = state.cashout?.ticket?.state;
    const locked =
      state.cashout?.pending != null ||
      ticket === 'printing' ||
      ticket === 'unresolved' ||
      (state.tilts ?? []).some((x) => x.disables !== 'nothing' && x.disables !== 'jackpot');
    // The spots' and tabs' words are made again only when what they say changed: while dealing a
    // snapshot comes with every card, and their dozens of translations and amounts, for spots
    // not even shown then, were most of the station's JS in it (issue 31, BENCH_TRACE_VIEW=station).
    const labels = JSON.stringify([this.shape, state.language, state.currency, locked, state.jackpot?.stopped === true, betting.spots, betting.bets]);
    if (labels !== this.labelled) {
      this.labelled = labels;
      this.labelKinds(state, t, locked, this.labelSpots(state, t, locked));
    }
    // The seat's winning-streak marker (Art. 13 5)(2) iii)): its own only.
    this.streak.visible = betting.streak !== undefined;
    this.streak.text = betting.streak ? streakText(t, betting.streak, state.language) : '';
    this.chips.forEach((b, i) => b.setActive(chipValues(state.limits.min, state.limits.max)[i] === this.chip));
    const betting_ = betting.open && decision === null;
    this.spotLayer.visible = this.chipLayer.visible = betting_;
    this.showDecision(state, t);
    this.showHands(state, t, now);
    this.celebrate(state, t, now);
    this.showResult(state, t);
    this.refreshLayers();
    this.tick(now, t);
  }

  /** The cached spots and chips drawn again if anything in them changed (a button's highlight is in its face, not in the layers' own key). */
  private refreshLayers(): void {
    const lit = (buttons: Button[]) => buttons.map((b) => (b.isActive() ? 1 : 0)).join('');
    this.spotLayer.refresh(`${lit(this.spots)}|${lit(this.behindSpots)}|${lit(this.kinds)}`);
    this.chipLayer.refresh(lit(this.chips));
  }

  /** The cached layers at the display's resolution (device pixels per design unit). */
  sharpen(resolution: number): void {
    this.spotLayer.sharpen(resolution);
    this.chipLayer.sharpen(resolution);
  }

  /**
   * Each spot's name, the amount on it and its limits; refused while the station is locked (a
   * cashout pending, a tilt) or, for the jackpot's chip, while its controller is at fault. Gives the
   * spots behind other seats.
   */
  private labelSpots(state: StationState, t: TFunction, locked: boolean): BetSpot[] {
    const { betting } = state;
    const own = ownSpots(betting.spots);
    const behind = seatSpots(betting.spots, this.kind);
    const label = (b: Button, spot: BetSpot, name: string, oneLine: boolean) => {
      const amount = amountOn(betting.bets, spotOf(spot)) || undefined;
      // The jackpot's chip: its fixed amount, and refused while its controller is at fault.
      const jackpotStopped = spot.bet === 'jackpot' && state.jackpot?.stopped === true;
      const small =
        spot.bet === 'jackpot'
          ? t(jackpotStopped ? 'jackpot.chipStopped' : 'jackpot.chip', { amount: formatMoney(spot.min, state.currency, state.language) })
          : limitsText(t, spot, state, oneLine);
      // The name, the amount on it (once there is one) under it, the spot's limits in small type.
      b.setLabel(amount ? `${name}\n${formatMoney(amount, state.currency, state.language)}` : name, small);
      b.setActive(amount !== undefined);
      b.setEnabled(!locked && !jackpotStopped);
    };
    own.forEach((spot, i) => {
      const b = this.spots[i];
      if (b) label(b, spot, spotName(t, spot), false);
    });
    behind.forEach((spot, i) => {
      const b = this.behindSpots[i];
      if (b && 'seat' in spot) label(b, spot, t('table.seat', { n: spot.seat }), true);
    });
    return behind;
  }

  /** The tabs of what the seat buttons place, and the heading over the seats. */
  private labelKinds(state: StationState, t: TFunction, locked: boolean, behind: readonly BetSpot[]): void {
    const kinds = seatKinds(state.betting.spots);
    this.kinds.forEach((b, i) => {
      const k = kinds[i];
      if (!k) return;
      b.setLabel(t(`bet.${k}`));
      b.setActive(k === this.kind);
      b.setEnabled(!locked);
    });
    this.behindHeading.text = !behind.length
      ? ''
      : this.kind === 'behind'
        ? t('desk.behindHeading')
        : t('desk.otherSeatHeading', { bet: t(`bet.${this.kind}`) });
  }

  /** The decision asked of this station: its buttons, the default named, and the offer's question. */
  private showDecision(state: StationState, t: TFunction): void {
    const { decision } = state;
    this.actionLayer.show(state, t);
    const offer = offerText(t, decision, state.currency);
    this.offer.visible = offer !== null;
    this.offer.text = offer ?? '';
  }

  /** The round's net for this station, or why a spot did not play or a bet behind did not follow. */
  private showResult(state: StationState, t: TFunction): void {
    const { betting, decision } = state;
    // The host sums this station's own lines, its bets behind other seats included (lines are by seat).
    const mine = betting.roundNet !== undefined ? [betting.roundNet] : [];
    const net = betting.roundNet ?? 0;
    // A spot under its minimum when betting closed did not play: said, never silent (its chips stayed credit).
    const unplayed = mine.length === 0 ? (betting.unplayed ?? []) : [];
    // A bet behind that could not cover its share of the seat's double or split stayed out of it: said too.
    const notFollowed = betting.notFollowed ?? [];
    this.result.visible = mine.length > 0 || unplayed.length > 0 || notFollowed.length > 0;
    // Under the decision buttons while one is asked (the offer's question has the place above them).
    const notes = decision !== null;
    this.result.position.y = notes ? PLAY.notes : PLAY.result;
    this.result.style.fontSize = notes ? 30 : 44;
    this.result.text = [
      ...(mine.length
        ? [t('station.result', { result: resultText(t, net, state.currency, state.language) })]
        : unplayed.map((u) => {
            const bet = stakeName(t, u);
            const reason = u.reason ?? 'under-min';
            return reason === 'under-min'
              ? t('station.unplayed', { bet, min: u.min, currency: state.currency, reason: t('refusals.under-min') })
              : t('station.unplayedWhy', { bet, reason: t(`refusals.${reason}`) });
          })),
      ...notFollowedLines(t, notFollowed),
    ].join('\n');
    this.result.style.fill = net > 0 ? '#7dff9a' : net < 0 ? '#ff8a8a' : COLORS.ivory;
  }

  /**
   * This station's own prize and additional-bet wins of the round just settled, celebrated once,
   * briefly, over its play area (a later snapshot or a language change rewords, never restarts).
   */
  private celebrate(state: StationState, t: TFunction, now: number): void {
    const fresh = this.prizeWatch.next(
      state.round?.roundId,
      state.round?.phase === 'results' && state.betting.roundNet !== undefined,
      state.betting.prizes ?? [],
    );
    const lines = (wins: PrizeWin[]) => wins.map((w) => prizeText(t, state.presentation?.betWords, w, state.currency, state.language));
    if (fresh?.length) {
      this.prizes = fresh;
      this.celebration.start(lines(fresh), now);
      for (const w of fresh) this.ctx.emit(`celebrate:station:${w.prize}:${w.bet}:${w.net}`);
    } else if (this.celebration.running) this.celebration.setLines(lines(this.prizes));
  }

  /**
   * Countdowns move without a new snapshot; texts change once a second. Returns when the play area
   * next moves (anim/wake.ts): now while a card flies or a prize is celebrated, the bar's next step
   * while it drains, else the countdown's next second.
   */
  tick(now: number, t: TFunction): number {
    const s = this.state;
    if (!s) return NEVER;
    if (this.kindChanged) {
      this.kindChanged = false;
      this.show(s, t, now);
      return now;
    }
    let next = this.celebration.tick(now) ? now : NEVER;
    for (const h of this.hands) if (h.visible && h.update(now)) next = now;
    if (this.drawBar(s, now)) next = Math.min(next, nextStepAt(now, BAR_STEP_MS));
    const endsAt = s.decision?.endsAt ?? s.round?.endsAt ?? null;
    next = Math.min(next, nextSecondAt(endsAt, now));
    // Texts change with a snapshot or once a second: no string is built in between.
    const seconds = secondsLeft(endsAt, now);
    const ticket = ticketWords(s, now);
    if (ticket) next = Math.min(next, ticket.until);
    if (s === this.textState && seconds === this.textSeconds && t === this.textT && ticket?.key === this.textTicket) return next;
    this.textState = s;
    this.textSeconds = seconds;
    this.textT = t;
    this.textTicket = ticket?.key;
    const status = s.cashout?.pending
      ? // Why no ticket, when the cash-out fell back to an attendant (docs/tito.md): paper out, no printer, above the limit…
        t(s.cashout.pending.why ? `desk.handpayWhy.${s.cashout.pending.why}` : 'desk.handpay', { amount: s.cashout.pending.amount, currency: s.currency })
      : ticket
        ? t(ticket.key, { amount: ticket.amount, currency: s.currency })
        : s.decision
          ? t('station.decide', { seconds: secondsLeft(s.decision.endsAt, now) })
          : s.round
            ? phaseText(t, s.round, now)
            : '';
    if (status !== this.status.text) this.status.text = status;
    const prompt = s.decision ? t('station.default', { action: t(actionKey(s.presentation?.actionWords, s.decision.default)) }) : '';
    if (prompt !== this.prompt.text) this.prompt.text = prompt;
    return next;
  }

  private textState: StationState | null = null;
  private textSeconds = -1;
  private textT: TFunction | null = null;
  private textTicket: TicketKey | undefined = undefined;

  /**
   * The countdown bar: full when the window opens, empty when it closes (scaled, never redrawn),
   * in steps of BAR_STEP_MS; true while it drains.
   */
  private drawBar(s: StationState, now: number): boolean {
    const endsAt = s.decision?.endsAt ?? (s.betting.open ? (s.round?.endsAt ?? null) : null);
    if (endsAt !== this.barEnds) {
      this.barEnds = endsAt;
      this.barFrom = now;
    }
    const on = endsAt !== null && endsAt > this.barFrom;
    this.bar.visible = on;
    if (!on) return false;
    const step = Math.floor(now / BAR_STEP_MS) * BAR_STEP_MS;
    const u = Math.max(0, Math.min(1, (endsAt - step) / (endsAt - this.barFrom)));
    this.barFill.scale.x = u;
    this.barFill.tint = u < 0.25 ? 0xff8a3a : 0xffffff;
    return u > 0;
  }

  private showHands(state: StationState, t: TFunction, now: number): void {
    const round = state.round;
    const show: { view: HandView; label: string }[] = [];
    for (const h of round?.hands ?? []) {
      if (h.owner === 'dealer') show.push({ view: h, label: t('table.dealer') });
      else if (h.owner === 'banker' || h.owner === 'player') show.push({ view: h, label: t(`bet.${h.owner}`) });
      // A remote station's own hand is the stadium box (war): its card, the one the remote stations share.
      else if (h.seat === (state.seat ?? STADIUM_SEAT)) show.push({ view: h, label: h.hand ? t('desk.hand', { n: h.hand + 1 }) : t('desk.yourHand') });
    }
    while (this.hands.length < show.length) {
      const h = new HandSprite();
      const label = new Text({ text: '', style: textStyle({ fontSize: 26, fill: COLORS.muted, fontWeight: '600' }) });
      label.anchor.set(0.5, 0);
      this.hands.push(h);
      this.handLabels.push(label);
      this.handLayer.addChild(h, label);
    }
    // From PLAY.hands down to the result's line.
    const places = stationHandPlaces(
      show.map((s) => s.view.cards.length),
      PLAY.width,
      PLAY.result - PLAY.hands - 8,
    );
    this.hands.forEach((h, i) => {
      const s = show[i];
      const p = places[i];
      const label = this.handLabels[i]!;
      h.visible = label.visible = s !== undefined && p !== undefined;
      if (!s || !p) return;
      h.position.set(p.x, p.y + HAND_LABEL * p.scale);
      h.scale.set(p.scale);
      label.text = s.label;
      label.scale.set(p.scale / HAND_SCALE);
      label.position.set(p.x, p.y);
      h.show(s.view, round?.roundId ?? '', now, { x: (PLAY.width - p.x) / p.scale, y: -CARD.height }, t);
    });
  }

  /**
   * The spots and chips are made again only when the set of spots or chips, the language or the
   * kind of seat bet picked changes; a decision changes only the decision's buttons (decision-buttons.ts).
   */
  private rebuild(state: StationState): void {
    const chipList = chipValues(state.limits.min, state.limits.max);
    const kinds = seatKinds(state.betting.spots);
    if (!kinds.includes(this.kind)) this.kind = kinds[0] ?? 'behind';
    const shape = JSON.stringify([state.betting.spots.map(spotId), chipList, state.language, this.kind]);
    if (shape === this.shape) return;
    this.shape = shape;
    this.spotLayer.removeChild(this.behindHeading);
    for (const layer of [this.spotLayer, this.chipLayer]) layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    const press = (spot: BetSpot) => () => {
      // The jackpot's one chip has its own amount (Portugal rule 47), whatever chip is chosen.
      const amount = spot.bet === 'jackpot' ? spot.min : this.chip;
      if (amount > 0 && !this.queue.busy()) this.ctx.command({ name: 'place-bet', spot: spotOf(spot), amount });
    };
    // The seat's own spots in one row, full height.
    const own = ownSpots(state.betting.spots);
    const gap = 14;
    const w = Math.floor((PLAY.width - gap * (own.length - 1)) / Math.max(1, own.length));
    this.spots = own.map((spot, i) => {
      const b = new Button(`bet-${spotId(spot)}`, w, PLAY.spotH, press(spot));
      b.position.set(i * (w + gap), 0);
      return b;
    });
    // Bets on other seats in a sub-panel of their own, three to a row, each named by its seat; tabs
    // over it (where there is more than one kind) pick what the seat buttons place.
    const behind = seatSpots(state.betting.spots, this.kind);
    // With kinds to pick, the seats go in one row (at most seven) and the tabs under it.
    const tabbed = kinds.length >= 2;
    const per = tabbed ? Math.max(PLAY.behindPerRow, behind.length) : PLAY.behindPerRow;
    this.kinds = !tabbed
      ? []
      : kinds.map((k, i) => {
          const kw = Math.floor((PLAY.width - gap * (kinds.length - 1)) / kinds.length);
          const b = new Button(`kind-${k}`, kw, PLAY.kindH, () => {
            this.kind = k;
            this.kindChanged = true;
          });
          b.position.set(i * (kw + gap), PLAY.behind - PLAY.spots + PLAY.behindH + 12);
          return b;
        });
    const bw = Math.floor((PLAY.width - gap * (per - 1)) / per);
    this.behindSpots = behind.map((spot, i) => {
      const b = new Button(`bet-${spotId(spot)}`, bw, PLAY.behindH, press(spot));
      b.position.set((i % per) * (bw + gap), PLAY.behind - PLAY.spots + Math.floor(i / per) * (PLAY.behindH + 12));
      return b;
    });
    this.spotLayer.addChild(this.behindHeading);
    if (this.spots.length) this.spotLayer.addChild(...this.spots);
    if (this.behindSpots.length) this.spotLayer.addChild(...this.behindSpots);
    if (this.kinds.length) this.spotLayer.addChild(...this.kinds);
    if (!chipList.includes(this.chip)) this.chip = chipList[0] ?? 0;
    this.chips = chipList.map((value, i) => {
      const b = new Button(
        `chip-${value}`,
        128,
        128,
        () => {
          this.chip = value;
          this.chips.forEach((c, j) => c.setActive(chipList[j] === value));
          this.refreshLayers();
        },
        { chip: CHIP_COLOURS[i % CHIP_COLOURS.length] ?? 0x222222 },
      );
      // A chip shows its value in whole currency units, as printed on real chips.
      b.setLabel(chipLabel(value, state));
      b.x = 20 + i * 150;
      return b;
    });
    if (this.chips.length) this.chipLayer.addChild(...this.chips);
  }

  selectedChip(): number {
    return this.chip;
  }
}

/** A chip's face: whole units with the locale's grouping (`1,000`, `1 000`); cents only if any. */
export function chipLabel(minor: number, state: Pick<StationState, 'currency' | 'language'>): string {
  return formatAmount(minor, state.currency, state.language);
}

/**
 * What the player is told of its bets behind that did not follow a double or a split: once per seat
 * and action. Before, a line each: a seat split five times with the bettor short said the same
 * line five times, and sixteen ran the result text off the bottom of the screen.
 */
export function notFollowedLines(t: TFunction, list: readonly { seat: number; action: 'double' | 'split' }[]): string[] {
  return [...new Set(list.map((n) => t(`station.notFollowed.${n.action}`, { n: n.seat })))];
}

/** A spot's name: the bet's own words, "behind seat N", or the bet on seat N's hand. */
export function spotName(t: TFunction, spot: BetSpot): string {
  return stakeName(t, spot);
}

/**
 * A stake's name (a recall line, a spot that did not play): a bet behind names its seat, a bet on
 * another seat's hand (any seat but `ownSeat`) the seat, a split hand its number.
 */
export function stakeName(
  t: TFunction,
  stake: { readonly bet: LineBet; readonly seat?: number; readonly seats?: readonly number[]; readonly hand?: number },
  ownSeat?: number,
): string {
  // A recalled stake summed across the seats (past the recall's caps) names every seat it holds.
  const bet = t(`bet.${stake.bet}`);
  const across = stake.seats && stake.seats.length > 1 ? t('desk.onSeats', { bet, seats: stake.seats.map(String) }) : null;
  if (across === null && stake.bet === 'behind' && stake.seat !== undefined) return t('desk.behind', { n: stake.seat });
  const name = across ?? (stake.seat !== undefined && stake.seat !== ownSeat ? t('desk.onSeat', { bet, n: stake.seat }) : bet);
  return stake.hand ? t('punctuation.joined', { first: name, second: t('desk.hand', { n: stake.hand + 1 }) }) : name;
}

/** A spot's id on its button (`bet-main`, `bet-behind:3`, `bet-anyPair:3`): the test hook and the layout name buttons by it. */
export function spotId(spot: Spot): string {
  return 'seat' in spot ? `${spot.bet}:${spot.seat}` : spot.bet;
}

/** The spot a betting panel's spot is (its limits aside). */
export function spotOf(s: BetSpot): Spot {
  if (!('seat' in s)) return { bet: s.bet };
  return s.bet === 'behind' ? { bet: 'behind', seat: s.seat } : { bet: s.bet, seat: s.seat };
}

function limitsText(t: TFunction, spot: BetSpot, state: StationState, oneLine: boolean): string {
  return t(oneLine ? 'desk.spotLimitsLine' : 'desk.spotLimits', { min: spot.min, max: spot.max, currency: state.currency });
}

/** The seat's own spots (main and side bets), in the host's order. */
export function ownSpots(spots: readonly BetSpot[]): BetSpot[] {
  return spots.filter((s) => !('seat' in s));
}

/** The spots for betting behind other seats (Art. 20), in the host's order. */
export function behindSpots(spots: readonly BetSpot[]): BetSpot[] {
  return seatSpots(spots, 'behind');
}

/** The spots of one kind on other seats: behind them (Art. 20), or one additional bet on their hands (Art. 13). */
export function seatSpots(spots: readonly BetSpot[], kind: BetSpot['bet']): BetSpot[] {
  return spots.filter((s) => 'seat' in s && s.bet === kind);
}

/** The kinds of spots on other seats the station is offered, behind first. */
export function seatKinds(spots: readonly BetSpot[]): BetSpot['bet'][] {
  const kinds: BetSpot['bet'][] = [];
  for (const s of spots) if ('seat' in s && !kinds.includes(s.bet)) kinds.push(s.bet);
  return kinds;
}
