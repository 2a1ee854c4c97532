import { Container, Graphics, Text } from 'pixi.js';
import { Button } from '../../ui/button.js';
import { COLORS, textStyle } from '../../ui/theme.js';

/** A label and its value on one line, with the language's separator (`員工編號：123`, `Staff: 123`). */
export type Labelled = (label: string, value: string) => string;

export interface KeypadLabels {
  labelled: Labelled;
  staff: string;
  pin: string;
  next: string;
  submit: string;
  clear: string;
}

/**
 * Staff number, then PIN, on a 3×4 digit pad (and the physical keyboard's digits, Backspace and
 * Enter). The PIN is drawn as dots and kept only until it is sent. `prefix` keeps the test ids of
 * the sign-in pad and the second person's pad apart.
 */
export class Keypad extends Container {
  private staff = '';
  private pin = '';
  private field: 'staff' | 'pin' = 'staff';
  private readonly staffText = new Text({ text: '', style: textStyle({ fontSize: 40 }) });
  private readonly pinText = new Text({ text: '', style: textStyle({ fontSize: 40 }) });
  private readonly frames = new Graphics();
  private readonly ok: Button;
  private readonly clearButton: Button;
  private labels: KeypadLabels = { labelled: (_label, value) => value, staff: '', pin: '', next: '', submit: '', clear: '' };

  constructor(
    readonly prefix: string,
    private readonly onSubmit: (staff: string, pin: string) => void,
    /** One field only (an authorisation number): OK sends it as `staff`, the PIN line is hidden. */
    private readonly single = false,
  ) {
    super();
    this.pinText.visible = !single;
    this.staffText.position.set(20, 18);
    this.pinText.position.set(20, 108);
    this.addChild(this.frames, this.staffText, this.pinText);
    const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
    keys.forEach((k, i) => this.addKey(k, (i % 3) * 126, 200 + Math.floor(i / 3) * 106));
    this.clearButton = new Button(`${prefix}-clear`, 116, 96, () => this.clear());
    this.clearButton.position.set(0, 200 + 3 * 106);
    this.addKey('0', 126, 200 + 3 * 106);
    this.ok = new Button(`${prefix}-ok`, 116, 96, () => this.enter());
    this.ok.position.set(252, 200 + 3 * 106);
    this.addChild(this.clearButton, this.ok);
    this.draw();
  }

  setLabels(labels: KeypadLabels): void {
    this.labels = labels;
    this.clearButton.setLabel(labels.clear);
    this.draw();
  }

  /** Digits, Backspace and Enter from a keyboard; true when the key was used. */
  key(key: string): boolean {
    if (/^\d$/.test(key)) this.type(key);
    else if (key === 'Backspace') this.back();
    else if (key === 'Enter') this.enter();
    else return false;
    return true;
  }

  clear(): void {
    this.staff = '';
    this.pin = '';
    this.field = 'staff';
    this.draw();
  }

  private addKey(digit: string, x: number, y: number): void {
    const b = new Button(`${this.prefix}-${digit}`, 116, 96, () => this.type(digit));
    b.setLabel(digit);
    b.position.set(x, y);
    this.addChild(b);
  }

  private type(d: string): void {
    if (this.field === 'staff' && this.staff.length < (this.single ? 12 : 8)) this.staff += d;
    else if (this.field === 'pin' && this.pin.length < 12) this.pin += d;
    this.draw();
  }

  private back(): void {
    if (this.field === 'pin' && this.pin === '') this.field = 'staff';
    else if (this.field === 'pin') this.pin = this.pin.slice(0, -1);
    else this.staff = this.staff.slice(0, -1);
    this.draw();
  }

  private enter(): void {
    if (this.single) {
      if (this.staff.length === 0) return;
      const value = this.staff;
      this.clear();
      this.onSubmit(value, '');
      return;
    }
    if (this.field === 'staff') {
      if (this.staff.length >= 3) this.field = 'pin';
    } else if (this.pin.length >= 4) {
      const [staff, pin] = [this.staff, this.pin];
      this.clear();
      this.onSubmit(staff, pin);
      return;
    }
    this.draw();
  }

  private draw(): void {
    this.staffText.text = this.labels.labelled(this.labels.staff, `${this.staff}${this.field === 'staff' ? '▌' : ''}`);
    this.pinText.text = this.labels.labelled(this.labels.pin, `${'●'.repeat(this.pin.length)}${this.field === 'pin' ? '▌' : ''}`);
    this.ok.setLabel(this.field === 'staff' && !this.single ? this.labels.next : this.labels.submit);
    this.frames.clear();
    for (const [i, f] of (this.single ? (['staff'] as const) : (['staff', 'pin'] as const)).entries()) {
      this.frames
        .roundRect(0, i * 90, 368, 78, 12)
        .fill({ color: COLORS.panel })
        .stroke({ width: this.field === f ? 4 : 2, color: this.field === f ? COLORS.gold : COLORS.panelEdge });
    }
  }
}
