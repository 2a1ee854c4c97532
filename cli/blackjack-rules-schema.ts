// zod schema of the blackjack rule options, generated from the engine's option table
// (engine/blackjack/rules.ts) so the two cannot drift: the shape of the options at the command
// line's edge. What each profile's text allows is the engine's one guard (`checkRules`).
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
export const blackjackRulesSchema = z
  .object({
    profile: z.enum(PROFILE_IDS),
    ...Object.fromEntries(OPTION_KEYS.map((k) => [k, fieldSchema(k)])),
    // The non-default options, `option=value`, that the lines settled under them name.
    choices: z.partialRecord(z.enum(OPTION_KEYS), z.string()),
  })
  .strict();

/** A rules file / configuration entry: a profile and its overrides. */
export const blackjackRulesConfigSchema = z.object({ profile: z.enum(PROFILE_IDS), overrides: blackjackOverridesSchema.default({}) }).strict();
