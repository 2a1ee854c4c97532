import type { Logger } from 'pino';
import { configChanges, digestsOfReference, type JournalEntry, type Ledger, type NewEntry } from '../../ledger/index.js';
import { recordPayload, ruleRecordOf, sameReferenceSaid } from './authorisation.js';
import { inEnglish, limitSaid, ruleSaid, said, type Said } from './refusal-words.js';
import { limitBreaks } from '../../engine/table/limits.js';
import { checkTableOptions, knownProfiles, tableGame } from '../../engine/games.js';
import { describeRuleRefusal, type RuleRefusal } from '../../engine/table/rule-options.js';
import { describeIssues } from './load-config.js';
import { SAS_CREDIT_MAX, TableConfig, tableOptions, unknownBetTypes } from './table-config.js';
import { GAME_KINDS, type BetId } from '../../engine/table/vocabulary.js';
import { macauDay } from './macau-time.js';
import { minorDigits } from '../../locales/money.js';

/**
 * What may change while the host runs. The game, the seats, the stations and the devices need a
 * restart with a new configuration file; so does the offline limit, which the sync client reads
 * once. The rule profile (another of the same game's) and its options change here and take effect
 * at the next start (RESTART_KEYS). The station credit limit takes effect at once (IMMEDIATE_KEYS).
 */
export const CHANGEABLE_KEYS = [
  'limits',
  'betLimits',
  'denominations',
  'timings',
  'handpayTwoPersonAbove',
  'roundMax',
  'creditLimit',
  'profileOptions',
  'profile',
] as const;
export type ChangeableKey = (typeof CHANGEABLE_KEYS)[number];

/**
 * Keys in effect as soon as they are journalled, a round in play or not: the station credit limit
 * bears on credit coming in (a note, a ticket, AFT, a move from another table), never on a bet
 * or a settlement, and every reader of a station's room reads the running configuration at each
 * question (docs/sas.md, "The station credit limit"). Held to a round's end, a lowered limit would
 * let credit in past it until then.
 */
export const IMMEDIATE_KEYS: ReadonlySet<ChangeableKey> = new Set(['creditLimit']);

/**
 * Keys whose change is journalled at once but takes effect at the next start: the rule profile
 * and its options make another game definition (its identity is journalled when the table opens),
 * so they change between runs. The change's authorisation reference becomes the rule set's
 * (`profileAuthorisation`).
 */
export const RESTART_KEYS: ReadonlySet<ChangeableKey> = new Set(['profileOptions', 'profile']);

/**
 * A change refused: what it says to a person (`say`: a key of the catalogues and its parameters),
 * the same in English for the log (`reason`), and where the engine's guard refused a rule option,
 * its refusals (each with its article); `wait`: a rule set's switch not now (a round in play), at
 * a later shoe perhaps.
 */
export type ChangeRefusal = { ok: false; reason: string; say: Said; rules?: readonly RuleRefusal[]; wait?: true };

/** A refusal saying `say`, its English the log's. */
export function refusal(say: Said, extra: Pick<ChangeRefusal, 'rules' | 'wait'> = {}): ChangeRefusal {
  return { ok: false, reason: inEnglish(say), say, ...extra };
}

/** The people behind a change: who made it, who confirmed it, and the regulator's authorisation. */
export interface ChangeAuthority {
  who: string;
  witness: string;
  /** The regulator's (DICJ) authorisation reference for this change. */
  authorisation: string;
  /** The back office's request this change carries out (host/floor/remote-config.ts), journalled with it. */
  order?: number;
  /** The day (YYYY-MM-DD) a new rule set's authorisation takes effect; absent: today (rule options only). */
  effective?: string;
}

export interface QueuedChange {
  key: ChangeableKey;
  after: unknown;
  seq: number;
  /** The change's authorisation reference (the rule options take it as theirs). */
  authorisation: string;
}

