import type { GameKind } from '../../../protocol/index.js';

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
  bet: string;
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
  /** The seat's main spot centre: its cards go here, its label below, its result above. */
  x: number;
  y: number;
  spots: SpotLayout[];
  label: Point;
  result: Point;
}

export interface FeltLayout {
  game: GameKind;
  felt: { cx: number; top: number; rx: number; ry: number };
  seats: SeatLayout[];
  /** Where the dealer's hand goes (blackjack, war), or baccarat's two hands. */
  hands: { dealer: Point; player: Point; banker: Point };
  shoe: Rect;
  discard: Rect;
  title: { zh: Point; pt: Point; limits: Point; limitsPt: Point };
  /** Font sizes of the printed limits (zh-Hant, pt): smaller on baccarat's narrower felt. */
  limitsSize: [number, number];
  /** Font sizes of the printed game name (zh-Hant, pt). */
  nameSize: [number, number];
  /** Radius of the printed arc line (blackjack insurance, war tie rule). */
  arcRadius: number;
  phase: Point;
  cue: Point;
  /** The panel beside or below the felt: baccarat roads, the other games' history strip. */
  panel: Rect;
  languages: Point;
}

const BLACKJACK_FELT = { cx: 960, top: 70, rx: 860, ry: 930 };
const BACCARAT_FELT = { cx: 690, top: 70, rx: 640, ry: 720 };

/** Side bets drawn as small circles beside the main spot, in the order the profile lists them. */
const SIDE_R = 27;
const MAIN_R = 64;

function arc(felt: { cx: number; top: number }, radius: number, n: number, count: number): Point {
  // Seat 1 is on the dealer's left, the right of the screen seen from the players' side.
  const first = Math.PI * 0.14;
  const last = Math.PI * 0.86;
  const a = first + ((last - first) * (n - 1)) / Math.max(1, count - 1);
  return { x: felt.cx + radius * Math.cos(a), y: felt.top + radius * Math.sin(a) };
}

function circleSeat(seat: number, count: number, bets: readonly string[]): SeatLayout {
  const felt = BLACKJACK_FELT;
  const radius = 720;
  const first = Math.PI * 0.14;
  const a = first + ((Math.PI * 0.72) * (seat - 1)) / Math.max(1, count - 1);
  const p = { x: felt.cx + radius * Math.cos(a), y: felt.top + radius * Math.sin(a) };
  const spots: SpotLayout[] = [{ bet: 'main', x: p.x, y: p.y, shape: 'circle', r: MAIN_R, width: MAIN_R * 2, height: MAIN_R * 2 }];
  const side = bets.filter((b) => b !== 'main');
  // Along the rail (tangent) and toward the dealer (inward), so side spots sit between the seats
  // and never reach the printed centre of the felt.
  const tx = -Math.sin(a);
  const ty = Math.cos(a);
  const ix = -Math.cos(a);
  const iy = -Math.sin(a);
  const put = (bet: string, along: number, inward: number) =>
    spots.push({ bet, x: p.x + tx * along + ix * inward, y: p.y + ty * along + iy * inward, shape: 'circle', r: SIDE_R, width: SIDE_R * 2, height: SIDE_R * 2 });
  // A single side bet (war's tie) sits beside the main spot, a little toward the dealer.
  if (side.length === 1) put(side[0]!, MAIN_R + SIDE_R + 6, SIDE_R);
  else
    side.slice(0, 4).forEach((bet, i) => {
      const rows = side.length > 2 ? 2 : 1;
      const row = Math.floor(i / 2);
      const inward = rows === 1 ? 0 : (row === 0 ? 1 : -1) * (SIDE_R + 4);
      put(bet, (i % 2 === 0 ? -1 : 1) * (MAIN_R + SIDE_R + 6), inward);
    });
  // The seat's name and result go outward, toward the player (side bets are along the rail, the
  // cards inward): straight down at the middle seat, to the side at the ends.
  const ox = Math.cos(a);
  const oy = Math.sin(a);
  // Far enough out to clear the hand's total, which sits just under the cards on the spot.
  return { seat, x: p.x, y: p.y, spots, label: { x: p.x + ox * 112, y: p.y + oy * 112 + 4 }, result: { x: p.x + ox * 124, y: p.y + oy * 124 + 46 } };
}

