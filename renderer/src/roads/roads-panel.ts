import { Container, Graphics, Text, type DestroyOptions, type Sprite } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import type { TFunction } from 'i18next';
import type { RoadsView } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { COLORS, textStyle } from '../ui/theme.js';

const RED = 0xd8283c;
const BLUE = 0x2a6fe0;
const GREEN = 0x1f9a55;

/** The grid of each road inside the panel: top, cell size and how many columns fit. */
export interface RoadGrid {
  y: number;
  cell: number;
  columns: number;
}

export function roadGrids(width: number): { bead: RoadGrid; big: RoadGrid; eye: RoadGrid; small: RoadGrid; pig: RoadGrid; askY: number } {
  const g = (y: number, cell: number): RoadGrid => ({ y, cell, columns: Math.floor(width / cell) });
  return { bead: g(116, 38), big: g(380, 26), eye: g(566, 16), small: g(690, 16), pig: g(814, 16), askY: 936 };
}

/** The first column to draw so the newest `columns` columns fit (older ones scroll off the left). */
export function firstColumn(cells: readonly { x: number }[], columns: number): number {
  let max = -1;
  for (const c of cells) if (c.x > max) max = c.x;
  return Math.max(0, max - columns + 1);
}

/**
 * Baccarat's road maps from the host's data (the engine computes them): bead plate, big road,
 * big eye boy, small road, cockroach pig, the ask-road preview and the shoe's counts. Redrawn
 * only when a coup is added (and, baked, when the display's resolution changes), one Graphics
 * for all the marks; where the screen bakes, the marks are then shown as a sprite of a texture.
 */
