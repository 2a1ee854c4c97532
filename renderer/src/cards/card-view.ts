import { Container, Sprite } from 'pixi.js';
import { flipAt, moveAt, newMove, setMove, type Move } from '../anim/motion.js';
import { CARD, cardAtlas } from './card-art.js';

export { CARD };

/**
 * One card on the felt: a sprite of the shared atlas (no per-card drawing), which can fly from
 * the shoe to its place and turn over. `update(now)` is called by the screen's ticker; it moves
 * nothing once the card has arrived, so a still table allocates nothing per frame.
 */
export class CardView extends Container {
  private readonly sprite = new Sprite();
  private shown = '';
  /** The code drawn on the sprite (the back while a flip is in its first half). */
  private drawn = '';
  private readonly move: Move = newMove();
  private moving = false;
  private flipStart = -1;
  private readonly at = { x: 0, y: 0 };

  constructor() {
    super();
    this.sprite.anchor.set(0.5);
    this.sprite.position.set(CARD.width / 2, CARD.height / 2);
    this.addChild(this.sprite);
  }

  /** Shows `code`; a hidden card turning face up is flipped from `now` when `animate` says so. */
  show(code: string, now = 0, animate = false): void {
    if (code === this.shown) return;
    const reveal = animate && this.shown === 'XX' && code !== 'XX';
    this.shown = code;
    if (reveal) {
      this.flipStart = now;
      return;
    }
    this.flipStart = -1;
    this.draw(code);
  }

  /** Puts the card at (x, y), flying there from (fromX, fromY) when given. */
  place(x: number, y: number, now: number, from?: { x: number; y: number }, duration = 0): void {
    if (from && duration > 0) {
      setMove(this.move, from.x, from.y, x, y, now, duration);
      this.moving = true;
      this.position.set(from.x, from.y);
    } else if (this.moving) {
      // Already on its way: retarget without a jump.
      setMove(this.move, this.position.x, this.position.y, x, y, now, Math.max(0, this.move.start + this.move.duration - now));
    } else {
      this.position.set(x, y);
    }
  }

  /** True while the card is still moving or turning. */
  update(now: number): boolean {
    let busy = false;
    if (this.moving) {
      this.moving = !moveAt(this.move, now, this.at);
      this.position.set(this.at.x, this.at.y);
      busy ||= this.moving;
    }
    if (this.flipStart >= 0) {
      const f = flipAt(this.flipStart, now);
      this.draw(f.faceShown ? this.shown : 'XX');
      this.sprite.scale.x = f.scaleX;
      if (f.done) {
        this.flipStart = -1;
        this.sprite.scale.x = 1;
      } else busy = true;
    }
    return busy;
  }

  /** The target position (where the card ends up), whatever its flight. */
  target(): { x: number; y: number } {
    return this.moving ? { x: this.move.x1, y: this.move.y1 } : { x: this.position.x, y: this.position.y };
  }

  /** The card code as the view gave it, for test hooks (a screen reader would announce the same). */
  code(): string {
    return this.shown;
  }

  private draw(code: string): void {
    if (code === this.drawn) return;
    this.drawn = code;
    this.sprite.texture = cardAtlas().texture(code);
  }
}
