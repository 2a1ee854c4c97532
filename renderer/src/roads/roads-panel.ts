import { Container, Graphics, Text, type DestroyOptions, type Sprite } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { RoadsView } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { COLORS, textStyle } from '../ui/theme.js';
import { fitFontSize, measuredWidth, type MeasureText } from '../ui/fit-text.js';

const RED = 0xd8283c;
const BLUE = 0x2a6fe0;
const GREEN = 0x1f9a55;
/** The shoe's counts' font size, brought down where a line of them would not fit the panel (`fitFontSize`). */
const STATS_SIZE = 24;

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
 * The same Graphics, sprite and texture serve every coup of the panel's life: a coup draws into
 * them again and makes no pixi object (issue 52: objects made and destroyed every round were what
 * grew a week-long page's heap, as V8's code for pixi's paths that make and destroy them).
 */
export class RoadsPanel extends Container {
  /** The box and marks; where the screen bakes, drawn only into their texture and never shown themselves. */
  private readonly marks = new Graphics();
  /** The marks drawn into a texture (`bake`), in the marks' place; null while they are drawn as Graphics. */
  private marksArt: Sprite | null = null;
  /** The newest roads shown, drawn again at a new resolution (`sharpen`). */
  private last: { roads: RoadsView; grid: ReturnType<typeof roadGrids> } | null = null;
  /** Baked: the newest roads are not in the texture yet (`bakeOwed`, at the next frame). */
  private owed = false;
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly stats = new Text({ text: '', style: textStyle({ fontSize: STATS_SIZE, fill: COLORS.ivory, fontWeight: '600' }) });
  private readonly labels = ['bead', 'big', 'eye', 'small', 'pig', 'ask'].map(
    () => new Text({ text: '', style: textStyle({ fontSize: 18, fill: COLORS.muted }) }),
  );
  private readonly askLabels = [0, 1].map(() => new Text({ text: '', style: textStyle({ fontSize: 22, fontWeight: '700' }) }));
  private shown = '';

  /**
   * `bake`, where the screen can: the grids and marks are drawn into a texture at the frame after a
   * coup (`bakeOwed`: the texture the last coup was drawn into, given as `into`) and their Graphics cleared and its
   * geometry let go. Kept, a Graphics held the triangulated strokes of every line and ring of the
   * shoe's roads in the JS heap until the next coup (issue 31). `measure`: a text's width (pixi's; a
   * test's own where no canvas measures).
   */
  constructor(
    private readonly area: Rect,
    private readonly bake?: (target: Container, into: Sprite | null) => Sprite,
    private readonly measure: MeasureText = measuredWidth,
  ) {
    super();
    // `panel`: beside the felt, never on it (the layout check).
    this.label = 'panel';
    this.position.set(area.x, area.y);
    this.title.position.set(16, 10);
    this.stats.position.set(16, 54);
    this.addChild(this.title, this.stats, ...this.labels, ...this.askLabels);
    // Baked, the marks are shown by their sprite (added at the first coup, in the same place).
    if (!bake) this.addChildAt(this.marks, 0);
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
    const stats = t('roads.stats', { coups: s.coups, banker: s.banker, player: s.player, tie: s.tie, bankerPair: s.bankerPair, playerPair: s.playerPair });
    const w = this.area.width - 32;
    // Measured only when the counts change: within the panel, whatever the counts (issue 52).
    if (stats !== this.stats.text) {
      this.stats.text = stats;
      fitFontSize(this.stats, STATS_SIZE, w, this.measure);
    }
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
    // Baked, the marks are drawn into their texture by the next frame (`bakeOwed`), not here: a host
    // at test timings plays coups faster than a capped or starved page draws, and every coup baked at
    // once was a multisampled render of the panel and its resolve on the GPU that no frame showed.
    if (this.bake) {
      this.last = { roads, grid };
      this.owed = true;
    } else this.draw(roads, grid);
  }

  /**
   * Before a frame (the screen's `tick`): the newest roads drawn into the marks' texture if a coup came
   * since they were last drawn, once however many came. True when it drew.
   */
  bakeOwed(): boolean {
    if (!this.owed || !this.last) return false;
    this.draw(this.last.roads, this.last.grid);
    return true;
  }

  override destroy(options?: DestroyOptions): void {
    // The marks' texture is the panel's own: it goes with it, and so do the marks (not a child when baked).
    const texture = this.marksArt?.texture;
    this.marksArt = null;
    super.destroy(options);
    texture?.destroy(true);
    if (!this.marks.destroyed) this.marks.destroy({ context: true });
  }

  /** The marks drawn again (their texture at the display's new resolution, or after a lost context); false when none are baked. */
  sharpen(): boolean {
    if (!this.last || !this.bake) return false;
    this.draw(this.last.roads, this.last.grid);
    return true;
  }

  private draw(r: RoadsView, grid: ReturnType<typeof roadGrids>): void {
    this.last = { roads: r, grid };
    this.owed = false;
    const g = this.marks;
    g.clear();
    this.drawMarks(g, r, grid);
    if (!this.bake) return;
    const art = this.bake(g, this.marksArt);
    if (art !== this.marksArt) {
      // The first coup, or a texture the bake could not draw into again: the old one goes.
      this.marksArt?.destroy({ texture: true, textureSource: true });
      this.marksArt = art;
      this.addChildAt(art, 0);
    }
    // Drawn: its shapes and their triangulated geometry let go until the next coup.
    g.clear();
    g.context.unload();
  }

  /**
   * The grids and marks, each kind of mark of one colour gathered into one path (`Shapes`) and
   * filled or stroked once: a shoe's marks are some twenty paths, not one a mark (a full shoe's
   * roads drew some three hundred at every coup; issue 52). Layered as drawn one by one before:
   * within a cell, the bead under its pair dots, the big road's ring under its tie line and dots
   * (no mark reaches into another cell, and none is translucent, so the order between cells is not seen).
   */
  private drawMarks(g: Graphics, r: RoadsView, grid: ReturnType<typeof roadGrids>): void {
    // The panel's box, baked with the marks: the layer that caches the panel then holds no vector
    // art of it and is drawn without multisampling (CachedLayer), its rounded edges smoothed here.
    g.roundRect(0, 0, this.area.width, this.area.height, 16).fill({ color: 0x0b0f14, alpha: 0.92 }).stroke({ width: 3, color: COLORS.gold });
    const x0 = 16;
    const lines = new Shapes();
    for (const gr of [grid.bead, grid.big, grid.eye, grid.small, grid.pig]) {
      for (let c = 0; c <= gr.columns; c++) lines.line(x0 + c * gr.cell, gr.y, x0 + c * gr.cell, gr.y + 6 * gr.cell);
      for (let row = 0; row <= 6; row++) lines.line(x0, gr.y + row * gr.cell, x0 + gr.columns * gr.cell, gr.y + row * gr.cell);
    }
    lines.draw(g, (x) => x.stroke({ width: 1, color: 0x3a4652 }));
    const at = (gr: RoadGrid, first: number, c: { x: number; y: number }) => ({
      x: x0 + (c.x - first) * gr.cell + gr.cell / 2,
      y: gr.y + c.y * gr.cell + gr.cell / 2,
    });

    const beads = { [RED]: new Shapes(), [BLUE]: new Shapes(), [GREEN]: new Shapes() };
    const beadPairs = { [RED]: new Shapes(), [BLUE]: new Shapes() };
    let first = firstColumn(r.beadPlate, grid.bead.columns);
    for (const c of r.beadPlate) {
      if (c.x < first) continue;
      const p = at(grid.bead, first, c);
      beads[c.winner === 'banker' ? RED : c.winner === 'player' ? BLUE : GREEN].circle(p.x, p.y, grid.bead.cell * 0.42);
      if (c.bankerPair) beadPairs[RED].circle(p.x - 11, p.y - 11, 4.5);
      if (c.playerPair) beadPairs[BLUE].circle(p.x + 11, p.y + 11, 4.5);
    }
    for (const [color, shapes] of Object.entries(beads)) shapes.draw(g, (x) => x.fill({ color: Number(color) }));
    for (const [color, shapes] of Object.entries(beadPairs)) shapes.draw(g, (x) => x.fill({ color: Number(color) }).stroke({ width: 1.5, color: 0xffffff }));

    const rings = { [RED]: new Shapes(), [BLUE]: new Shapes() };
    const ties = new Shapes();
    const pairs = { [RED]: new Shapes(), [BLUE]: new Shapes() };
    first = firstColumn(r.bigRoad, grid.big.columns);
    for (const c of r.bigRoad) {
      if (c.x < first) continue;
      const p = at(grid.big, first, c);
      rings[c.side === 'banker' ? RED : BLUE].circle(p.x, p.y, grid.big.cell * 0.38);
      if (c.ties > 0) ties.line(p.x - 8, p.y + 8, p.x + 8, p.y - 8);
      if (c.bankerPair) pairs[RED].circle(p.x - 8, p.y - 8, 3);
      if (c.playerPair) pairs[BLUE].circle(p.x + 8, p.y + 8, 3);
    }
    for (const [color, shapes] of Object.entries(rings)) shapes.draw(g, (x) => x.stroke({ width: 3, color: Number(color) }));
    ties.draw(g, (x) => x.stroke({ width: 2.5, color: GREEN }));
    for (const [color, shapes] of Object.entries(pairs)) shapes.draw(g, (x) => x.fill({ color: Number(color) }));

    const marks = new Marks();
    const derived = (cells: RoadsView['bigEyeBoy'], gr: RoadGrid, style: MarkStyle) => {
      const f = firstColumn(cells, gr.columns);
      for (const c of cells) {
        if (c.x < f) continue;
        const p = at(gr, f, c);
        marks.add(p.x, p.y, gr.cell * 0.36, c.colour === 'red' ? RED : BLUE, style);
      }
    };
    derived(r.bigEyeBoy, grid.eye, 'ring');
    derived(r.smallRoad, grid.small, 'dot');
    derived(r.cockroachPig, grid.pig, 'slash');

    // 問路: for a banker and a player win, the three marks each derived road would add.
    const none = new Shapes();
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
        if (colour) marks.add(x, y + 14, 12, colour === 'red' ? RED : BLUE, style);
        else none.circle(x, y + 14, 3);
      });
    });
    marks.draw(g);
    none.draw(g, (x) => x.fill({ color: 0x56606a }));
  }
}