export interface ConfigChangeDeps {
  /** The running configuration: changes are applied to this object, which every part reads. */
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  /** The bets of the table's game (a limit of another bet type is refused); asked each time: a rule set switched between shoes brings another game's. */
  bets: readonly BetId[] | (() => readonly BetId[]);
  /** Whether a change may take effect now: no round in play, no chips on the spots. */
  betweenRounds: () => boolean;
  /** A change took effect (acceptors told the new notes, screens refreshed). */
  onApplied?: (key: ChangeableKey) => void;
  /** The host's rebuild of the game between shoes (host/table/game-switch.ts); absent: a rule set changes at a start only. */
  ruleSwitch?: RuleSwitch;
  /**
   * The table's faults (its TiltManager): a switch journalled whose game could not be built is the
   * fault `restart-needed`, so the screens, service mode and /healthz say why the table takes nothing.
   */
  faults?: RuleSwitchFaults;
}

/** Where a table left without its game is raised, and cleared by the start that builds it (the TiltManager; never throws). */
export interface RuleSwitchFaults {
  raise(kind: 'restart-needed'): void;
  conditionGone(kind: 'restart-needed'): void;
}

/** The host's side of a rule set switched at a shoe change (made by host/table/game-switch.ts). */
export interface RuleSwitch {
  /**
   * Why the table cannot play `next` from now on (null: it can); nothing is journalled either way.
   * `wait`: not now (a round, chips, a halt), at a later shoe perhaps; else never on this table as it runs.
   */
  refusal(next: TableConfig): { say: Said; wait: boolean } | null;
  /** The game rebuilt under `next` (its change and record are journalled): the table plays it from now on. */
  switchTo(next: TableConfig): void;
}

/** A rule set's change from the back office, with the upstream's signature over its order. */
export interface ShoeAuthority extends Omit<ChangeAuthority, 'effective'> {
  signature?: string;
}

/** Who makes a change, the second person and the regulator's reference, trimmed; refused without two different people and the reference. */
function twoPeople(
  by: Pick<ChangeAuthority, 'who' | 'witness' | 'authorisation'>,
): { ok: true; who: string; witness: string; authorisation: string } | ChangeRefusal {
  const who = by.who.trim();
  const witness = by.witness.trim();
  const authorisation = by.authorisation.trim();
  if (!who || !witness) return refusal(said('needsTwo'));
  if (who === witness) return refusal(said('samePerson'));
  if (!authorisation) return refusal(said('needsReference'));
  return { ok: true, who, witness, authorisation };
}

/**
 * Configuration changes (issue 7 item 1, issue 9's configuration page): each names who made it,
 * a second person and the regulator's authorisation reference, is journalled as `config.change`
 * with the values before and after, and takes effect between rounds — queued while a round is
 * in play. At start the journalled changes are applied again over the configuration file.
 */
export class ConfigChanges {
  private readonly queue: QueuedChange[] = [];
  private readonly atRestart: QueuedChange[] = [];

  constructor(private readonly deps: ConfigChangeDeps) {}

  /**
   * Re-applies every journalled change over the file's configuration (called once at start,
   * before anything reads the config). A change that no longer validates is skipped and logged.
   */
  restore(): number {
    // The start has built the game of the rule set journalled (restoreRestartChanges): a switch's
    // fault restored from the journal is over, and only a start ends it (no person may clear it).
    this.deps.faults?.conditionGone('restart-needed');
    let applied = 0;
    for (const c of configChanges(this.deps.ledger)) {
      if (!(CHANGEABLE_KEYS as readonly string[]).includes(c.key)) continue;
      const key = c.key as ChangeableKey;
      // Applied before the table was built (restoreRestartChanges): the running game has them.
      if (RESTART_KEYS.has(key)) continue;
      if (JSON.stringify(this.current(key) ?? null) !== JSON.stringify(c.before ?? null)) {
        this.deps.log.warn(
          { key, file: this.current(key), journalled: c.before, seq: c.seq },
          'the configuration file differs from the journalled value; the journal wins',
        );
      }
      const v = this.validate(key, c.after, c.authorisation);
      if (!v.ok) {
        this.deps.log.error({ seq: c.seq, key, reason: v.reason }, 'a journalled configuration change does not fit this table any more: skipped');
        continue;
      }
      this.assign(key, v.value);
      applied++;
    }
    return applied;
  }

