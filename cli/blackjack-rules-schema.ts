// zod schema of the blackjack rule options, generated from the engine's option table
// (engine/blackjack/rules.ts) so the two cannot drift. The engine may not import zod (layering),
// so its own validator checks the same table; this schema is for the edges where rule data enters
// from outside (command lines, configuration files, the host's service mode).
import { z } from 'zod';
import { OPTION_KEYS, PROFILE_IDS, optionSpec } from '../engine/blackjack/rules.js';

function fieldSchema(key: (typeof OPTION_KEYS)[number]): z.ZodType {
  const { spec, about } = optionSpec(key);
  switch (spec.kind) {
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]).describe(about);
    case 'int':
      return z.number().int().min(spec.min).max(spec.max).describe(about);
    case 'bool':
      return z.boolean().describe(about);
    case 'string':
      return z.string().describe(about);
  }
}

/** Overrides of a profile: any subset of the options, nothing else. */
export const blackjackOverridesSchema = z
  .object(Object.fromEntries(OPTION_KEYS.map((k) => [k, fieldSchema(k).optional()])) as Record<string, z.ZodOptional<z.ZodType>>)
  .strict();

/** A complete resolved rule set (what `resolveRules` returns). */
export const blackjackRulesSchema = z.object({ profile: z.enum(PROFILE_IDS), ...Object.fromEntries(OPTION_KEYS.map((k) => [k, fieldSchema(k)])) }).strict();

/** A rules file / configuration entry: a profile and its overrides. */
export const blackjackRulesConfigSchema = z.object({ profile: z.enum(PROFILE_IDS), overrides: blackjackOverridesSchema.default({}) }).strict();
