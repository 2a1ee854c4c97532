// Shared option handling of the baccarat and «Desafio ao Casino» tools: `--rules <profile>`,
// repeated `--set key=value` (dotted keys reach nested fields, e.g. `banker.commissionBasisPoints=400`),
// the JSON round input (`-` = stdin) and the worker-thread bootstrap of the simulators.
import { readFileSync } from 'node:fs';
import { CardParseError, parseCard, rankIndex, RANKS } from '../engine/cards/card.js';
import { ShoeInventory } from '../engine/cards/shoe.js';
import { resolveBaccarat, type ResolvedBaccarat } from '../engine/baccarat/options.js';
import { baccaratProfile, ProfileError, type BaccaratProfile } from '../engine/baccarat/profiles.js';
import { RuleOptionsError } from '../engine/table/rule-options.js';
import { resolveWar, type ResolvedWar } from '../engine/war/options.js';
import { warProfile, type WarProfile } from '../engine/war/profiles.js';

import type { OptionSpec, OptionSpecs } from './command.js';
import { UsageError } from './tool.js';

export { UsageError };

/** A refusal of the command line: our own, or one of node:util parseArgs (unknown option…). */
export function isUsageError(e: unknown): e is Error {
  return e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'));
}

/**
 * A game-only option that stands for a `--set`: a flag (`--shuffler` →
 * `shuffling=automatic-shuffler`) or one with a value (`--main-with-tie-bet X` →
 * `mainBetOnTieWithTieBet=X`).
 */
export type Shorthand = ({ readonly flag: string } | { readonly key: string; readonly value: string }) & { readonly help: string };

/** The options both tools have: `--rules`, `--set`, `--json`. */
export function profileOptions(defaultRules: string) {
  return {
    rules: { type: 'string', default: defaultRules, value: 'PROFILE', help: 'the rule profile' },
    set: { type: 'string', multiple: true, value: 'KEY=VALUE', help: "override one of the profile's options (dotted keys reach nested ones)" },
    json: { type: 'boolean', default: false, help: 'print JSON' },
  } as const satisfies OptionSpecs;
}

/** The game's shorthands as options: a flag, or one with a value. */
export function shorthandOptions(shorthands: Readonly<Record<string, Shorthand>>): OptionSpecs {
  return Object.fromEntries(
    Object.entries(shorthands).map(([name, sh]): [string, OptionSpec] => [
      name,
      'flag' in sh ? { type: 'boolean', help: `${sh.help} (--set ${sh.flag})` } : { type: 'string', value: sh.value, help: `${sh.help} (--set ${sh.key}=…)` },
    ]),
  );
}

/** The `--set` each shorthand given on the command line stands for. */
export function shorthandSets(shorthands: Readonly<Record<string, Shorthand>>, values: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const [name, sh] of Object.entries(shorthands)) {
    const v = values[name];
    if (v === undefined || v === false) continue;
    out.push('flag' in sh ? sh.flag : `${sh.key}=${String(v)}`);
  }
  return out;
}

function parseValue(raw: string): unknown {
  if (/^-?\d+$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

function checked<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ProfileError || e instanceof RangeError || e instanceof RuleOptionsError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * `--set key=value` as the table's options: a dotted option of the profile, or `authorisation`
 * (the reference of a choice). They go through the engine's one guard, which refuses a value the
 * text fixes with its article (`--set banker.commissionBasisPoints=400` under `macau-commission`).
 */
export function optionsFromSets(sets: readonly string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of sets ?? []) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects key=value, got "${s}"`);
    const key = s.slice(0, eq);
    out[key] = key === 'authorisation' ? s.slice(eq + 1) : parseValue(s.slice(eq + 1));
  }
  return out;
}

export function resolvedBaccaratFromArgs(id: string, sets?: readonly string[]): ResolvedBaccarat {
  return checked(() => resolveBaccarat(baccaratProfile(id).id, optionsFromSets(sets)));
}

export function resolvedWarFromArgs(id: string, sets?: readonly string[]): ResolvedWar {
  return checked(() => resolveWar(warProfile(id).id, optionsFromSets(sets)));
}

export function baccaratRulesFromArgs(id: string, sets?: readonly string[]): BaccaratProfile {
  return resolvedBaccaratFromArgs(id, sets).profile;
}

export function warRulesFromArgs(id: string, sets?: readonly string[]): WarProfile {
  return resolvedWarFromArgs(id, sets).profile;
}

export function readJsonInput(path: string): unknown {
  let raw: string;
  try {
    raw = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new UsageError(`${path} is not JSON: ${(e as Error).message}`);
  }
}

/**
 * tsx hooks only the thread it was started in, so a worker first registers tsx itself, then
 * imports the .ts module, whose top level sees `workerData` and does its share.
 */
export function tsWorkerBootstrap(moduleUrl: string): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl)}); });`;
}

export function positiveInt(s: string, name: string, max: number): number {
  if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > max) throw new UsageError(`--${name} must be an integer 1–${max}, got "${s}"`);
  return Number(s);
}

/**
 * Rank counts A…K of a `decks`-deck shoe after the listed cards (space or comma separated) have
 * been dealt: the exact calculators' `--removed` option, for the edge of the rest of a shoe.
 */
export function remainingCounts(decks: number, removed: string): number[] {
  const counts = RANKS.map(() => 4 * decks);
  const inventory = new ShoeInventory(decks);
  for (const code of removed.split(/[\s,]+/).filter(Boolean)) {
    let card;
    try {
      card = parseCard(code);
    } catch (e) {
      if (e instanceof CardParseError) throw new UsageError(`--removed: ${e.message}`);
      throw e;
    }
    if (!inventory.take(card)) throw new UsageError(`--removed: a ${decks}-deck shoe has only ${decks} × ${code}`);
    counts[rankIndex(card.rank)] = (counts[rankIndex(card.rank)] as number) - 1;
  }
  return counts;
}
