import { Container, Rectangle, Text, type DestroyOptions } from 'pixi.js';
import { acquireFace, releaseFace, swapFace, type Face } from './button-faces.js';
import { COLORS, textStyle } from './theme.js';

export interface ButtonLook {
  /** `chip`: a round casino chip of this colour instead of a rounded rectangle. */
  chip?: number;
  /** The fill when idle (decision buttons are coloured by what they do). */
  idle?: number;
}

/**
 * The button each pointer (a finger, the mouse) went down on, until it is lifted: a press whose
 * button was drawn anew meanwhile is taken by the button now there (`Button`, its constructor).
 */
const downOn = new Map<number, Button>();

/**
 * A pointer goes down anew (the page's listener, before pixi's: frames.ts `listenForPresses`): what
 * it pressed before is forgotten, even where it was lifted on no button after that one was gone.
 */
export function forgetPress(pointerId: number): void {
  downOn.delete(pointerId);
}

/** A touch button; a player's buttons are at least TOUCH.min design units each way (≥ 15 mm, docs/screens.md). */
export class Button extends Container {
  /** Its face: a sprite of a texture (or a geometry) shared with every button of the same look (button-faces.ts). */
  private bg: Container;
  /** The look it has now, highlighted or not: the key of the face it holds. */
  private face: Face;
  private readonly caption: Text;
  private readonly sub: Text;
  private enabled = true;

  constructor(
    readonly testId: string,
    private w: number,
    private readonly h: number,
    onPress: () => void,
    private readonly look: ButtonLook = {},
  ) {
    super();
    this.face = { width: w, height: h, ...look, active: false };
    this.bg = acquireFace(this.face);
    this.caption = new Text({ text: '', style: textStyle({ fontSize: Math.round(Math.min(h * 0.36, 46)), fontWeight: '700', align: 'center' }) });
    this.sub = new Text({ text: '', style: textStyle({ fontSize: Math.round(Math.min(h * 0.2, 26)), fill: COLORS.muted, align: 'center' }) });
    this.caption.anchor.set(0.5);
    this.sub.anchor.set(0.5);
    this.caption.position.set(w / 2, h / 2);
    this.sub.position.set(w / 2, h * 0.72);
    this.addChild(this.bg, this.caption, this.sub);
    // Pressed on its box, not on the margin its face's texture keeps for a highlight ring; a box,
    // not a chip's circle, since the accessibility layer places its element from the hit area's
    // x, y, width and height.
    this.hitArea = new Rectangle(0, 0, w, h);
    // Its box alone is hit-tested: its face and words are not tested one by one within it.
    this.interactiveChildren = false;
    this.eventMode = 'static';
    this.cursor = 'pointer';
    this.accessible = true;
    this.accessibleType = 'button';
    this.on('pointertap', () => {
      if (this.enabled) onPress();
    });
    // A snapshot can rebuild a row of buttons while a finger is on one (a decision asked, the
    // language changed: the station's spots and chips are made anew). pixi then gives the tap to
    // neither button: the one pressed is gone, and the one under the finger was not pressed. The
    // button with the same id where the finger is lifted is the same button to the person, so it
    // takes the press; a press whose button is gone, or another's now, is nothing.
    this.on('pointerdown', (e) => void downOn.set(e.pointerId, this));
    this.on('pointerupoutside', (e) => {
      if (downOn.get(e.pointerId) === this) downOn.delete(e.pointerId);
    });
    this.on('pointerup', (e) => {
      const pressed = downOn.get(e.pointerId);
      downOn.delete(e.pointerId);
      if (pressed && pressed !== this && pressed.destroyed && pressed.testId === this.testId && this.enabled) onPress();
    });
    this.colourWords();
  }

  /**
   * The face is shared: it is given back, never destroyed with the button, whatever the options
   * (`DISPOSE` would destroy a Graphics' context with it, `destroy(true)` a sprite's texture).
   */
  override destroy(options?: DestroyOptions): void {
    // Once: a second call would give the shared face back again, and destroy it under its other buttons.
    if (this.destroyed) return;
    this.removeChild(this.bg);
    releaseFace(this.face, this.bg);
    super.destroy(options);
  }

  setLabel(label: string, sub = ''): void {
    if (label === this.caption.text && sub === this.sub.text) return;
    this.caption.text = label;
    this.sub.text = sub;
    this.accessibleTitle = sub ? `${label} ${sub}` : label;
    // Long words (Português) shrink to fit rather than touch the edge.
    // A chip's value fits inside its inner ring, clear of the edge inserts.
    const room = this.look.chip !== undefined ? Math.min(this.w, this.h) * 0.6 : this.w - 28;
    for (const t of [this.caption, this.sub]) {
      t.scale.set(1);
      if (t.width > room) t.scale.set(room / t.width);
    }
    if (!sub) {
      this.caption.position.y = this.h / 2;
      return;
    }
    // Caption over the smaller lines, stacked by their measured heights and shrunk together if
    // they would not fit: the two never overlap, however many lines each has.
    const gap = 4;
    const inner = this.h - 16;
    const total = this.caption.height + gap + this.sub.height;
    if (total > inner) {
      const k = (inner - gap) / (total - gap);
      for (const t of [this.caption, this.sub]) t.scale.set(t.scale.x * k);
    }
    const top = (this.h - (this.caption.height + gap + this.sub.height)) / 2;
    this.caption.position.y = top + this.caption.height / 2;
    this.sub.position.y = top + this.caption.height + gap + this.sub.height / 2;
  }

  setActive(active: boolean): void {
    if (active === this.face.active) return;
    this.reface({ ...this.face, active });
  }

  /** A new width (a row that gives a part of itself to another button): its face, words and hit area follow. */
  setWidth(w: number): void {
    if (w === this.w) return;
    this.w = w;
    this.reface({ ...this.face, width: w });
    this.caption.position.x = this.sub.position.x = w / 2;
    this.hitArea = new Rectangle(0, 0, w, this.h);
    const [label, sub] = [this.caption.text, this.sub.text];
    this.caption.text = '';
    this.setLabel(label, sub);
  }

  private reface(face: Face): void {
    // The same sprite with the other look's texture where both are baked (button-faces.ts `swapFace`).
    const bg = swapFace(this.face, this.bg, face);
    if (bg !== this.bg) {
      this.addChildAt(bg, this.getChildIndex(this.bg));
      this.removeChild(this.bg);
      releaseFace(this.face, this.bg);
    }
    this.bg = bg;
    this.face = face;
    this.colourWords();
  }

  /** A disabled button stays visible (the layout does not jump) but greyed and inert. */
  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.alpha = enabled ? 1 : 0.4;
    this.cursor = enabled ? 'pointer' : 'default';
  }

  /** Highlighted (a chosen chip, a spot with a bet): drawn in its face, which a cached layer's key does not see. */
  isActive(): boolean {
    return this.face.active;
  }

  isEnabled(): boolean {
    return this.enabled;
  }

  private colourWords(): void {
    if (this.look.chip !== undefined) {
      this.caption.style.fill = COLORS.ivory;
      return;
    }
    this.caption.style.fill = this.face.active ? '#1b1205' : COLORS.ivory;
    this.sub.style.fill = this.face.active ? '#3b2a0a' : COLORS.muted;
  }
}