  /**
   * Proposes a change. Refused (nothing journalled) without two different people and an
   * authorisation reference, for a key that needs a restart, or for a value that does not
   * validate. Journalled at once; applied now if no round is in play, else queued.
   */
  change(key: string, after: unknown, by: ChangeAuthority): { ok: true; status: 'applied' | 'queued' | 'restart'; seq: number } | ChangeRefusal {
    if (!(CHANGEABLE_KEYS as readonly string[]).includes(key)) {
      return refusal(said('notChangeable', { setting: key, changeable: CHANGEABLE_KEYS.join(', ') }));
    }
    const k = key as ChangeableKey;
    const people = twoPeople(by);
    if (!people.ok) return people;
    const { who, witness, authorisation } = people;
    const effective = effectiveRefusal(k, by.effective);
    if (effective) return refusal(effective);
    const v = this.validate(k, after, authorisation);
    if (!v.ok) return v;
    const before = this.pendingValue(k);
    const r = this.deps.ledger.append({
      type: 'config.change',
      payload: {
        who,
        witness,
        authorisation,
        key: k,
        before: before ?? null,
        after: v.value ?? null,
        ...(by.order !== undefined ? { order: by.order } : {}),
        ...(by.effective ? { effective: by.effective } : {}),
      },
    });
    this.deps.log.info({ key: k, before, after: v.value, who, witness, authorisation, seq: r.entry.seq }, 'configuration change journalled');
    // The rule set and its authorisation on record after the change (issue 51): the new options'
    // under the change's reference, else the running ones' (taken before the change is made).
    const rules = ruleRecordOf(RESTART_KEYS.has(k) ? this.withRuleSet(k, v.value, authorisation, by.effective) : this.deps.config);
    // Made as journalled before the record is journalled: a journal that refuses the record (a
    // full disk) must not leave this run on one value and the next start, which applies every
    // journalled change, on another. The refusal still reaches the caller.
    const status = this.make(k, v.value, r.entry.seq, authorisation);
    this.deps.ledger.append({ type: 'rules.record', payload: recordPayload(rules, { changeSeq: r.entry.seq, nextStart: RESTART_KEYS.has(k) }) });
    return { ok: true, status, seq: r.entry.seq };
  }

  /** A journalled change put in effect as its key allows: at the next start, at once, or at the round's end. */
  private make(k: ChangeableKey, after: unknown, seq: number, authorisation: string): 'applied' | 'queued' | 'restart' {
    if (RESTART_KEYS.has(k)) {
      this.atRestart.push({ key: k, after, seq, authorisation });
      return 'restart';
    }
    if (IMMEDIATE_KEYS.has(k)) {
      // Journalled, applied before the change is answered: the next credit in is measured by it.
      this.assign(k, after);
      this.deps.log.info({ key: k, seq }, 'configuration change in effect');
      this.deps.onApplied?.(k);
      return 'applied';
    }
    this.queue.push({ key: k, after, seq, authorisation });
    this.applyQueued();
    return this.queue.some((q) => q.seq === seq) ? 'queued' : 'applied';
  }

