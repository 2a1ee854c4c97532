import { FillGradient, Graphics } from 'pixi.js';
import { COLORS, DESIGN } from '../ui/theme.js';

/** The half-moon blackjack table: straight dealer rail at the top, padded arc toward the seats. */
export const FELT = { cx: DESIGN.width / 2, top: 70, rx: 860, ry: 930 } as const;

function halfEllipse(rx: number, ry: number): number[] {
  const points: number[] = [];
  for (let i = 0; i <= 96; i++) {
    const a = (Math.PI * i) / 96;
    points.push(FELT.cx + rx * Math.cos(a), FELT.top + ry * Math.sin(a));
  }
  return points;
}

export function drawFelt(): Graphics {
  const g = new Graphics();
  // Padded rail first, then the felt inside it.
  g.poly(halfEllipse(FELT.rx + 34, FELT.ry + 34)).fill({ color: COLORS.rail }).stroke({ width: 4, color: COLORS.railEdge });
  const felt = new FillGradient({
    type: 'radial',
    center: { x: 0.5, y: 0.1 },
    innerRadius: 0,
    outerCenter: { x: 0.5, y: 0.1 },
    outerRadius: 0.95,
    colorStops: [
      { offset: 0, color: COLORS.feltInner },
      { offset: 1, color: COLORS.feltOuter },
    ],
    textureSpace: 'local',
  });
  g.poly(halfEllipse(FELT.rx, FELT.ry)).fill(felt);
  // The insurance line printed on real felts: an inner arc in gold.
  const arc: number[] = [];
  for (let i = 14; i <= 82; i++) {
    const a = (Math.PI * i) / 96;
    arc.push(FELT.cx + 560 * Math.cos(a), FELT.top + 560 * Math.sin(a));
  }
  g.moveTo(arc[0] ?? 0, arc[1] ?? 0);
  for (let i = 2; i < arc.length; i += 2) g.lineTo(arc[i] ?? 0, arc[i + 1] ?? 0);
  g.stroke({ width: 3, color: COLORS.gold, alpha: 0.7 });
  return g;
}

/**
 * Where seat `n` of `count` sits on the arc. Seat 1 is on the dealer's left, which is the right
 * of the screen seen from the players' side.
 */
export function seatPosition(n: number, count: number): { x: number; y: number } {
  const first = Math.PI * 0.14;
  const last = Math.PI * 0.86;
  const a = first + ((last - first) * (n - 1)) / Math.max(1, count - 1);
  return { x: FELT.cx + 720 * Math.cos(a), y: FELT.top + 720 * Math.sin(a) };
}
