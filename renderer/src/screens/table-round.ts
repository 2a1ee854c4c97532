import { Container, Graphics, Text, type DestroyOptions } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import type { TFunction } from 'i18next';
import { STADIUM_SEAT, type Currency, type HandView, type Language, type Presentation, type PrizeWin, type RoundView } from '../../../protocol/index.js';
import { FLIGHT_MS } from '../anim/motion.js';
import { CARD, CardView } from '../cards/card-view.js';
import { HandSprite } from '../cards/hand-view.js';
import { languagesRect, type FeltLayout, type Point, type Rect } from '../felt/felt-layout.js';
import { HAND_GAP, handPlaces, handRooms, type HandPlace } from '../felt/hand-room.js';
import { RING_STROKE, seatRing } from '../felt/seat-ring.js';
import { Celebration } from '../ui/celebration.js';
import { liveText } from '../ui/live-text.js';
import { COLORS, DESIGN, textStyle } from '../ui/theme.js';
import { PrizeWatch, prizeText, resultText, seatPrizes, seatResults } from './result-text.js';
import { cueText, phaseText, secondsLeft } from './round-text.js';
import { NEVER, nextSecondAt, nextStepAt } from '../anim/wake.js';
import { ContextCache } from '../pixi/context-cache.js';

const handKey = (h: HandView) => (h.owner === 'seat' ? `seat:${h.seat ?? 0}:${h.hand ?? 0}` : h.owner);

/** Burned cards kept drawn on the discard holder (older ones are under them anyway). */
const DISCARD_SHOWN = 4;

/** The phase's pill is its words' width and 64 units, rounded up to a step of this many units (a few looks, each drawn once). */
const PILL_STEP = 8;

/** The marker's pulse is drawn in steps of this many ms (20 a second): smooth to the eye, a third of a display's frames. */
export const PULSE_STEP_MS = 50;

/**
 * The round drawn over the felt: every hand keyed by owner, seat and split index, so a card read
 * by the shoe flies from the shoe to its own hand; burns fly to the discard; the marker shows
 * where the next card goes; results per seat; phase, countdown and guidance lines.
 */
export class TableRound extends Container {
  private readonly hands = new Map<string, HandSprite>();
  private readonly handLayer = new Container();
  private readonly burnLayer = new Container();
  private readonly burns: CardView[] = [];
  private burnNext = 0;
  private readonly phasePill = new Graphics();
  /** The pill's looks (its width and the phase's colour), each drawn once. */
  private readonly pillLooks = new ContextCache();
  /** The phase and its countdown, redrawn every second of a betting window: a live text (ui/live-text.ts). */
  private readonly phase = liveText({ fontSize: 44, fill: COLORS.ivory, fontWeight: '700' });
  private readonly cue = new Text({
    text: '',
    style: textStyle({ fontSize: 36, fill: COLORS.goldText, fontWeight: '700', stroke: { color: '#04100b', width: 5 } }),
  });
  private readonly marker = new Graphics();
  /** The marker's looks (a seat's ring, the wide ring round a hand or the discard), each drawn once. */
  private readonly markerLooks = new ContextCache();
  private markerOn = false;
  private readonly results = new Container();
  private readonly resultTexts: Text[] = [];
  private readonly celebrations = new Map<number, Celebration>();
  private readonly celebrationLayer = new Container();
  private readonly prizeWatch = new PrizeWatch<Map<number, PrizeWin[]>>();
  /** The prizes being celebrated, per seat, so a language change rewords them in place. */
  private celebrating = new Map<number, PrizeWin[]>();
  private betWords: Presentation['betWords'] = undefined;
  private round: RoundView | null = null;
  private t: TFunction | null = null;
  private layout: FeltLayout | null = null;
  /** Each seat's room for its hands on this layout (felt/hand-room.ts), worked out once a layout. */
  private rooms = new Map<number, Rect>();
  private lastCue = '';
  private lastCardCount = 0;
  private lastRoundId = '';
  private busy = false;

