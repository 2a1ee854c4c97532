import { Container, Graphics, Text } from 'pixi.js';
import { NOTICE_MS, ShowFor } from './notice-time.js';
import { NEVER } from '../anim/wake.js';
import { COLORS, textStyle } from './theme.js';

export { NOTICE_MS };

/** A notice's words at their size, and the smallest a longer one is set in before it is scaled (design pixels of 1920×1080). */
const NOTICE_FONT_PX = 34;
const NOTICE_FONT_MIN_PX = 22;

/**
 * A refusal ("not enough credit", "over the maximum") said beside the credit meter, where the
 * player looks after a bet, covering no spot or chip. A newer message replaces an older one and
 * starts its own time: it is hidden by the screen's ticker when its own time is up, so an older
 * message's time can never clear a newer one.
 */
export class Notice extends Container {
  private readonly bg = new Graphics();
  private readonly text: Text;
  private readonly time = new ShowFor(NOTICE_MS);

  constructor(private readonly area: { x: number; y: number; width: number; height: number }) {
    super();
    this.label = 'notice';
    this.text = new Text({
      text: '',
      style: textStyle({
        fontSize: NOTICE_FONT_PX,
        fill: COLORS.warning,
        fontWeight: '700',
        wordWrap: true,
        wordWrapWidth: area.width - 48,
        breakWords: true,
        align: 'center',
      }),
    });
    this.text.anchor.set(0.5);
    this.text.position.set(area.x + area.width / 2, area.y + area.height / 2);
    this.bg.roundRect(area.x, area.y, area.width, area.height, 20).fill({ color: 0x2a1a05, alpha: 0.95 }).stroke({ width: 3, color: COLORS.warning });
    this.addChild(this.bg, this.text);
    this.visible = false;
  }

  /** `ms`: how long it is said, longer than a refusal for a question the player answers (a confirmation). */
  show(message: string, now: number, ms?: number): void {
    this.text.style.fontSize = NOTICE_FONT_PX;
    this.text.text = message;
    this.text.scale.set(1);
    // A long message is set smaller and wrapped again across the whole width: scaled as it was
    // wrapped, its lines kept their length and the words shrank to half the panel's width (the
    // cash-out's warning with a streak stake held, in Portuguese: glyphs of 12 px at 1280×720).
    const room = this.area.height - 20;
    for (let size = NOTICE_FONT_PX; this.text.height > room && size > NOTICE_FONT_MIN_PX;) {
      size = Math.max(NOTICE_FONT_MIN_PX, size - 2);
      this.text.style.fontSize = size;
    }
    if (this.text.height > room) this.text.scale.set(room / this.text.height);
    this.time.show(now, ms);
    this.visible = true;
  }

  /** Hides the message when its time is up; returns when that is (anim/wake.ts). */
  tick(now: number): number {
    if (this.visible && !this.time.shown(now)) this.visible = false;
    return this.visible ? this.time.endsAt : NEVER;
  }
}
