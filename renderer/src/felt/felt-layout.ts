import { languages } from '../../../locales/index.js';
import type { BetId, GameKind } from '../../../protocol/index.js';
import { cardStep } from '../anim/motion.js';
import { CARD } from '../cards/card-size.js';

/**
 * Where everything sits on each game's felt, in design units (1920×1080), as pure data: the
 * drawing, the card animations and the overlap test all read the same numbers.
 *
 * Blackjack and casino war use the half-moon table across the whole screen; baccarat's
 * half-moon is narrower and the road maps take the right-hand panel, as on Macau mini-baccarat
 * tables where the scoreboard stands beside the dealer.
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface SpotLayout {
  /** The bet this spot takes (`main`, `banker`, `tie`…): the same names as the stations' spots. */
  bet: BetId;
  x: number;
  y: number;
  /** Circles for blackjack/war spots; boxes (width × height) for baccarat. */
  shape: 'circle' | 'box';
  r: number;
  width: number;
  height: number;
}

export interface SeatLayout {
  seat: number;
  /** The seat's main spot centre. */
  x: number;
  y: number;
  spots: SpotLayout[];
  /** Top centre of the seat's hand (blackjack, war); baccarat's seats have none, it is where a prize is celebrated. */
  hand: Point;
  /** Centre of the seat's name (screen language, drawn by the table screen). */
  label: Point;
  /** Top centre of the seat's result: a word over an amount, two lines. */
  result: Point;
}

/**
 * Room kept for what the table screen draws at a seat, in design units, so the layout can be
 * checked against the printed felt without a renderer: a hand of up to five cards with its total
 * under it, a seat's name, its result (word over amount, the longest language's width).
 */
export const HAND_ZONE = { width: CARD.width + 4 * cardStep(5, CARD.width), height: CARD.height + 42 } as const;
export const LABEL_ZONE = { width: 150, height: 34 } as const;
export const RESULT_ZONE = { width: 220, height: 80 } as const;

/** The rectangle a hand takes when its top centre is at `p`. */
export function handRect(p: Point): Rect {
  return { x: p.x - HAND_ZONE.width / 2, y: p.y, width: HAND_ZONE.width, height: HAND_ZONE.height };
}

/** The rectangle a seat's name takes around its centre, and its result under its top centre. */
export function labelRect(p: Point): Rect {
  return { x: p.x - LABEL_ZONE.width / 2, y: p.y - LABEL_ZONE.height / 2, width: LABEL_ZONE.width, height: LABEL_ZONE.height };
}
export function resultRect(p: Point): Rect {
  return { x: p.x - RESULT_ZONE.width / 2, y: p.y, width: RESULT_ZONE.width, height: RESULT_ZONE.height };
}

export interface FeltLayout {
  game: GameKind;
  felt: { cx: number; top: number; rx: number; ry: number };
  seats: SeatLayout[];
  /**
   * Where the dealer's hand goes (blackjack, war), or baccarat's two hands; and war's stadium box
   * (the remote stations' one card), beside the dealer's since it is no seat of the felt.
   */
  hands: { dealer: Point; player: Point; banker: Point; stadium: Point };
  shoe: Rect;
  discard: Rect;
  /**
   * Where the shoe's and the discard holder's names go (screen language): beside the holders
   * on the rail side, clear of seat 1's and seat 7's cards; baccarat's under them. `align` is the
   * text's anchor (0 left, 0.5 centre, 1 right).
   */
  holderLabels: Record<'shoe' | 'discard', Point & { align: number }>;
  title: { zh: Point; pt: Point; limits: Point; limitsPt: Point };
  /** Font sizes of the printed limits (zh-Hant, pt): smaller on baccarat's narrower felt. */
  limitsSize: [number, number];
  /** Font sizes of the printed game name (zh-Hant, pt). */
  nameSize: [number, number];
  /** Radius of the printed arc line (blackjack insurance, war tie rule). */
  arcRadius: number;
  /** Baccarat: the player's and banker's card boxes with their printed names under them. */
  cardBoxes?: Record<'player' | 'banker', { box: Rect; label: Point }>;
  phase: Point;
  cue: Point;
  /** The panel beside or below the felt: baccarat roads, the other games' history strip. */
  panel: Rect;
  languages: Point;
}