  constructor(private readonly announce: (event: string) => void = () => {}) {
    super();
    this.phase.anchor.set(0.5);
    this.cue.anchor.set(0.5);
    this.burnLayer.label = 'discard-pile';
    this.addChild(this.marker, this.burnLayer, this.handLayer, this.results, this.phasePill, this.phase, this.cue, this.celebrationLayer);
  }

  /** The looks the marker and the pill were given go with the round layer (a context destroyed twice is destroyed once). */
  override destroy(options?: DestroyOptions): void {
    super.destroy(options);
    this.markerLooks.destroy();
    this.pillLooks.destroy();
  }

  setLayout(layout: FeltLayout): void {
    this.layout = layout;
    this.rooms = handRooms(layout);
    this.phase.position.set(layout.phase.x, layout.phase.y);
    this.cue.position.set(layout.cue.x, layout.cue.y);
    // The marker is placed from the layout: a new layout places it again.
    this.markerOn = false;
    for (const h of this.hands.values()) h.destroy(DISPOSE);
    this.hands.clear();
    for (const c of this.celebrations.values()) c.destroy(DISPOSE);
    this.celebrations.clear();
  }

  show(round: RoundView | null, t: TFunction, currency: Currency, language: Language, now: number, betWords: Presentation['betWords'] = this.betWords): void {
    this.round = round;
    this.t = t;
    this.betWords = betWords;
    this.visible = round !== null;
    const layout = this.layout;
    if (!round || !layout) return;
    const newRound = round.roundId !== this.lastRoundId;
    this.lastRoundId = round.roundId;

    // A burn happened when the cue was a burn and no hand gained a card since.
    const cardCount = round.hands.reduce((a, h) => a + h.cards.length, 0);
    const cueKey = JSON.stringify(round.cue);
    if (this.lastCue !== cueKey && this.lastCue.includes('"to":"burn"') && (newRound || cardCount === this.lastCardCount)) this.burn(now);
    this.lastCue = cueKey;
    this.lastCardCount = cardCount;

    const places = this.seatPlaces(round.hands);
    const seen = new Set<string>();
    for (const h of round.hands) {
      const key = handKey(h);
      seen.add(key);
      let sprite = this.hands.get(key);
      if (!sprite) {
        sprite = new HandSprite();
        this.hands.set(key, sprite);
        this.handLayer.addChild(sprite);
      }
      sprite.visible = true;
      const p = places.get(key) ?? { ...this.handPosition(h), scale: 1 };
      sprite.position.set(p.x, p.y);
      sprite.scale.set(p.scale);
      // The shoe in the hand's own coordinates (scaled with it), so a card flies from the shoe.
      const shoe = { x: (layout.shoe.x + layout.shoe.width / 2 - p.x) / p.scale - CARD.width / 2, y: (layout.shoe.y + 10 - p.y) / p.scale };
      sprite.show(h, round.roundId, now, shoe, t);
    }
    for (const [key, sprite] of this.hands) if (!seen.has(key)) sprite.visible = false;
    this.cue.text = cueText(t, round.cue);
    this.drawResults(round, t, currency, language);
    this.celebrate(round, t, currency, language, now);
    this.busy = true;
    this.tick(now);
  }