  /**
   * A change of the rule profile or its options made at a shoe change (issue 49 item 6): checked
   * as `change` checks it, and by the table (`ruleSwitch.refusal`: between rounds, the same decks,
   * the limits and bets, the authorisation a start requires); refused with nothing journalled.
   * Else journalled (`config.change` with `at: shoe`, the order and its signature, and its
   * `rules.record`, in one transaction: `journalSwitch`), put in the running configuration with
   * every rule-set change journalled for the next start, and the game rebuilt under it. A game
   * that cannot be built then (the journal refusing its opening writes) leaves the table taking
   * nothing until a start, which opens the journalled rule set: answered `restart-needed` with its
   * words (`configRefusal.switchNeedsRestart`), not thrown. Without a `ruleSwitch` (no table behind
   * these changes) it is `change`: in effect at the next start.
   */
  switchRuleSet(
    key: 'profile' | 'profileOptions',
    after: unknown,
    by: ShoeAuthority,
  ): { ok: true; status: 'switched' | 'restart'; seq: number } | { ok: true; status: 'restart-needed'; seq: number; say: Said } | ChangeRefusal {
    const sw = this.deps.ruleSwitch;
    const { signature, ...authority } = by;
    if (!sw) {
      const r = this.change(key, after, authority);
      return r.ok ? { ok: true, status: 'restart', seq: r.seq } : r;
    }
    const people = twoPeople(by);
    if (!people.ok) return people;
    const { who, witness, authorisation } = people;
    const v = this.validate(key, after, authorisation);
    if (!v.ok) return v;
    const next = this.withRuleSet(key, v.value, authorisation, undefined);
    const refused = sw.refusal(next);
    if (refused) return refusal(refused.say, refused.wait ? { wait: true } : {});
    const before = this.pendingValue(key);
    const r = this.journalSwitch(next, {
      who,
      witness,
      authorisation,
      key,
      before: before ?? null,
      after: v.value ?? null,
      ...(by.order !== undefined ? { order: by.order } : {}),
      ...(signature ? { signature } : {}),
      at: 'shoe' as const,
    });
    this.deps.log.info({ key, before, after: v.value, who, witness, authorisation, order: by.order, seq: r.entry.seq }, 'rule set switched at the shoe change');
    // Every rule-set change journalled for the next start is in this one (nextStart): in effect now.
    const config = this.deps.config;
    config.profile = next.profile;
    config.profileOptions = next.profileOptions;
    if (next.profileAuthorisation) {
      config.profileAuthorisation = next.profileAuthorisation;
      config.profileAuthorisationEffective = next.profileAuthorisationEffective ?? macauDay(Date.parse(r.entry.ts));
    } else {
      delete config.profileAuthorisation;
      delete config.profileAuthorisationEffective;
    }
    this.atRestart.splice(0);
    try {
      sw.switchTo(config);
    } catch (err) {
      // Journalled, so in force from the next start; the table, its game not built, takes nothing
      // until then (switching-table.ts). The truth is a restart needed, not a failure.
      this.deps.log.error({ err, key, seq: r.entry.seq }, 'rule set switched in the journal but its game could not be built: a restart is needed');
      this.deps.faults?.raise('restart-needed');
      return { ok: true, status: 'restart-needed', seq: r.entry.seq, say: said('switchNeedsRestart', { game: config.game, profile: config.profile }) };
    }
    this.deps.onApplied?.(key);
    return { ok: true, status: 'switched', seq: r.entry.seq };
  }

  /**
   * A switch's `config.change` and the `rules.record` of the rule set it puts in force (`next`,
   * its authorisation's day set here), in one transaction: both or neither (two appends, a journal
   * refusing the second left a change with no record). The record is made inside the transaction
   * from the change as written: it names the change by its seq and takes its day from its ts (in
   * effect from the day it was journalled, as a start reads it: restoreRestartChanges). Predicted
   * before the transaction, another process's write (the accounts' command line) or midnight
   * between the two made it name another entry or day.
   */
  private journalSwitch(next: TableConfig, change: Extract<NewEntry, { type: 'config.change' }>['payload']): { entry: JournalEntry } {
    const [r] = this.deps.ledger.appendMany([{ type: 'config.change', payload: change }], ([written]) => {
      if (!written) throw new Error('unreachable');
      if (next.profileAuthorisation) next.profileAuthorisationEffective = macauDay(Date.parse(written.entry.ts));
      return [{ type: 'rules.record', payload: recordPayload(ruleRecordOf(next), { changeSeq: written.entry.seq }) }];
    });
    if (!r) throw new Error('unreachable');
    return r;
  }