/** The rail drawn around the cloth, and how far the felt's drawing reaches beyond the cloth (the rail and half its edge's stroke). */
export const RAIL_WIDTH = 34;
export const FELT_REACH = RAIL_WIDTH + 2;

/** Where baccarat's road panel begins. */
const BACCARAT_PANEL_X = 1410;
/** Room kept between the felt's rail and the screen's edge or the road panel. */
const FELT_MARGIN = 8;
const BLACKJACK_FELT = { cx: 960, top: 70, rx: 860, ry: 930 };
/** Baccarat's half-moon fills the room left of the road panel, rail included, and no more. */
const BACCARAT_RX = (BACCARAT_PANEL_X - 2 * FELT_MARGIN) / 2 - FELT_REACH;
const BACCARAT_FELT = { cx: FELT_MARGIN + FELT_REACH + BACCARAT_RX, top: 70, rx: BACCARAT_RX, ry: 890 };

/** Side bets drawn as small circles beside the main spot, in the order the profile lists them. */
const SIDE_R = 27;
const MAIN_R = 64;

/** How far a seat's hand sits above its main spot's centre: the cards cover the spot's top half, their total its middle. */
const HAND_RISE = 152;
const HAND_LEAN = 32;

/**
 * Where a seat's side spots go around its main spot, in degrees from straight down the screen:
 * under the main spot, on the player's side of it, where the cards (above) never reach. The
 * first pair sits nearest the middle; a single side bet (war's tie) straight under.
 */
const SIDE_ANGLES = [[0], [-22, 22], [-22, 22, -56], [-56, -22, 22, 56]] as const;
const SIDE_RING = MAIN_R + SIDE_R + 8;

/** A seat of the half-moon (blackjack, war): main spot, side spots under it, cards above it, name and result outward. */
function circleSeat(seat: number, count: number, bets: readonly BetId[]): SeatLayout {
  const felt = BLACKJACK_FELT;
  const radius = 720;
  // Seats 1 and 7 sit high on the rail, so each seat's cards clear its neighbour's side spots.
  const first = Math.PI * 0.12;
  const a = first + (Math.PI * 0.76 * (seat - 1)) / Math.max(1, count - 1);
  const p = { x: felt.cx + radius * Math.cos(a), y: felt.top + radius * Math.sin(a) };
  const spots: SpotLayout[] = [{ bet: 'main', x: p.x, y: p.y, shape: 'circle', r: MAIN_R, width: MAIN_R * 2, height: MAIN_R * 2 }];
  const side = bets.filter((b) => b !== 'main').slice(0, 4);
  const angles = SIDE_ANGLES[side.length - 1] ?? [];
  side.forEach((bet, i) => {
    const t = Math.PI / 2 - ((angles[i] ?? 0) * Math.PI) / 180;
    spots.push({ bet, x: p.x + SIDE_RING * Math.cos(t), y: p.y + SIDE_RING * Math.sin(t), shape: 'circle', r: SIDE_R, width: SIDE_R * 2, height: SIDE_R * 2 });
  });
  // The name goes straight out (toward the player) from the spot, just clear of the seat's spots;
  // the result's box beyond it, clear of the name and the spots, kept on the screen.
  const ox = Math.cos(a);
  const oy = Math.sin(a);
  const clear = (r: Rect) => !spots.some((s) => circleHitsRect(s, r));
  let d = MAIN_R;
  while (!clear(labelRect({ x: p.x + ox * d, y: p.y + oy * d }))) d += 4;
  const label = { x: p.x + ox * d, y: p.y + oy * d };
  const onScreen = (c: Point): Point => ({ x: Math.max(RESULT_ZONE.width / 2 + 8, Math.min(1920 - RESULT_ZONE.width / 2 - 8, c.x)), y: c.y });
  let e = d;
  let result = onScreen({ x: p.x + ox * e, y: p.y + oy * e });
  while (!clear(resultRect(result)) || overlaps(resultRect(result), labelRect(label))) result = onScreen({ x: p.x + ox * (e += 4), y: p.y + oy * e });
  // The cards lean toward the table's middle a little, away from the next seat's side spots.
  return { seat, x: p.x, y: p.y, spots, hand: { x: p.x - ox * HAND_LEAN, y: p.y - HAND_RISE }, label, result };
}