export class RoadsPanel extends Container {
  private marks = new Graphics();
  /** The marks drawn into a texture (`bake`), in the marks' place; null while they are drawn as Graphics. */
  private marksArt: Sprite | null = null;
  /** What was drawn last, drawn again at a new resolution (`sharpen`). */
  private last: { roads: RoadsView; grid: ReturnType<typeof roadGrids> } | null = null;
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly stats = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.ivory, fontWeight: '600' }) });
  private readonly labels = ['bead', 'big', 'eye', 'small', 'pig', 'ask'].map(
    () => new Text({ text: '', style: textStyle({ fontSize: 18, fill: COLORS.muted }) }),
  );
  private readonly askLabels = [0, 1].map(() => new Text({ text: '', style: textStyle({ fontSize: 22, fontWeight: '700' }) }));
  private shown = '';

  /**
   * `bake`, where the screen can: the grids and marks are drawn into a texture at each coup and
   * their Graphics destroyed. Kept, a Graphics held the triangulated strokes of every line and
   * ring of the shoe's roads in the JS heap until the next coup (issue 31).
   */
  constructor(
    private readonly area: Rect,
    private readonly bake?: (target: Container) => Sprite,
  ) {
    super();
    // `panel`: beside the felt, never on it (the layout check).
    this.label = 'panel';
    this.position.set(area.x, area.y);
    const bg = new Graphics().roundRect(0, 0, area.width, area.height, 16).fill({ color: 0x0b0f14, alpha: 0.92 }).stroke({ width: 3, color: COLORS.gold });
    this.title.position.set(16, 10);
    this.stats.position.set(16, 54);
    this.addChild(bg, this.marks, this.title, this.stats, ...this.labels, ...this.askLabels);
  }

  /** What the panel shows now, as a key: the table's cached layer is drawn again when it changes. */
  get drawn(): string {
    return this.shown;
  }

  show(roads: RoadsView | undefined, t: TFunction): void {
    this.visible = roads !== undefined;
    if (!roads) return;
    this.title.text = t('roads.title');
    const s = roads.stats;
    this.stats.text = t('roads.stats', { coups: s.coups, banker: s.banker, player: s.player, tie: s.tie, bankerPair: s.bankerPair, playerPair: s.playerPair });
    const w = this.area.width - 32;
    const grid = roadGrids(w);
    const names = [
      ['bead', grid.bead.y],
      ['big', grid.big.y],
      ['eye', grid.eye.y],
      ['small', grid.small.y],
      ['pig', grid.pig.y],
      ['askLabel', grid.askY],
    ] as const;
    names.forEach(([name, y], i) => {
      const label = this.labels[i]!;
      label.text = t(`roads.${name}`);
      label.position.set(16, y - 24);
    });
    (['banker', 'player'] as const).forEach((side, i) => {
      const label = this.askLabels[i]!;
      label.text = t(`roads.ask.${side}`);
      label.style.fill = side === 'banker' ? '#ff8d99' : '#8fb6ff';
      label.position.set(16, grid.askY + 10 + i * 52);
    });
    const key = JSON.stringify(roads);
    if (key === this.shown) return;
    this.shown = key;
    this.draw(roads, grid);
  }

  override destroy(options?: DestroyOptions): void {
    // The marks' texture is the panel's own: it goes with it.
    const texture = this.marksArt?.texture;
    this.marksArt = null;
    super.destroy(options);
    texture?.destroy(true);
  }

  /** The marks drawn again (their texture at the display's new resolution, or after a lost context); false when none are baked. */
  sharpen(): boolean {
    if (!this.last || !this.bake) return false;
    this.draw(this.last.roads, this.last.grid);
    return true;
  }

  private draw(r: RoadsView, grid: ReturnType<typeof roadGrids>): void {
    this.last = { roads: r, grid };
    const g = this.marks;
    g.clear();
    this.drawMarks(g, r, grid);
    if (!this.bake) return;
    const art = this.bake(g);
    const old = this.marksArt;
    this.addChildAt(art, this.getChildIndex(g));
    if (old) old.destroy({ texture: true, textureSource: true });
    this.marksArt = art;
    // A new empty Graphics in its place for the next coup; the drawn one goes with its geometry.
    this.marks = new Graphics();
    this.addChildAt(this.marks, this.getChildIndex(g));
    g.destroy(DISPOSE);
  }

  private drawMarks(g: Graphics, r: RoadsView, grid: ReturnType<typeof roadGrids>): void {
    const x0 = 16;
    const gridLines = (gr: RoadGrid) => {
      for (let c = 0; c <= gr.columns; c++) g.moveTo(x0 + c * gr.cell, gr.y).lineTo(x0 + c * gr.cell, gr.y + 6 * gr.cell);
      for (let row = 0; row <= 6; row++) g.moveTo(x0, gr.y + row * gr.cell).lineTo(x0 + gr.columns * gr.cell, gr.y + row * gr.cell);
      g.stroke({ width: 1, color: 0x3a4652 });
    };
    for (const gr of [grid.bead, grid.big, grid.eye, grid.small, grid.pig]) gridLines(gr);
    const at = (gr: RoadGrid, first: number, c: { x: number; y: number }) => ({
      x: x0 + (c.x - first) * gr.cell + gr.cell / 2,
      y: gr.y + c.y * gr.cell + gr.cell / 2,
    });

    let first = firstColumn(r.beadPlate, grid.bead.columns);
    for (const c of r.beadPlate) {
      if (c.x < first) continue;
      const p = at(grid.bead, first, c);
      g.circle(p.x, p.y, grid.bead.cell * 0.42).fill({ color: c.winner === 'banker' ? RED : c.winner === 'player' ? BLUE : GREEN });
      if (c.bankerPair)
        g.circle(p.x - 11, p.y - 11, 4.5)
          .fill({ color: RED })
          .stroke({ width: 1.5, color: 0xffffff });
      if (c.playerPair)
        g.circle(p.x + 11, p.y + 11, 4.5)
          .fill({ color: BLUE })
          .stroke({ width: 1.5, color: 0xffffff });
    }
    first = firstColumn(r.bigRoad, grid.big.columns);
    for (const c of r.bigRoad) {
      if (c.x < first) continue;
      const p = at(grid.big, first, c);
      g.circle(p.x, p.y, grid.big.cell * 0.38).stroke({ width: 3, color: c.side === 'banker' ? RED : BLUE });
      if (c.ties > 0)
        g.moveTo(p.x - 8, p.y + 8)
          .lineTo(p.x + 8, p.y - 8)
          .stroke({ width: 2.5, color: GREEN });
      if (c.bankerPair) g.circle(p.x - 8, p.y - 8, 3).fill({ color: RED });
      if (c.playerPair) g.circle(p.x + 8, p.y + 8, 3).fill({ color: BLUE });
    }
    const derived = (cells: RoadsView['bigEyeBoy'], gr: RoadGrid, style: 'ring' | 'dot' | 'slash') => {
      const f = firstColumn(cells, gr.columns);
      for (const c of cells) {
        if (c.x < f) continue;
        const p = at(gr, f, c);
        mark(g, p.x, p.y, gr.cell * 0.36, c.colour === 'red' ? RED : BLUE, style);
      }
    };
    derived(r.bigEyeBoy, grid.eye, 'ring');
    derived(r.smallRoad, grid.small, 'dot');
    derived(r.cockroachPig, grid.pig, 'slash');

    // 問路: for a banker and a player win, the three marks each derived road would add.
    (['banker', 'player'] as const).forEach((side, i) => {
      const y = grid.askY + 10 + i * 52;
      const ask = r.ask[side];
      const styles = [
        [ask.bigEyeBoy, 'ring'],
        [ask.smallRoad, 'dot'],
        [ask.cockroachPig, 'slash'],
      ] as const;
      styles.forEach(([colour, style], k) => {
        const x = x0 + 200 + k * 60;
        if (colour) mark(g, x, y + 14, 12, colour === 'red' ? RED : BLUE, style);
        else g.circle(x, y + 14, 3).fill({ color: 0x56606a });
      });
    });
  }
}

function mark(g: Graphics, x: number, y: number, r: number, color: number, style: 'ring' | 'dot' | 'slash'): void {
  if (style === 'ring') g.circle(x, y, r).stroke({ width: 2.5, color });
  else if (style === 'dot') g.circle(x, y, r).fill({ color });
  else
    g.moveTo(x - r, y + r)
      .lineTo(x + r, y - r)
      .stroke({ width: 3, color });
}
