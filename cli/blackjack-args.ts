// Shared option parsing of the blackjack tools: `--rules <profile>` and repeated `--set key=value`.
import { isProfileId, parseOptionValue, resolveRules, RulesError, PROFILE_IDS, type BlackjackRules } from '../engine/blackjack/rules.js';

import { blackjackRulesSchema } from './blackjack-rules-schema.js';

import { UsageError } from './tool.js';

export { UsageError };

export function rulesFromArgs(profile: string | undefined, sets: readonly string[] | undefined): BlackjackRules {
  if (profile === undefined) throw new UsageError(`--rules <profile> is required (${PROFILE_IDS.join(', ')})`);
  if (!isProfileId(profile)) throw new UsageError(`unknown profile "${profile}"; known: ${PROFILE_IDS.join(', ')}`);
  const overrides: Record<string, unknown> = {};
  try {
    for (const s of sets ?? []) {
      const eq = s.indexOf('=');
      if (eq <= 0) throw new UsageError(`--set expects key=value, got "${s}"`);
      const key = s.slice(0, eq);
      overrides[key] = parseOptionValue(key, s.slice(eq + 1));
    }
    // The engine's checks name the article that limits a value; the zod schema checks the result again.
    const rules = resolveRules(profile, overrides);
    const checked = blackjackRulesSchema.safeParse(rules);
    if (!checked.success) throw new UsageError(checked.error.issues.map((i) => `${i.path.join('.') || 'rules'}: ${i.message}`).join('; '));
    return rules;
  } catch (e) {
    if (e instanceof RulesError) throw new UsageError(e.message);
    throw e;
  }
}