/** Whether a circle touches a rectangle. */
export function circleHitsRect(c: Pick<SpotLayout, 'x' | 'y' | 'r'>, r: Rect): boolean {
  const nx = Math.max(r.x, Math.min(c.x, r.x + r.width));
  const ny = Math.max(r.y, Math.min(c.y, r.y + r.height));
  return Math.hypot(c.x - nx, c.y - ny) < c.r;
}

function baccaratSeat(seat: number, count: number, bets: readonly BetId[]): SeatLayout {
  // A wider arc than the half-moon's seats: each seat's result fits under its name, clear of the next seat.
  const f = BACCARAT_FELT;
  const a = Math.PI * 0.1 + (Math.PI * 0.8 * (seat - 1)) / Math.max(1, count - 1);
  // Seats lie on an ellipse deeper than wide, inside the cloth's: the felt is narrow beside the roads, not short.
  const p = { x: f.cx + 0.88 * f.rx * Math.cos(a), y: f.top + 690 * Math.sin(a) };
  // Three boxes in a row (閒 和 莊) and the additional bets under them, as printed on a mini-baccarat
  // felt: the pairs, with Lucky 6 between them where the table offers it (the row then as wide as the one above).
  const w = 52;
  const h = 40;
  const row = (['player', 'tie', 'banker'] as const).filter((b) => bets.includes(b));
  const pairs = (['playerPair', 'lucky6', 'bankerPair'] as const).filter((b) => bets.includes(b));
  const pw = pairs.length > 2 ? 50 : w * 1.5;
  const spots: SpotLayout[] = [];
  row.forEach((bet, i) => spots.push({ bet, x: p.x + (i - (row.length - 1) / 2) * (w + 4), y: p.y - h / 2 - 2, shape: 'box', r: 8, width: w, height: h }));
  pairs.forEach((bet, i) =>
    spots.push({ bet, x: p.x + (i - (pairs.length - 1) / 2) * (pw + 4), y: p.y + h / 2 + 2, shape: 'box', r: 8, width: pw, height: h - 6 }),
  );
  // The name under the pairs and the result under the name, pulled in from the road panel's edge.
  const label = { x: p.x, y: p.y + h + 18 };
  const half = RESULT_ZONE.width / 2;
  const result = { x: Math.max(half + 8, Math.min(BACCARAT_PANEL_X - half - 8, p.x)), y: label.y + LABEL_ZONE.height / 2 + 4 };
  return { seat, x: p.x, y: p.y, spots, hand: { x: p.x, y: p.y - h - 60 }, label, result };
}