function baccaratSeat(seat: number, count: number, bets: readonly string[]): SeatLayout {
  const p = arc(BACCARAT_FELT, 560, seat, count);
  // Three boxes in a row (閒 和 莊) and the pairs under them, as printed on a mini-baccarat felt.
  const w = 52;
  const h = 40;
  const row = ['player', 'tie', 'banker'].filter((b) => bets.includes(b));
  const pairs = ['playerPair', 'bankerPair'].filter((b) => bets.includes(b));
  const spots: SpotLayout[] = [];
  row.forEach((bet, i) => spots.push({ bet, x: p.x + (i - (row.length - 1) / 2) * (w + 4), y: p.y - h / 2 - 2, shape: 'box', r: 8, width: w, height: h }));
  pairs.forEach((bet, i) => spots.push({ bet, x: p.x + (i - (pairs.length - 1) / 2) * (w * 1.5 + 4), y: p.y + h / 2 + 2, shape: 'box', r: 8, width: w * 1.5, height: h - 6 }));
  return { seat, x: p.x, y: p.y, spots, label: { x: p.x, y: p.y + h + 10 }, result: { x: p.x, y: p.y - h - 40 } };
}

export function feltLayout(game: GameKind, seatCount: number, bets: readonly string[]): FeltLayout {
  const seats = Array.from({ length: seatCount }, (_, i) =>
    game === 'baccarat' ? baccaratSeat(i + 1, seatCount, bets) : circleSeat(i + 1, seatCount, bets),
  );
  if (game === 'baccarat') {
    const f = BACCARAT_FELT;
    return {
      game,
      felt: f,
      seats,
      hands: { dealer: { x: f.cx, y: f.top + 100 }, player: { x: f.cx - 170, y: f.top + 100 }, banker: { x: f.cx + 170, y: f.top + 100 } },
      shoe: { x: f.cx + 400, y: f.top + 20, width: 130, height: 90 },
      discard: { x: f.cx - 530, y: f.top + 20, width: 130, height: 90 },
      title: { zh: { x: f.cx, y: 401 }, pt: { x: f.cx, y: 457 }, limits: { x: f.cx, y: 494 }, limitsPt: { x: f.cx, y: 524 } },
      nameSize: [48, 28],
      limitsSize: [22, 18],
      arcRadius: 0,
      phase: { x: f.cx, y: 100 },
      cue: { x: f.cx, y: 152 },
      panel: { x: 1370, y: 16, width: 534, height: 1048 },
      languages: { x: 30, y: 960 },
    };
  }
  const f = BLACKJACK_FELT;
  return {
    game,
    felt: f,
    seats,
    hands: { dealer: { x: f.cx, y: f.top + 150 }, player: { x: f.cx - 190, y: f.top + 150 }, banker: { x: f.cx + 190, y: f.top + 150 } },
    shoe: { x: f.cx + 470, y: f.top + 10, width: 150, height: 90 },
    discard: { x: f.cx - 620, y: f.top + 10, width: 150, height: 90 },
    title: { zh: { x: f.cx, y: 458 }, pt: { x: f.cx, y: 527 }, limits: { x: f.cx, y: 573 }, limitsPt: { x: f.cx, y: 611 } },
    nameSize: [60, 36],
    limitsSize: [28, 24],
    arcRadius: 332,
    phase: { x: f.cx, y: 100 },
    cue: { x: f.cx, y: 170 },
    panel: { x: 1480, y: 872, width: 420, height: 192 },
    languages: { x: 30, y: 960 },
  };
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