  /** Changes journalled in this run that take effect at the next start. */
  forRestart(): QueuedChange[] {
    return this.atRestart.map((q) => ({ ...q }));
  }

  /** The table's currency as its amounts are in it: ISO 4217 code and minor-unit exponent (as its heartbeat names it). */
  currency(): { code: string; exponent: number } {
    return { code: this.deps.config.currency, exponent: minorDigits(this.deps.config.currency) };
  }

  /**
   * Whether a change would be accepted, without journalling anything: service mode asks before it
   * makes a second person come and confirm a value that would be refused.
   */
  check(key: string, after: unknown, authorisation = ''): { ok: true; value: unknown } | ChangeRefusal {
    if (!(CHANGEABLE_KEYS as readonly string[]).includes(key)) {
      return refusal(said('notChangeable', { setting: key, changeable: CHANGEABLE_KEYS.join(', ') }));
    }
    return this.validate(key as ChangeableKey, after, authorisation);
  }

  /** Changes journalled but waiting for the round in play to end. */
  queued(): QueuedChange[] {
    return this.queue.map((q) => ({ ...q }));
  }

  /** Applies the queued changes if no round is in play (called on every change of the rounds). */
  applyQueued(): void {
    if (this.queue.length === 0 || !this.deps.betweenRounds()) return;
    for (const q of this.queue.splice(0)) {
      this.assign(q.key, q.after);
      this.deps.log.info({ key: q.key, seq: q.seq }, 'configuration change in effect');
      this.deps.onApplied?.(q.key);
    }
  }

  /**
   * The configuration the next start opens under, as far as its rule set goes: the running one
   * with this run's changes of the profile and its options over it (the reference of the last).
   */
  private nextStart(): TableConfig {
    let c = this.deps.config;
    for (const q of this.atRestart) c = { ...c, [q.key]: q.after, profileAuthorisation: q.authorisation || undefined };
    return c;
  }

  /** The configuration under a changed profile or options and the change's reference, in effect from its day (else today). */
  private withRuleSet(key: ChangeableKey, value: unknown, authorisation: string, effective: string | undefined): TableConfig {
    const reference = authorisation.trim();
    const { profileAuthorisation: _r, profileAuthorisationEffective: _e, ...rest } = this.nextStart();
    void _r;
    void _e;
    return TableConfig.parse({
      ...rest,
      [key]: value,
      ...(reference ? { profileAuthorisation: reference, profileAuthorisationEffective: effective ?? macauDay(Date.now()) } : {}),
    });
  }

  /** The running rule set's digest when it runs under `reference` (it is on record since the table opened). */
  private runningDigest(reference: string): string[] {
    return this.deps.config.profileAuthorisation === reference ? [ruleRecordOf(this.deps.config).digest] : [];
  }

  private current(key: ChangeableKey): unknown {
    return this.deps.config[key];
  }

  /** The value a new change starts from: the last queued one (or journalled for the next start), else the running one. */
  private pendingValue(key: ChangeableKey): unknown {
    const q = [...this.queue, ...this.atRestart].reverse().find((c) => c.key === key);
    return q ? q.after : this.current(key);
  }