  /**
   * Per frame: the countdown, the cards in flight and the marker's pulse; nothing else changes.
   * Returns when the round next moves (anim/wake.ts): now while a card flies or a prize is
   * celebrated, the pulse's next step while the marker is on, the countdown's next second.
   */
  tick(now: number): number {
    const round = this.round;
    if (!round || !this.t || !this.visible) return NEVER;
    // The phase line changes with a snapshot or once a second: no string is built in between.
    const seconds = secondsLeft(round.endsAt, now);
    if (round !== this.phaseRound || seconds !== this.phaseSeconds) {
      this.phaseRound = round;
      this.phaseSeconds = seconds;
      this.drawPhase(round, phaseText(this.t, round, now));
    }
    let next = round.phase === 'betting' ? nextSecondAt(round.endsAt, now) : NEVER;
    if (this.busy) {
      let moving = false;
      for (const h of this.hands.values()) if (h.visible) moving = h.update(now) || moving;
      for (const b of this.burns) moving = b.update(now) || moving;
      this.busy = moving;
      if (moving) next = now;
    }
    if (this.drawMarker(round, now)) next = Math.min(next, nextStepAt(now, PULSE_STEP_MS));
    if (this.celebrating.size) {
      let on = false;
      for (const c of this.celebrations.values()) on = c.tick(now) || on;
      if (!on) this.celebrating = new Map();
      else next = now;
    }
    return next;
  }

  private phaseRound: RoundView | null = null;
  private phaseSeconds = -1;

  private drawPhase(round: RoundView, text: string): void {
    if (text === this.phase.text) return;
    this.phase.text = text;
    // Its width in steps of PILL_STEP units, so a countdown's digits show one of a few looks, each drawn once.
    const w = Math.ceil((this.phase.width + 64) / PILL_STEP) * PILL_STEP;
    const color = round.phase === 'hold' ? 0x7a1020 : round.phase === 'betting' ? 0x0f4d2e : 0x111111;
    this.phasePill.context = this.pillLooks.get(`${w}:${color}`, (c) =>
      c
        .roundRect(-w / 2, -34, w, 68, 34)
        .fill({ color, alpha: 0.85 })
        .stroke({ width: 3, color: COLORS.gold }),
    );
    this.phasePill.position.set(this.phase.x, this.phase.y);
  }

  /**
   * The highlight as drawn (design units, in this layer's coordinates) and, for a seat, that
   * seat's main spot: for the tests, which check the ring lies on its seat's spot.
   */
  highlight(): {
    x: number;
    y: number;
    r: number;
    seat: number | null;
    decision: boolean;
    moving: boolean;
    spot: { x: number; y: number; r: number } | null;
  } | null {
    const cue = this.round?.cue;
    if (!this.markerOn || !cue || !this.layout || cue.kind === 'shuffle' || cue.kind === 'jackpot-unpaid') return null;
    const b = this.marker.getLocalBounds();
    const r = Math.max(b.width, b.height) / 2;
    const seatNo = cue.kind === 'decision' || cue.to === 'seat' ? (cue.seat ?? null) : null;
    const seat = seatNo === null ? undefined : this.layout.seats.find((s) => s.seat === seatNo);
    const main = seat?.spots[0];
    const spot = !main
      ? null
      : main.shape === 'circle'
        ? { x: main.x, y: main.y, r: main.r }
        : { x: seat!.x, y: seat!.y, r: Math.hypot(main.width, main.height) / 2 };
    return { x: this.marker.x, y: this.marker.y, r, seat: seatNo, decision: cue.kind === 'decision', moving: this.busy, spot };
  }

  /** The codes of the cards drawn (hands only, not the face-down burns), for test hooks. */
  cardCodes(): string[] {
    return [...this.hands.values()].filter((h) => h.visible).flatMap((h) => h.codes());
  }

  private handPosition(h: HandView): Point {
    const l = this.layout!;
    if (h.owner === 'dealer') return l.hands.dealer;
    if (h.owner === 'player') return l.hands.player;
    if (h.owner === 'banker') return l.hands.banker;
    if (h.seat === STADIUM_SEAT) return l.hands.stadium;
    return (l.seats.find((s) => s.seat === h.seat) ?? l.seats[0]!).hand;
  }

