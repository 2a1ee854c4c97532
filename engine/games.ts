import type { BaccaratCoup } from './baccarat/table-game.js';
import { BACCARAT_DEFAULTS, baccaratTableGame } from './baccarat/table-game.js';
import type { ShoeSession } from './baccarat/shoe-session.js';
import { BLACKJACK_DEFAULTS, blackjackTableGame, type BlackjackTableRound, type BlackjackTableShoe } from './blackjack/table-game.js';
import { baccaratPlayedOptions, checkBaccaratOptions } from './baccarat/options.js';
import { BACCARAT_PROFILES, isRegulatedBaccaratProfile } from './baccarat/profiles.js';
import { blackjackPlayedOptions, checkRules, isProfileId, isRegulated, PROFILE_IDS, resolveRules } from './blackjack/rules.js';
import { JACKPOT_PROGRAM_OPTION, jackpotProgramOf } from './blackjack/jackpot/option.js';
import { JackpotProgramError, parseJackpotProgram } from './blackjack/jackpot/program.js';
import type { GameDefaults, GameDefinition } from './table/game.js';
import type { PlayedOptions } from './table/field-options.js';
import type { RuleRefusal } from './table/rule-options.js';
import { BlackjackAdvisor } from './blackjack/strategy/advisor.js';
import type { Chance, DecisionAdvisor } from './table/advisor.js';
import { WarAdvisor } from './war/advisor.js';
import { checkWarOptions, warPlayedOptions } from './war/options.js';
import { isRegulatedWarProfile, WAR_PROFILES } from './war/profiles.js';
import type { GameKind } from './table/vocabulary.js';
import type { WarCoup } from './war/coup.js';
import { WAR_DEFAULTS, warTableGame, type WarTableShoe } from './war/table-game.js';
import { roadsView, type RoadsData } from './baccarat/roads-view.js';
import { projectTableExtras, type TableExtrasInputs, type TableExtrasOf } from './table/views.js';

/** Any one of the games, with its own state types. */
export type AnyTableGame =
  GameDefinition<BlackjackTableShoe, BlackjackTableRound> | GameDefinition<ShoeSession, BaccaratCoup> | GameDefinition<WarTableShoe, WarCoup>;

/** The game a table plays when nothing says which (`npm start`, the simulated table). */
export const DEFAULT_GAME: GameKind = 'blackjack';

/** What each game starts with before a profile is chosen (its own module says: engine/<game>/table-game.ts). */
export function gameDefaults(kind: GameKind): GameDefaults {
  switch (kind) {
    case 'blackjack':
      return BLACKJACK_DEFAULTS;
    case 'baccarat':
      return BACCARAT_DEFAULTS;
    case 'war':
      return WAR_DEFAULTS;
  }
}

/**
 * The definition of a game under a rule profile and the table's options (`authorisation`: the
 * reference of the choices among them): the one place the engine lists its games.
 */
export function tableGame(kind: GameKind, profile: string, options: Readonly<Record<string, unknown>> = {}): AnyTableGame {
  switch (kind) {
    case 'blackjack':
      return blackjackTableGame(profile, options);
    case 'baccarat':
      return baccaratTableGame(profile, options);
    case 'war':
      return warTableGame(profile, options);
  }
}

/**
 * The one guard of a game's rule options (command lines, the table's configuration file and
 * service mode all ask it): every refusal, each with the article that fixes the value. A profile
 * no text governs is refused for a table (`forTable`).
 */
export function checkTableOptions(kind: GameKind, profile: string, options: Readonly<Record<string, unknown>>, forTable: boolean): RuleRefusal[] {
  const regulated = isRegulatedProfile(kind, profile);
  if (regulated === null)
    return [{ reason: 'unknown-option', option: 'profile', value: JSON.stringify(profile), article: null, allowed: knownProfiles(kind).join(', ') }];
  if (forTable && !regulated) return [{ reason: 'analysis-only', option: 'profile', value: profile, article: null }];
  switch (kind) {
    case 'blackjack':
      return checkBlackjackOptions(profile, options);
    case 'baccarat':
      return checkBaccaratOptions(profile, options, forTable);
    case 'war':
      return checkWarOptions(profile, options);
  }
}

