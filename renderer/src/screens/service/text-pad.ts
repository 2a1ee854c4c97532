import { Container, Graphics, Text } from 'pixi.js';
import { Button } from '../../ui/button.js';
import { COLORS, textStyle } from '../../ui/theme.js';
import type { Labelled } from './keypad.js';

/** Keys of the reference pad: a regulator's reference such as `DICJ-2026/123` or `DSAJ 12.3`. */
const ROWS = ['1234567890', 'QWERTYUIOP', 'ASDFGHJKL-', 'ZXCVBNM/. '];
export const REFERENCE_CHARS = new Set(ROWS.join(''));
const MAX = 64;
const KEY_W = 110;
const KEY_H = 92;

/**
 * One line of capital letters, digits and `- / .` (and a space), typed on a touch keyboard or a
 * physical one: the regulator's authorisation reference of a configuration change or a meter
 * clear, which the digit pad could not type. `prefix` names the keys' test ids (`ref-D`, `ref-/`).
 */
export class TextPad extends Container {
  private value = '';
  private fieldLabel = '';
  private labelled: Labelled = (_label, value) => value;
  private readonly line = new Text({ text: '', style: textStyle({ fontSize: 40 }) });
  private readonly frame = new Graphics();
  private readonly ok: Button;
  private readonly back: Button;
  private readonly clearButton: Button;
  private space: Button | null = null;

  constructor(
    readonly prefix: string,
    private readonly onSubmit: (value: string) => void,
  ) {
    super();
    this.frame
      .roundRect(0, 0, 10 * (KEY_W + 10) - 10, 78, 12)
      .fill({ color: COLORS.panel })
      .stroke({ width: 4, color: COLORS.gold });
    this.line.position.set(20, 18);
    this.addChild(this.frame, this.line);
    ROWS.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const b = new Button(`${prefix}-${ch === ' ' ? 'space' : ch}`, KEY_W, KEY_H, () => this.type(ch));
        if (ch === ' ') this.space = b;
        else b.setLabel(ch);
        b.position.set(c * (KEY_W + 10), 100 + r * (KEY_H + 10));
        this.addChild(b);
      });
    });
    const y = 100 + ROWS.length * (KEY_H + 10);
    this.back = new Button(`${prefix}-back`, 2 * KEY_W + 10, KEY_H, () => this.erase());
    this.clearButton = new Button(`${prefix}-clear`, 2 * KEY_W + 10, KEY_H, () => this.clear());
    this.clearButton.position.set(2 * (KEY_W + 10), y);
    this.back.position.set(0, y);
    this.ok = new Button(`${prefix}-ok`, 3 * KEY_W + 20, KEY_H, () => this.enter());
    this.ok.position.set(4 * (KEY_W + 10), y);
    this.addChild(this.back, this.clearButton, this.ok);
    this.draw();
  }

  setLabels(labels: { labelled: Labelled; label: string; submit: string; clear: string; back: string; space: string }): void {
    this.fieldLabel = labels.label;
    this.labelled = labels.labelled;
    this.ok.setLabel(labels.submit);
    this.clearButton.setLabel(labels.clear);
    this.back.setLabel(labels.back);
    this.space?.setLabel(labels.space);
    this.draw();
  }

  /** Letters, digits, `- / .`, space, Backspace and Enter from a keyboard; true when the key was used. */
  key(key: string): boolean {
    if (key.length === 1 && REFERENCE_CHARS.has(key.toUpperCase())) this.type(key.toUpperCase());
    else if (key === 'Backspace') this.erase();
    else if (key === 'Enter') this.enter();
    else return false;
    return true;
  }

  clear(): void {
    this.value = '';
    this.draw();
  }

  private type(ch: string): void {
    // No leading space, no two spaces: a reference is compared as written.
    if (ch === ' ' && (this.value === '' || this.value.endsWith(' '))) return;
    if (this.value.length < MAX) this.value += ch;
    this.draw();
  }

  private erase(): void {
    this.value = this.value.slice(0, -1);
    this.draw();
  }

  private enter(): void {
    const value = this.value.trim();
    if (value === '') return;
    this.clear();
    this.onSubmit(value);
  }

  private draw(): void {
    this.line.text = this.labelled(this.fieldLabel, `${this.value}▌`);
    const room = 10 * (KEY_W + 10) - 50;
    this.line.scale.set(1);
    if (this.line.width > room) this.line.scale.set(room / this.line.width);
  }
}
