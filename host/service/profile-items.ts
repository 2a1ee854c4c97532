import { ruleOptionsOf, tableGame } from '../../engine/games.js';
import { resolveBaccarat } from '../../engine/baccarat/options.js';
import { describeRules, resolveRules, typeValues, type OptionKey, type ProfileId } from '../../engine/blackjack/rules.js';
import { getPath } from '../../engine/table/field-options.js';
import type { GameKind } from '../../engine/table/vocabulary.js';
import { resolveWar, WAR_OPTIONS } from '../../engine/war/options.js';
import { BACCARAT_OPTIONS } from '../../engine/baccarat/options.js';
import type { ConfigItem } from './service-backend.js';

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 400);
const short = (v: unknown) => JSON.stringify(v).slice(0, 128);

/**
 * The rule profile's options as the Configuration page lists them: each with the value the table
 * plays, its class from its text, the article that fixes or offers it, its default, and the values
 * of its type the editor offers (a value the text refuses can be asked for, and is refused with
 * its article). `editable`: a supervisor may propose a change, which takes effect at the next start.
 */
export function profileItems(game: GameKind, profile: string, options: Readonly<Record<string, unknown>>, editable: boolean): ConfigItem[] {
  try {
    // The options the table plays under: built as the table builds them (the guard has passed).
    tableGame(game, profile, options);
    const current = currentValues(game, profile, options);
    return ruleOptionsOf(game, profile).map((o) => ({
      key: `rules.${o.key}`,
      value: text(current(o.key)),
      ...(o.article ? { article: o.article.slice(0, 128) } : {}),
      editable,
      optionClass: o.class,
      default: text(o.default),
      values: offered(game, o.key).map(short).slice(0, 8),
      choice: Object.hasOwn(options, o.key) && current(o.key) !== o.default,
    }));
  } catch {
    // A profile the running host could not build cannot reach the page (the config is validated); say so anyway.
    return [{ key: 'rules', value: `no rule profile ${profile} for ${game}`, editable: false }];
  }
}

function currentValues(game: GameKind, profile: string, options: Readonly<Record<string, unknown>>): (key: string) => unknown {
  if (game === 'blackjack') {
    const d = describeRules(resolveRules(profile as ProfileId, options));
    return (key) => d[key as OptionKey]?.value;
  }
  const data = game === 'baccarat' ? resolveBaccarat(profile, options).profile : resolveWar(profile, options).profile;
  return (key) => getPath(data, key);
}

/** The values of an option's type the editor cycles through (none for a number: it is typed). */
function offered(game: GameKind, key: string): readonly unknown[] {
  if (game === 'blackjack') return typeValues(key as OptionKey);
  const o = (game === 'baccarat' ? BACCARAT_OPTIONS : WAR_OPTIONS)[key];
  if (o?.spec.kind === 'bool') return [false, true];
  return o?.spec.kind === 'enum' ? o.spec.values : [];
}