  private validate(key: ChangeableKey, after: unknown, authorisation: string): { ok: true; value: unknown } | ChangeRefusal {
    if (key === 'creditLimit' && !creditLimitValue(after)) {
      // Said before the schema: null would be the default (no limit but SAS's), and a schema's issue list is no words for a person.
      const value = typeof after === 'string' ? JSON.stringify(after) : String(JSON.stringify(after) ?? after);
      return refusal(said('creditLimitNotAmount', { value: value.slice(0, 40), max: SAS_CREDIT_MAX, currency: this.deps.config.currency }));
    }
    const restart = RESTART_KEYS.has(key);
    // A rule set's change is checked against the rule set the next start opens under.
    const base = restart ? this.nextStart() : this.deps.config;
    // null in the journal (JSON has no undefined) is an optional setting back at its default.
    const candidate: Record<string, unknown> = { ...base, [key]: after === null ? undefined : after };
    if (restart) {
      const refused = ruleSetRefusal(base, key, after, authorisation);
      if (refused) return refused;
      candidate.profileAuthorisation = authorisation.trim() || undefined;
    }
    const parsed = TableConfig.safeParse(candidate);
    if (!parsed.success) return refusal(limitBreakOf(candidate) ?? said('notValid', { setting: key, issues: describeIssues(parsed.error.issues) }));
    let bets = typeof this.deps.bets === 'function' ? this.deps.bets() : this.deps.bets;
    if (restart) {
      // A reference is given for one rule set: another needs a new one (Art. 21 n.1, Art. 19).
      const record = ruleRecordOf(parsed.data);
      const reference = record.reference;
      const same = reference ? sameReferenceSaid(record, [...digestsOfReference(this.deps.ledger, reference), ...this.runningDigest(reference)]) : null;
      if (same) return refusal(same);
      // The bets the table will offer under it: a limit of a bet the new rules do not have is refused.
      bets = tableGame(parsed.data.game, parsed.data.profile, tableOptions(parsed.data)).rules.bets;
    }
    const unknown = unknownBetTypes(parsed.data, bets);
    if (unknown.length > 0) return refusal(said('unknownBets', { bets: unknown.join(', '), offered: bets.join(', ') }));
    // Limits the text fixes (Portugal rules 14, 37; war's seats) are part of the configuration's own check.
    return { ok: true, value: parsed.data[key] };
  }

  /**
   * Writes the value into the running configuration. Objects are updated in place: the services
   * built at start hold the configuration's objects themselves.
   */
  private assign(key: ChangeableKey, value: unknown): void {
    const config = this.deps.config as Record<string, unknown>;
    const old = config[key];
    if (isPlainObject(old) && isPlainObject(value) && key === 'timings') {
      for (const k of Object.keys(old)) delete old[k];
      Object.assign(old, value);
    } else if (value === undefined) {
      delete config[key];
    } else {
      config[key] = value;
    }
  }
}

/**
 * Why a change's effective day is refused (null: it is not): a day is the rule set's authorisation's
 * (rule options only), written YYYY-MM-DD, a day of the calendar.
 */
