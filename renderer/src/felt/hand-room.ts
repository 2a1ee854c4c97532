import {
  circleHitsRect,
  handRect,
  HAND_ZONE,
  holderLabelRect,
  labelRect,
  languagesRect,
  overlaps,
  printedCentre,
  resultRect,
  type FeltLayout,
  type Point,
  type Rect,
} from './felt-layout.js';

/**
 * The room a seat's hands may take on the table display, and where each of a split seat's hands
 * goes in it. Portugal's rules set no limit on splitting (and a Macau house may choose up to 99
 * hands): a seat of twelve hands fanned a hand's width apart ran 2,300 units wide, over the next
 * seats' cards and names and off the 1,920 of the screen. Now a seat's hands stay in its own room,
 * in rows and smaller as they grow many.
 */

const SCREEN: Rect = { x: 0, y: 0, width: 1920, height: 1080 };
/** Each step the rooms grow by, and the most a room grows to (a seat's hands need no more: its cards at full size). */
const STEP = 4;
const MAX_ROOM = { width: 3 * HAND_ZONE.width, height: 2 * HAND_ZONE.height } as const;
/** Room kept between one hand and the next, in a row and between rows, in design units at full size. */
export const HAND_GAP = 12;

const inside = (r: Rect, o: Rect) => r.x >= o.x && r.y >= o.y && r.x + r.width <= o.x + o.width && r.y + r.height <= o.y + o.height;

/**
 * Each seat's room for its hands (blackjack and war; baccarat's seats hold no cards), by seat: its
 * hand zone (felt-layout.ts `handRect`, clear of everything by the layout's own test) grown a step
 * at a time in turn, every seat one step each way a round, while it stays on the screen and clear
 * of the printed centre, the holders and their names, the panel, the language buttons, the
 * dealer's and the stadium's cards, every seat's name and result, every spot but the seat's own
 * main spot (which its cards cover, as dealt), and the other seats' rooms: neighbours meet halfway.
 */
export function handRooms(l: FeltLayout): Map<number, Rect> {
  const rooms = new Map<number, Rect>();
  if (l.game === 'baccarat') return rooms;
  const fixed: Rect[] = [
    ...printedCentre(l),
    l.panel,
    l.shoe,
    l.discard,
    holderLabelRect(l.holderLabels.shoe),
    holderLabelRect(l.holderLabels.discard),
    languagesRect(l),
    handRect(l.hands.dealer),
    ...(l.game === 'war' ? [handRect(l.hands.stadium)] : []),
    ...l.seats.flatMap((s) => [labelRect(s.label), resultRect(s.result)]),
  ];
  for (const s of l.seats) rooms.set(s.seat, handRect(s.hand));
  const clear = (seat: number, r: Rect): boolean => {
    if (!inside(r, SCREEN) || r.width > MAX_ROOM.width || r.height > MAX_ROOM.height) return false;
    if (fixed.some((f) => overlaps(r, f))) return false;
    for (const s of l.seats) {
      for (const [i, p] of s.spots.entries()) if (!(s.seat === seat && i === 0) && circleHitsRect(p, r)) return false;
      if (s.seat !== seat && overlaps(r, rooms.get(s.seat)!)) return false;
    }
    return true;
  };
  const ways: ((r: Rect) => Rect)[] = [
    (r) => ({ ...r, x: r.x - STEP, width: r.width + STEP }),
    (r) => ({ ...r, width: r.width + STEP }),
    (r) => ({ ...r, y: r.y - STEP, height: r.height + STEP }),
    (r) => ({ ...r, height: r.height + STEP }),
  ];
  for (let grew = true; grew;) {
    grew = false;
    for (const way of ways)
      for (const s of l.seats) {
        const next = way(rooms.get(s.seat)!);
        if (!clear(s.seat, next)) continue;
        rooms.set(s.seat, next);
        grew = true;
      }
  }
  return rooms;
}

/** Where a hand goes: the top centre of its cards, and its scale (1: the cards' full size). */
export interface HandPlace {
  x: number;
  y: number;
  scale: number;
}

/**
 * Where each of a seat's `count` hands goes in its room: one hand at the seat's own place
 * (`anchor`, the top centre of its cards), at full size; more in a grid of as many columns as
 * gives them the largest size (at most full), each cell `cellWidth` (a hand's width and a gap) by
 * `cellHeight` (a hand's height, its cards and total, and a gap), in the order split, left to right then down. The grid is
 * centred on the anchor and starts at its height where the room allows, else moved into the room.
 */
export function handPlaces(room: Rect, anchor: Point, count: number, cellWidth: number, cellHeight = HAND_ZONE.height + HAND_GAP): HandPlace[] {
  if (count <= 1) return count === 1 ? [{ x: anchor.x, y: anchor.y, scale: 1 }] : [];
  let best = { columns: 1, scale: 0 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    // The last row's gap under it is no hand's: the grid is rows of cells less one gap.
    const scale = Math.min(1, room.width / (columns * cellWidth), room.height / (rows * cellHeight - HAND_GAP));
    if (scale > best.scale + 1e-9) best = { columns, scale };
  }
  const { columns, scale } = best;
  const rows = Math.ceil(count / columns);
  const w = columns * cellWidth * scale;
  const h = (rows * cellHeight - HAND_GAP) * scale;
  const left = Math.max(room.x, Math.min(room.x + room.width - w, anchor.x - w / 2));
  const top = Math.max(room.y, Math.min(room.y + room.height - h, anchor.y));
  return Array.from({ length: count }, (_, i) => {
    const row = Math.floor(i / columns);
    // A last row short of hands is centred under the others.
    const inRow = row === rows - 1 ? count - row * columns : columns;
    const indent = ((columns - inRow) * cellWidth * scale) / 2;
    return { x: left + indent + ((i % columns) + 0.5) * cellWidth * scale, y: top + row * cellHeight * scale, scale };
  });
}
