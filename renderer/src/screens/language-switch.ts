import { Container } from 'pixi.js';
import { languages, languageSelf } from '../../../locales/index.js';
import type { Language } from '../../../protocol/index.js';
import type { ScreenContext } from './screen.js';
import { Button } from '../ui/button.js';
import { TOUCH } from '../ui/theme.js';

/**
 * One button a catalogue (locales/catalogues/: zh-Hant, zh-Hans, en, pt), each labelled in its own
 * language (`language.self`, held for every language whether its catalogue is or not) so anyone can find theirs; a catalogue added is a button more, with no
 * code change. Choosing one asks the host, which keeps the screen's language across reloads and
 * answers with a snapshot.
 */
export class LanguageSwitch extends Container {
  readonly buttons: Button[];

  constructor(
    ctx: ScreenContext,
    private readonly size: { width: number; height: number; gap: number } = { width: 220, height: TOUCH.min, gap: 16 },
  ) {
    super();
    this.buttons = languages.map((lang) => {
      const b = new Button(`language-${lang}`, size.width, size.height, () => ctx.command({ name: 'set-language', language: lang }));
      b.setLabel(languageSelf(lang));
      return b;
    });
    this.arrange(this.buttons.length);
    this.addChild(...this.buttons);
  }

  /** In lines of `across` buttons: one row (all across), a column (1), or a block where a corner is short of room. */
  arrange(across: number): void {
    const n = Math.max(1, across);
    this.buttons.forEach((b, i) => {
      b.position.set((i % n) * (this.size.width + this.size.gap), Math.floor(i / n) * (this.size.height + this.size.gap));
    });
  }

  setCurrent(language: Language): void {
    languages.forEach((lang, i) => this.buttons[i]?.setActive(lang === language));
  }
}