export function feltLayout(game: GameKind, seatCount: number, bets: readonly BetId[]): FeltLayout {
  const seats =
    game === 'baccarat'
      ? Array.from({ length: seatCount }, (_, i) => baccaratSeat(i + 1, seatCount, bets))
      : Array.from({ length: seatCount }, (_, i) => circleSeat(i + 1, seatCount, bets));
  if (game === 'baccarat') {
    const f = BACCARAT_FELT;
    return {
      game,
      felt: f,
      seats,
      hands: {
        dealer: { x: f.cx, y: f.top + 100 },
        player: { x: f.cx - 170, y: f.top + 100 },
        banker: { x: f.cx + 170, y: f.top + 100 },
        // Baccarat's remote stations bet on the same two hands: no box of their own is dealt.
        stadium: { x: f.cx + 170, y: f.top + 100 },
      },
      // The boxes hold three cards and their total; the names are printed under the boxes.
      cardBoxes: {
        player: { box: { x: f.cx - 320, y: f.top + 86, width: 300, height: 196 }, label: { x: f.cx - 170, y: f.top + 302 } },
        banker: { box: { x: f.cx + 20, y: f.top + 86, width: 300, height: 196 }, label: { x: f.cx + 170, y: f.top + 302 } },
      },
      shoe: { x: f.cx + 400, y: f.top + 20, width: 130, height: 90 },
      discard: { x: f.cx - 530, y: f.top + 20, width: 130, height: 90 },
      holderLabels: { shoe: { x: f.cx + 465, y: f.top + 126, align: 0.5 }, discard: { x: f.cx - 465, y: f.top + 126, align: 0.5 } },
      title: { zh: { x: f.cx, y: 401 }, pt: { x: f.cx, y: 457 }, limits: { x: f.cx, y: 494 }, limitsPt: { x: f.cx, y: 524 } },
      nameSize: [48, 28],
      limitsSize: [22, 18],
      arcRadius: 0,
      phase: { x: f.cx, y: 100 },
      cue: { x: f.cx, y: 152 },
      panel: { x: BACCARAT_PANEL_X, y: 16, width: 1920 - 16 - BACCARAT_PANEL_X, height: 1048 },
      // Under the half-moon's left end: one row of up to three, else two rows (a fourth language,
      // zh-Hans, made the row run under the rail); the rectangle is languagesRect's.
      languages: { x: languages.length <= 3 ? 30 : 16, y: 1080 - 16 - baccaratLanguageLines() * 96 - (baccaratLanguageLines() - 1) * 12 },
    };
  }
  const f = BLACKJACK_FELT;
  return {
    game,
    felt: f,
    seats,
    // The dealer's cards and total end above the printed arc.
    hands: {
      dealer: { x: f.cx, y: f.top + 122 },
      player: { x: f.cx - 190, y: f.top + 122 },
      banker: { x: f.cx + 190, y: f.top + 122 },
      stadium: { x: f.cx + 300, y: f.top + 122 },
    },
    shoe: { x: f.cx + 470, y: f.top + 10, width: 150, height: 90 },
    discard: { x: f.cx - 620, y: f.top + 10, width: 150, height: 90 },
    holderLabels: { shoe: { x: f.cx + 632, y: f.top + 55, align: 0 }, discard: { x: f.cx - 632, y: f.top + 55, align: 1 } },
    // Under the printed arc and above the seats' cards (seats 3 and 5 deal up to y 617).
    title: { zh: { x: f.cx, y: 441 }, pt: { x: f.cx, y: 493 }, limits: { x: f.cx, y: 529 }, limitsPt: { x: f.cx, y: 557 } },
    nameSize: [54, 34],
    limitsSize: [26, 22],
    arcRadius: 334,
    phase: { x: f.cx, y: 100 },
    cue: { x: f.cx, y: 164 },
    panel: { x: 1480, y: 872, width: 420, height: 192 },
    // Stacked in the bottom-left corner, beside the end seats' names and results: one a catalogue.
    languages: { x: 16, y: 1080 - 16 - languages.length * 96 - (languages.length - 1) * 12 },
  };
}

/** The half-ellipse the felt's drawing covers, rail included: nothing else may lie on it. */
export function feltExtent(f: FeltLayout['felt']): FeltLayout['felt'] {
  return { cx: f.cx, top: f.top - 2, rx: f.rx + FELT_REACH, ry: f.ry + FELT_REACH };
}

/**
 * Whether a rectangle touches a half-ellipse hanging from its top edge (the felt): exact, by the
 * nearest point of the rectangle (clipped to below the top) to the centre, with the ellipse
 * scaled to a unit circle.
 */
