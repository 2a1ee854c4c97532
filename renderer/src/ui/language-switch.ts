import { Container } from 'pixi.js';
import type { Language } from '../../../protocol/index.js';
import type { ScreenContext } from '../screens/screen.js';
import { Button } from './button.js';

const ORDER: Language[] = ['zh-Hant', 'pt', 'en'];

/**
 * zh-Hant / pt / en, each labelled in its own language so anyone can find theirs. Choosing one
 * asks the host, which keeps the screen's language across reloads and answers with a snapshot.
 */
export class LanguageSwitch extends Container {
  readonly buttons: Button[];

  constructor(ctx: ScreenContext, buttonWidth = 220) {
    super();
    this.buttons = ORDER.map((lang, i) => {
      const b = new Button(`language-${lang}`, buttonWidth, 96, () => ctx.command({ name: 'set-language', language: lang }));
      b.setLabel(ctx.i18n.getFixedT(lang)(`language.${lang}`));
      b.x = i * (buttonWidth + 16);
      return b;
    });
    this.addChild(...this.buttons);
  }

  setCurrent(language: Language): void {
    ORDER.forEach((lang, i) => this.buttons[i]?.setActive(lang === language));
  }
}