type MarkStyle = 'ring' | 'dot' | 'slash';

/** Circles and line segments of one look, put into one path and painted once (`draw`). */
class Shapes {
  private readonly circles: number[] = [];
  private readonly lines: number[] = [];

  circle(x: number, y: number, r: number): void {
    this.circles.push(x, y, r);
  }

  line(x1: number, y1: number, x2: number, y2: number): void {
    this.lines.push(x1, y1, x2, y2);
  }

  /** The shapes as one path, painted by `paint` (its fill or stroke); nothing when there are none. */
  draw(g: Graphics, paint: (g: Graphics) => void): void {
    if (!this.circles.length && !this.lines.length) return;
    for (let i = 0; i < this.circles.length; i += 3) g.circle(this.circles[i]!, this.circles[i + 1]!, this.circles[i + 2]!);
    for (let i = 0; i < this.lines.length; i += 4) g.moveTo(this.lines[i]!, this.lines[i + 1]!).lineTo(this.lines[i + 2]!, this.lines[i + 3]!);
    paint(g);
  }
}

/** The derived roads' marks (and the ask road's), by style and colour: a ring, a dot or a slash of radius r. */
class Marks {
  private readonly shapes = new Map<string, Shapes>();

  add(x: number, y: number, r: number, color: number, style: MarkStyle): void {
    const key = `${style}:${color}`;
    let s = this.shapes.get(key);
    if (!s) this.shapes.set(key, (s = new Shapes()));
    if (style === 'slash') s.line(x - r, y + r, x + r, y - r);
    else s.circle(x, y, r);
  }

  draw(g: Graphics): void {
    for (const [key, s] of this.shapes) {
      const [style, c] = key.split(':');
      const color = Number(c);
      s.draw(g, (x) => (style === 'ring' ? x.stroke({ width: 2.5, color }) : style === 'dot' ? x.fill({ color }) : x.stroke({ width: 3, color })));
    }
  }
}