export function feltMeetsRect(f: FeltLayout['felt'], r: Rect): boolean {
  const top = Math.max(r.y, f.top);
  if (top >= r.y + r.height || r.width <= 0) return false;
  const nx = Math.max(r.x, Math.min(f.cx, r.x + r.width));
  const ny = Math.max(top, Math.min(f.top, r.y + r.height));
  return ((nx - f.cx) / f.rx) ** 2 + ((ny - f.top) / f.ry) ** 2 < 1;
}

/** The felt's outline: a half-ellipse hanging from the dealer's rail. */
export function feltOutline(f: FeltLayout['felt'], grow = 0, steps = 96): number[] {
  const points: number[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = (Math.PI * i) / steps;
    points.push(f.cx + (f.rx + grow) * Math.cos(a), f.top + (f.ry + grow) * Math.sin(a));
  }
  return points;
}

/** Bounds of a spot, for overlap checks and hit areas. */
export function spotRect(s: SpotLayout): Rect {
  return s.shape === 'circle'
    ? { x: s.x - s.r, y: s.y - s.r, width: s.r * 2, height: s.r * 2 }
    : { x: s.x - s.width / 2, y: s.y - s.height / 2, width: s.width, height: s.height };
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether two spots touch: by distance for two circles, by bounds otherwise. */
export function spotsOverlap(a: SpotLayout, b: SpotLayout): boolean {
  if (a.shape === 'circle' && b.shape === 'circle') return Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r;
  return overlaps(spotRect(a), spotRect(b));
}

/** Widths the printed centre's lines take at their sizes (measured in the bundled font, rounded up). */
const PRINT_WIDTH = { blackjack: { name: 660, limits: 640 }, war: { name: 520, limits: 640 }, baccarat: { name: 420, limits: 460 } } as const;

/**
 * The printed centre of the felt (the game's name and limits in both languages) as rectangles,
 * for checks that nothing the round draws lands on it.
 */
export function printedCentre(l: FeltLayout): Rect[] {
  const w = PRINT_WIDTH[l.game];
  const line = (p: Point, width: number, size: number): Rect => ({ x: p.x - width / 2, y: p.y - size * 0.7, width, height: size * 1.4 });
  return [
    line(l.title.zh, w.name, l.nameSize[0]),
    line(l.title.pt, w.name, l.nameSize[1]),
    line(l.title.limits, w.limits, l.limitsSize[0]),
    line(l.title.limitsPt, w.limits, l.limitsSize[1]),
  ];
}

/** The table screen's language buttons: one a catalogue, of 150 × 96, in rows (baccarat) or a column (the half-moon). */
export const LANGUAGE_BUTTON = { width: 150, height: 96, gap: 12 } as const;
export function languagesRect(l: FeltLayout): Rect {
  const across = languagesAcross(l);
  const lines = Math.ceil(languages.length / across);
  return {
    x: l.languages.x,
    y: l.languages.y,
    width: across * LANGUAGE_BUTTON.width + (across - 1) * LANGUAGE_BUTTON.gap,
    height: lines * LANGUAGE_BUTTON.height + (lines - 1) * LANGUAGE_BUTTON.gap,
  };
}

/** Lines of language buttons under baccarat's half-moon: one up to three languages, else two. */
function baccaratLanguageLines(): number {
  return languages.length <= 3 ? 1 : 2;
}

/** Buttons a line of the table's language switch: a column beside the half-moon, rows under baccarat's. */
export function languagesAcross(l: FeltLayout): number {
  return l.game === 'baccarat' ? Math.ceil(languages.length / baccaratLanguageLines()) : 1;
}

/** The rectangle a holder's name takes (the longest, «Cartas retiradas», at 22 px). */
export function holderLabelRect(p: FeltLayout['holderLabels']['shoe']): Rect {
  const width = 180;
  return { x: p.x - width * p.align, y: p.y - 15, width, height: 30 };
}