function effectiveRefusal(key: ChangeableKey, effective: string | undefined): Said | null {
  if (effective === undefined) return null;
  if (!RESTART_KEYS.has(key)) return said('effectiveNotRules', { setting: key });
  const d = new Date(`${effective}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(effective) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== effective)
    return said('effectiveNotADay', { day: effective });
  return null;
}

/**
 * Why a change of the rule profile or its options is refused before the configuration's own
 * check (null: it is not): a profile of the table's own game that a text governs, the options an
 * object, and the engine's guard over the options under the profile (each refusal with its
 * article: a jackpot program a profile has no jackpot for, a side bet it does not offer).
 */
function ruleSetRefusal(base: TableConfig, key: ChangeableKey, after: unknown, authorisation: string): ChangeRefusal | null {
  let profile = base.profile;
  let options = base.profileOptions;
  if (key === 'profile') {
    if (typeof after !== 'string') return refusal(said('profileNotAName'));
    const game = base.game;
    const other = GAME_KINDS.filter((g) => g !== game && knownProfiles(g).includes(after) && !knownProfiles(game).includes(after));
    if (other.length > 0) return refusal(said('profileOfOtherGame', { profile: after, games: other.join(', '), game }));
    if (!knownProfiles(game).includes(after)) return refusal(said('profileUnknown', { game, profile: after, profiles: knownProfiles(game).join(', ') }));
    if (after === base.profile) return refusal(said('profileSame', { game, profile: after }));
    profile = after;
  } else {
    if (typeof after !== 'object' || after === null || Array.isArray(after)) return refusal(said('optionsNotObject'));
    if (Object.hasOwn(after, 'authorisation')) return refusal(said('optionsAuthorisation'));
    options = after as Record<string, unknown>;
  }
  // The engine's guard, as for the configuration file and `--set`: each refusal names its article.
  const rules = checkTableOptions(base.game, profile, tableOptions({ profileOptions: options, profileAuthorisation: authorisation.trim() || undefined }), true);
  const first = rules[0];
  if (!first) return null;
  // The log's English names every refusal; a screen says the first, in its own words, with its article.
  const what = key === 'profile' ? `the rule profile ${profile} is` : 'the rule options are';
  return { ok: false, reason: `${what} refused: ${rules.map(describeRuleRefusal).join('; ')}`, say: ruleSaid(first, base.currency), rules };
}

/**
 * The first limit a configuration breaks under its own rules (the text's spread, seats, the cap per
 * round), said with its key; null where it breaks none or is not whole enough to check (its own
 * problems are then said as they are).
 */
function limitBreakOf(candidate: Record<string, unknown>): Said | null {
  try {
    const c = candidate as TableConfig;
    const broken = limitBreaks(tableGame(c.game, c.profile, tableOptions(c)).rules.limitRules, c)[0];
    return broken ? limitSaid(broken, { game: c.game, profile: c.profile }, c.currency) : null;
  } catch {
    return null;
  }
}

/** A credit limit a table can hold: whole minor units, at least one, at most what SAS 0x1A can say. */
function creditLimitValue(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= SAS_CREDIT_MAX;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Before the table is built: the journalled changes that take effect at a start (the rule profile
 * and its options, each with its authorisation reference) applied in their order over the file's
 * configuration, so the game opens under them, from the day the change gave (else the day it was
 * journalled); one whose day has not come is not applied yet. A change that no longer passes the
 * guard (another game or profile in the file) is skipped and logged. Returns how many were applied.
 */
export function restoreRestartChanges(ledger: Ledger, config: TableConfig, log: Logger): number {
  let applied = 0;
  const today = macauDay(Date.now());
  for (const c of configChanges(ledger)) {
    if (c.key !== 'profileOptions' && c.key !== 'profile') continue;
    // Authorised from a later day: the rules in force stay until a start on or after it.
    if (c.effective && c.effective > today) {
      log.warn({ seq: c.seq, key: c.key, effective: c.effective }, 'a journalled rule set takes effect on a later day: not applied at this start');
      continue;
    }
    const authorisation = c.authorisation.trim();
    const change = c.key === 'profile' ? { profile: c.after } : { profileOptions: c.after ?? {} };
    const candidate = { ...config, ...change, profileAuthorisation: authorisation || undefined };
    const parsed = TableConfig.safeParse(candidate);
    if (!parsed.success) {
      log.error({ seq: c.seq, key: c.key, reason: describeIssues(parsed.error.issues) }, 'a journalled rule set does not fit this table any more: skipped');
      continue;
    }
    config.profile = parsed.data.profile;
    config.profileOptions = parsed.data.profileOptions;
    // The change's reference is the rule set's from the day it was journalled (its effective date).
    if (parsed.data.profileAuthorisation) {
      config.profileAuthorisation = parsed.data.profileAuthorisation;
      config.profileAuthorisationEffective = c.effective ?? macauDay(Date.parse(c.ts));
    } else {
      delete config.profileAuthorisation;
      delete config.profileAuthorisationEffective;
    }
    applied++;
  }
  return applied;
}
