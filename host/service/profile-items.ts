import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { describeRules, resolveRules, type ProfileId } from '../../engine/blackjack/rules.js';
import { warProfile } from '../../engine/war/profiles.js';
import type { ConfigItem } from './service-backend.js';

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 400);

/**
 * The rule profile's options as the Configuration page lists them: value and, where the engine
 * names it, the article it comes from (blackjack: every option; baccarat: the `rule` of each
 * payout; war: the regulation of the profile). Read-only until configuration changes are connected.
 */
export function profileItems(game: 'blackjack' | 'baccarat' | 'war', profile: string): ConfigItem[] {
  try {
    if (game === 'blackjack') {
      return Object.entries(describeRules(resolveRules(profile as ProfileId))).map(([key, o]) => ({
        key: `rules.${key}`,
        value: text(o.value),
        article: o.article.slice(0, 128),
        editable: false,
      }));
    }
    const p = game === 'baccarat' ? baccaratProfile(profile) : warProfile(profile);
    const regulation = p.regulation.slice(0, 128);
    return Object.entries({ ...p })
      .filter(([key]) => key !== 'id' && key !== 'title' && key !== 'regulation')
      .map(([key, value]) => {
        const rule = typeof value === 'object' && value !== null && 'rule' in value ? String((value as { rule: unknown }).rule) : regulation;
        return { key: `rules.${key}`, value: text(value), ...(rule ? { article: rule.slice(0, 128) } : {}), editable: false };
      });
  } catch {
    // An unknown profile name cannot reach a running host (the config is validated); say so anyway.
    return [{ key: 'rules', value: `no rule profile ${profile} for ${game}`, editable: false }];
  }
}
