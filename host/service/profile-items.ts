import { playedOptions, tableGame } from '../../engine/games.js';
import { offeredValues, playedValue } from '../../engine/table/field-options.js';
import type { GameKind } from '../../engine/table/vocabulary.js';
import type { ConfigItem } from './service-backend.js';

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 400);
const short = (v: unknown) => JSON.stringify(v).slice(0, 128);

/**
 * The rule profile's options as the Configuration page lists them: each with the value the table
 * plays, its class from its text, the article that fixes or offers it, its default, and the values
 * of its type the editor offers (a value the text refuses can be asked for, and is refused with
 * its article). `editable`: a supervisor may propose a change, which takes effect at the next start.
 * Every game's options come in one shape (engine/games.ts `playedOptions`): nothing here names a game.
 */
export function profileItems(game: GameKind, profile: string, options: Readonly<Record<string, unknown>>, editable: boolean): ConfigItem[] {
  try {
    // The options the table plays under: built as the table builds them (the guard has passed).
    tableGame(game, profile, options);
    const played = playedOptions(game, profile, options);
    const current = (key: string) => playedValue(played, key);
    return played.infos.map((o) => ({
      key: `rules.${o.key}`,
      value: text(current(o.key)),
      ...(o.article ? { article: o.article.slice(0, 128) } : {}),
      editable,
      optionClass: o.class,
      default: text(o.default),
      values: offeredValues(played, o.key).map(short).slice(0, 8),
      choice: Object.hasOwn(options, o.key) && current(o.key) !== o.default,
    }));
  } catch {
    // A profile the running host could not build cannot reach the page (the config is validated); say so anyway.
    return [{ key: 'rules', value: `no rule profile ${profile} for ${game}`, editable: false }];
  }
}