  /**
   * Where each seat's hands go, by hand key: one at the seat's own place, a split seat's in its
   * room (felt/hand-room.ts), in the order split, each cell as wide as its widest hand and a gap.
   * Before, they fanned a hand's width apart: twelve hands ran over the next seats and off the screen.
   */
  private seatPlaces(hands: readonly HandView[]): Map<string, HandPlace> {
    const l = this.layout!;
    const bySeat = new Map<number, HandView[]>();
    for (const h of hands) if (h.owner === 'seat' && h.seat !== STADIUM_SEAT) bySeat.set(h.seat ?? 0, [...(bySeat.get(h.seat ?? 0) ?? []), h]);
    const out = new Map<string, HandPlace>();
    for (const [seatNo, own] of bySeat) {
      const seat = l.seats.find((s) => s.seat === seatNo) ?? l.seats[0]!;
      const room = this.rooms.get(seat.seat) ?? { x: seat.hand.x, y: seat.hand.y, width: 0, height: 0 };
      const sorted = [...own].sort((a, b) => (a.hand ?? 0) - (b.hand ?? 0));
      const cell = HandSprite.width(Math.max(3, ...sorted.map((h) => h.cards.length))) + HAND_GAP;
      handPlaces(room, seat.hand, sorted.length, cell).forEach((p, i) => out.set(handKey(sorted[i]!), p));
    }
    return out;
  }

  /** Each visible hand's bounds as drawn (design units, this layer's coordinates), by its key: for the tests. */
  handBounds(): { key: string; x: number; y: number; width: number; height: number; scale: number }[] {
    return [...this.hands]
      .filter(([, h]) => h.visible)
      .map(([key, h]) => {
        const b = h.getLocalBounds();
        return { key, x: h.x + b.x * h.scale.x, y: h.y + b.y * h.scale.y, width: b.width * h.scale.x, height: b.height * h.scale.y, scale: h.scale.x };
      });
  }

  private burn(now: number): void {
    const l = this.layout!;
    let card = this.burns[this.burnNext % DISCARD_SHOWN];
    if (!card) {
      card = new CardView();
      this.burns.push(card);
      this.burnLayer.addChild(card);
    }
    this.burnNext++;
    card.show('XX');
    // Burns lie in the discard holder at a smaller size, so the holder's label stays readable.
    card.scale.set(0.62);
    const jitter = (this.burnNext % DISCARD_SHOWN) * 4;
    const to = { x: l.discard.x + l.discard.width / 2 - (CARD.width * 0.62) / 2 + jitter, y: l.discard.y + 2 + jitter / 2 };
    card.place(to.x, to.y, now, { x: l.shoe.x + l.shoe.width / 2 - CARD.width / 2, y: l.shoe.y + 8 }, FLIGHT_MS);
    this.burnLayer.setChildIndex(card, this.burnLayer.children.length - 1);
    this.busy = true;
  }

  /** Places the marker where the next card goes and sets its pulse; true while it is on. */
  private drawMarker(round: RoundView, now: number): boolean {
    const cue = round.cue;
    const on = !!cue && cue.kind !== 'shuffle' && cue.kind !== 'jackpot-unpaid' && round.phase !== 'hold';
    if (!on) {
      this.marker.visible = this.markerOn = false;
      return false;
    }
    if (!this.markerOn || this.lastMarker !== this.lastCue) {
      this.markerOn = true;
      this.lastMarker = this.lastCue;
      const l = this.layout!;
      // A seat's ring goes on the seat's own spot (seatRing); the dealer's hand, the burn and the
      // stadium's box keep the wide ring round their place.
      let p: Point;
      let ring: number | null = null;
      if ((cue.kind === 'decision' || cue.to === 'seat') && cue.seat === STADIUM_SEAT) p = { x: l.hands.stadium.x, y: l.hands.stadium.y + CARD.height / 2 };
      else if (cue.kind === 'decision' || cue.to === 'seat') {
        const seat = l.seats.find((s) => s.seat === cue.seat) ?? l.seats[0]!;
        const r = seatRing(seat);
        p = r;
        ring = r.r;
      } else if (cue.to === 'burn') p = { x: l.discard.x + l.discard.width / 2, y: l.discard.y + l.discard.height / 2 };
      else p = { x: l.hands[cue.to].x, y: l.hands[cue.to].y + CARD.height / 2 };
      this.marker.context =
        ring !== null
          ? this.markerLooks.get(`ring:${ring}`, (c) => c.circle(0, 0, ring).stroke({ width: RING_STROKE, color: COLORS.gold, alpha: 0.95 }))
          : this.markerLooks.get('wide', (c) =>
              c.circle(0, 0, 84).stroke({ width: 8, color: COLORS.gold, alpha: 0.95 }).circle(0, 0, 96).stroke({ width: 3, color: 0xffffff, alpha: 0.5 }),
            );
      this.marker.visible = true;
      this.marker.position.set(p.x, p.y);
    }
    // A slow pulse so the dealer's eye finds it; alpha only, no redraw, in steps (PULSE_STEP_MS).
    const step = Math.floor(now / PULSE_STEP_MS) * PULSE_STEP_MS;
    this.marker.alpha = 0.6 + 0.4 * Math.abs(Math.sin(step / 400));
    return true;
  }

