import type { BlackjackRules } from '../rules.js';
import { JackpotProgramError, parseJackpotProgram, type JackpotProgram } from './program.js';

/**
 * The key under which a table's options carry its jackpot program. Not a rule option: the
 * figures are the authority's approval (rules 40, 43), checked as a program (`program.ts`).
 */
export const JACKPOT_PROGRAM_OPTION = 'jackpotProgram';

/**
 * The program a table plays, from its options: none without the `jackpot` option; with it, one is
 * required (rule 40: the authority fixes the figures) and is checked (rule 44). Throws
 * `JackpotProgramError`, naming the rule.
 */
export function jackpotProgramOf(rules: BlackjackRules, input: unknown): JackpotProgram | null {
  if (!rules.jackpot) {
    if (input !== undefined) throw new JackpotProgramError([{ why: 'needs-option', values: {}, article: 'portugal-2001 rules 38-39' }]);
    return null;
  }
  if (input === undefined) throw new JackpotProgramError([{ why: 'needs-program', values: {}, article: 'portugal-2001 rule 40' }]);
  return parseJackpotProgram(input);
}
