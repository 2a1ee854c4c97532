import { Container, Graphics, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { Currency, JackpotView, Language } from '../../../protocol/index.js';
import { formatMoney } from '../../../locales/money.js';
import { traceJackpot } from '../trace.js';
import { NEVER } from '../anim/wake.js';
import { Celebration } from './celebration.js';
import { liveText } from './live-text.js';
import { COLORS, DESIGN, textStyle } from './theme.js';

const WIDTH = 440;
const LINE = 46;

/**
 * Portugal's progressive jackpot on the table display (rules 38–50; rule 41 a's display): each
 * level's pool, drawn again in the frame its snapshot arrives — a round's chips raise it when they
 * are collected —, the last award, the chip's state, and a celebration over the table when a new
 * award comes in. Its words and money in the screen's language.
 */
export class JackpotPanel extends Container {
  private readonly bg = new Graphics();
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.goldText, fontWeight: '700' }) });
  /** The pools, raised by every round's jackpot chips: a live text (live-text.ts). */
  private readonly levels = liveText({ fontSize: 34, fill: COLORS.ivory, lineHeight: LINE, fontWeight: '700' });
  private readonly last = new Text({ text: '', style: textStyle({ fontSize: 22, fill: COLORS.muted, wordWrap: true, wordWrapWidth: WIDTH - 32 }) });
  private readonly stopped = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.warning, fontWeight: '700' }) });
  readonly celebration = new Celebration(64);
  /** The award last celebrated (its round), so a snapshot repeating it does not celebrate again. */
  private celebrated: string | null = null;
  /** The background's height as drawn. */
  private bgHeight = -1;
  /** What the pools read as last drawn, for the screens bench and the tests. */
  shownPools = '';

  constructor(private readonly onHit: (amount: number) => void) {
    super();
    this.label = 'jackpot';
    this.position.set(24, 84);
    this.title.position.set(16, 12);
    this.levels.position.set(16, 54);
    this.addChild(this.bg, this.title, this.levels, this.last, this.stopped);
    this.celebration.place({ x: DESIGN.width / 2, y: DESIGN.height / 2 }, [], { x: 0, y: 0, width: DESIGN.width, height: DESIGN.height });
    this.visible = false;
  }

  show(view: JackpotView | undefined, t: TFunction, currency: Currency, language: Language, now: number): void {
    this.visible = view !== undefined;
    if (!view) return;
    const money = (n: number) => formatMoney(n, currency, language);
    this.title.text = t('jackpot.title');
    // Every minor unit shown: the pools rise by fractions of the currency with each chip.
    const exact = (n: number) => formatMoney(n, currency, language, { fraction: 'always' });
    const pools = view.levels.map((l) => t('jackpot.level', { level: l.level.toUpperCase(), amount: exact(l.pool) })).join('\n');
    this.levels.text = pools;
    const shown = view.levels.map((l) => `${l.level}:${l.pool}`).join(',');
    if (shown !== this.shownPools) traceJackpot(shown);
    this.shownPools = shown;
    const hit = view.lastHit;
    this.last.text = hit
      ? t('jackpot.lastHit', {
          seat: hit.seat,
          combination: t(`jackpot.combination.${hit.combination}`),
          amount: money(hit.amount),
        })
      : t('jackpot.none');
    this.last.position.set(16, 54 + view.levels.length * LINE + 8);
    this.stopped.visible = view.stopped;
    this.stopped.text = t('jackpot.stopped');
    this.stopped.position.set(16, this.last.y + this.last.height + 8);
    const height = (view.stopped ? this.stopped.y + this.stopped.height : this.last.y + this.last.height) + 14;
    // Drawn again only when its height changes, not with every snapshot (issue 52: a Graphics cleared and drawn anew each time).
    if (height !== this.bgHeight) {
      this.bgHeight = height;
      this.bg.clear().roundRect(0, 0, WIDTH, height, 18).fill({ color: COLORS.panel, alpha: 0.92 }).stroke({ color: COLORS.gold, width: 3 });
    }
    // A new award (not the one the screen found on connecting): celebrated once.
    if (hit && this.celebrated !== null && this.celebrated !== hit.roundId) {
      this.celebration.start([t('jackpot.hit'), money(hit.amount)], now);
      this.onHit(hit.amount);
    }
    if (hit || this.celebrated === null) this.celebrated = hit?.roundId ?? '';
  }

  /** When the panel next moves: now while its celebration runs (anim/wake.ts). */
  tick(now: number): number {
    return this.celebration.tick(now) ? now : NEVER;
  }
}