/** Blackjack's rule options, and the jackpot program they may carry (the authority's figures, rules 40, 43–44). */
function checkBlackjackOptions(profile: string, options: Readonly<Record<string, unknown>>): RuleRefusal[] {
  const { [JACKPOT_PROGRAM_OPTION]: program, ...rules } = options;
  const refused = checkRules(profile, rules);
  if (refused.length > 0 || !isProfileId(profile)) return refused;
  try {
    jackpotProgramOf(resolveRules(profile, rules), program);
    return [];
  } catch (e) {
    const problems = e instanceof JackpotProgramError ? e.problems.join('; ') : e instanceof Error ? e.message : String(e);
    // The first problem by its code and figures: the screens say it in words (`allowed` is the English of every one).
    const first = e instanceof JackpotProgramError ? e.found[0] : undefined;
    return [
      {
        reason: 'bad-type',
        option: JACKPOT_PROGRAM_OPTION,
        value: program === undefined ? 'none' : 'the program given',
        article: first?.article ?? 'portugal-2001 rules 40, 44',
        allowed: problems,
        ...(first ? { jackpot: first } : {}),
      },
    ];
  }
}

/**
 * The one chip a progressive jackpot bet is when the table's options carry a jackpot program
 * (Portugal 2001 rule 47: «no montante previamente definido»); undefined for a table without one.
 * Only blackjack's profiles carry a program.
 */
export function jackpotStake(kind: GameKind, options: Readonly<Record<string, unknown>>): number | undefined {
  if (kind !== 'blackjack') return undefined;
  const program = options[JACKPOT_PROGRAM_OPTION];
  return program === undefined ? undefined : parseJackpotProgram(program).stake;
}

/** Whether a text governs the profile (a table may play it); null for a profile the game does not have. */
export function isRegulatedProfile(kind: GameKind, profile: string): boolean | null {
  if (!knownProfiles(kind).includes(profile)) return null;
  switch (kind) {
    case 'blackjack':
      return isProfileId(profile) && isRegulated(profile);
    case 'baccarat':
      return isRegulatedBaccaratProfile(profile);
    case 'war':
      return isRegulatedWarProfile(profile);
  }
}

export function knownProfiles(kind: GameKind): readonly string[] {
  switch (kind) {
    case 'blackjack':
      return PROFILE_IDS;
    case 'baccarat':
      return Object.keys(BACCARAT_PROFILES);
    case 'war':
      return Object.keys(WAR_PROFILES);
  }
}

/**
 * A profile's options as a table with `options` plays them, one shape for every game (service
 * mode's Configuration page): classed, with the value played and the values offered. Throws
 * where the options do not resolve (the guard refuses them first).
 */
export function playedOptions(kind: GameKind, profile: string, options: Readonly<Record<string, unknown>>): PlayedOptions {
  switch (kind) {
    case 'blackjack':
      if (!isProfileId(profile)) throw new RangeError(`no blackjack profile "${profile}"`);
      return blackjackPlayedOptions(profile, options);
    case 'baccarat':
      return baccaratPlayedOptions(profile, options);
    case 'war':
      return warPlayedOptions(profile, options);
  }
}

/**
 * How a simulated player decides at the game under the profile, the game's own policy: basic
 * strategy at blackjack; at war, war or surrender after a tie by the host's seeded `chance`; null
 * where a decision takes what a timeout would (baccarat has none to take).
 */
export function decisionAdvisor(kind: GameKind, profile: string, chance: Chance): DecisionAdvisor | null {
  switch (kind) {
    case 'blackjack':
      return new BlackjackAdvisor(profile);
    case 'war':
      return new WarAdvisor(chance);
    case 'baccarat':
      return null;
  }
}

/** Runs `open` with the game's definition, keeping its state types (for code generic over the game). */
export function withTableGame<T>(
  kind: GameKind,
  profile: string,
  options: Readonly<Record<string, unknown>>,
  open: <S, R>(game: GameDefinition<S, R>) => T,
): T {
  switch (kind) {
    case 'blackjack':
      return open(blackjackTableGame(profile, options));
    case 'baccarat':
      return open(baccaratTableGame(profile, options));
    case 'war':
      return open(warTableGame(profile, options));
  }
}

/** The table display's parts, with baccarat's road maps as the roads (engine/baccarat/roads-view.ts). */
export type TableExtras = TableExtrasOf<RoadsData>;

/**
 * The table display's parts of any game (engine/table/views.ts `projectTableExtras`), the roads
 * laid out by baccarat's own road maps: the generic table does not know the game that has them.
 */
export function tableExtras(i: TableExtrasInputs, game: Parameters<typeof projectTableExtras>[1]): TableExtras {
  return projectTableExtras(i, game, roadsView);
}