  private lastMarker = '';

  /**
   * Each seat's own result as a word and an amount (贏/輸/和局 +MOP$…): the seated player's lines
   * only; bets behind the seat are other players' and show on their own stations.
   */
  private drawResults(round: RoundView, t: TFunction, currency: Currency, language: Language): void {
    const l = this.layout!;
    let i = 0;
    for (const { seat, net } of seatResults(round.results ?? [])) {
      let text = this.resultTexts[i];
      if (!text) {
        text = new Text({
          text: '',
          style: textStyle({ fontSize: 30, fontWeight: '700', align: 'center', lineHeight: 34, stroke: { color: '#04100b', width: 6 } }),
        });
        text.anchor.set(0.5, 0);
        this.resultTexts.push(text);
        this.results.addChild(text);
      }
      const p = l.seats.find((s) => s.seat === seat)?.result ?? { x: 0, y: 0 };
      // Word over amount: two short lines stay inside the seat's width in every language.
      text.text = resultText(t, net, currency, language).replace(' ', '\n');
      text.style.fill = net > 0 ? '#7dff9a' : net < 0 ? '#ff8a8a' : COLORS.ivory;
      text.position.set(p.x, p.y);
      text.visible = true;
      i++;
    }
    for (; i < this.resultTexts.length; i++) this.resultTexts[i]!.visible = false;
  }

  /** A seat's additional-bet win or special prize, celebrated briefly over its cards. */
  private celebrate(round: RoundView, t: TFunction, currency: Currency, language: Language, now: number): void {
    const fresh = this.prizeWatch.next(round.roundId, round.phase === 'results' && round.results !== null, seatPrizes(round.results ?? []));
    const l = this.layout!;
    if (fresh) {
      this.celebrating = fresh;
      for (const [seat, wins] of fresh) {
        let c = this.celebrations.get(seat);
        if (!c) {
          c = new Celebration(34);
          this.celebrations.set(seat, c);
          this.celebrationLayer.addChild(c);
        }
        const s = l.seats.find((x) => x.seat === seat);
        // Over the seat's cards, never over the road maps or the language buttons beside the felt.
        if (s) c.place({ x: s.hand.x, y: s.hand.y + CARD.height / 2 }, [l.panel, languagesRect(l)], { x: 0, y: 0, ...DESIGN });
        c.start(
          wins.map((w) => prizeText(t, this.betWords, w, currency, language)),
          now,
        );
        for (const w of wins) this.announce(`celebrate:seat:${seat}:${w.prize}:${w.bet}`);
      }
    } else {
      for (const [seat, wins] of this.celebrating) this.celebrations.get(seat)?.setLines(wins.map((w) => prizeText(t, this.betWords, w, currency, language)));
    }
  }
}
