import { Container, Text } from 'pixi.js';
import type { Language } from '../../../protocol/index.js';
import { intlLocale } from '../../../locales/money.js';
import { clockChangesAt, clockFormat, clockVisible } from './clock-policy.js';
import { COLORS, textStyle } from './theme.js';

/**
 * The 12-hour local clock in a station's bottom-right corner. `update` runs every frame but only
 * touches the text when the minute changes, so steady state allocates nothing.
 */
export class SessionClock extends Container {
  private readonly text = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.ivory, fontWeight: '600' }) });
  private format = clockFormat(intlLocale('zh-Hant'));
  private shownMinute = -1;
  private language: Language = 'zh-Hant';

  constructor(private sessionStartMs: number) {
    super();
    this.text.anchor.set(1, 1);
    this.addChild(this.text);
  }

  /** Called with every snapshot: the formatter is made anew only when the language changed (an Intl.DateTimeFormat is costly to make). */
  setLanguage(language: Language): void {
    if (language === this.language) return;
    this.language = language;
    this.format = clockFormat(intlLocale(language));
    this.shownMinute = -1;
  }

  /** A player's session began now: the clock flashes again from here. */
  sessionStarted(nowMs: number): void {
    this.sessionStartMs = nowMs;
  }

  /** Draws the clock at `nowMs`; returns when it next changes (anim/wake.ts). */
  update(nowMs: number): number {
    const minute = Math.floor(nowMs / 60_000);
    if (minute !== this.shownMinute) {
      this.shownMinute = minute;
      this.text.text = this.format.format(nowMs);
    }
    this.text.visible = clockVisible(this.sessionStartMs, nowMs);
    return clockChangesAt(this.sessionStartMs, nowMs);
  }
}
