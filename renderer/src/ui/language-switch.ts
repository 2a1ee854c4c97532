import { Container } from 'pixi.js';
import type { Language } from '../../../protocol/index.js';
import type { ScreenContext } from '../screens/screen.js';
import { Button } from './button.js';
import { TOUCH } from './theme.js';

const ORDER: Language[] = ['zh-Hant', 'pt', 'en'];

/**
 * zh-Hant / pt / en, each labelled in its own language so anyone can find theirs. Choosing one
 * asks the host, which keeps the screen's language across reloads and answers with a snapshot.
 */
export class LanguageSwitch extends Container {
  readonly buttons: Button[];

  constructor(
    ctx: ScreenContext,
    private readonly size: { width: number; height: number; gap: number } = { width: 220, height: TOUCH.min, gap: 16 },
  ) {
    super();
    this.buttons = ORDER.map((lang) => {
      const b = new Button(`language-${lang}`, size.width, size.height, () => ctx.command({ name: 'set-language', language: lang }));
      b.setLabel(ctx.i18n.getFixedT(lang)(`language.${lang}`));
      return b;
    });
    this.arrange(false);
    this.addChild(...this.buttons);
  }

  /** In a row, or stacked in a column where the screen has a corner to spare. */
  arrange(column: boolean): void {
    this.buttons.forEach((b, i) => {
      b.position.set(column ? 0 : i * (this.size.width + this.size.gap), column ? i * (this.size.height + this.size.gap) : 0);
    });
  }

  setCurrent(language: Language): void {
    ORDER.forEach((lang, i) => this.buttons[i]?.setActive(lang === language));
  }
}
