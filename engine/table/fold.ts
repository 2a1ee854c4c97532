import { canonicalJson } from '../canonical-json.js';
import type { JournalRecord } from './effects.js';
import type { GameDefinition } from './game.js';
import { TableInput } from './inputs.js';
import type { TableParams, TableState } from './state.js';
import { initialTable, step } from './step.js';

/**
 * One journal entry as the fold reads it: a table input with the number of entries its step
 * wrote after it (in the same transaction), or any other entry, with the station credits it
 * moved (a note credited, a cash-out, a round voided by the host's recovery…).
 */
export type JournalItem =
  | { readonly kind: 'input'; readonly seq: number; readonly input: unknown; readonly effects: number }
  | {
      readonly kind: 'entry';
      readonly seq: number;
      readonly record: { readonly type: string; readonly txId?: string | null; readonly payload: unknown };
      /** [station, credit after] for every station whose credit the entry moved. */
      readonly credits: readonly (readonly [number, number])[];
    };

export interface Folded<S, R> {
  /** The table as the journal leaves it (as far as the fold got, if it stopped on a problem). */
  readonly state: TableState<S, R>;
  /** Whether the table was opened under this game's identity and everything since folded through it. */
  readonly opened: boolean;
  readonly inputs: number;
  /** Why the fold stopped: a journalled input it cannot read, one `step` refuses, or an entry `step` does not re-derive. */
  readonly problems: readonly string[];
  /** Entries another program wrote whose bytes differ from this one's and whose facts and money agree. */
  readonly byFacts: number;
  /** Inputs another program took that this one refuses, passed over because they journalled nothing. */
  readonly skippedInputs: number;
}

/** Who wrote the journal, for a fold that may read an earlier build's entries (docs/ledger.md, "Upgrades"). */
export interface FoldPrograms {
  /**
   * The program folding (its hash, as `power.reset` names it). Entries this program wrote are
   * compared byte for byte; another program's by their facts and money. Absent: every entry byte
   * for byte (the tests' oracle, an inspector's replay).
   */
  readonly program?: string;
  /** The program that wrote the entries before the first `power.reset` among them (default: unknown). */
  readonly writtenBy?: string | null;
}

/**
 * What may differ between builds in an entry the table writes: the words and citations (the
 * article a line or a correction cites, a choice's authorisation, the text of a detail or a
 * reason). Everything else is a fact and must agree.
 */
const WORDING = new Set(['rule', 'article', 'choices', 'authorisation', 'detail', 'reason']);

/**
 * Whether an entry another program wrote states the same facts as the one this program's step
 * writes: every member of the journalled entry but its wording is there and agrees, at every
 * depth, arrays element for element; a member only this program writes is one an earlier build
 * did not (a round's id on a hold in its results), and does not count against it.
 */
function factsAgree(mine: unknown, journalled: unknown): boolean {
  if (Array.isArray(journalled)) return Array.isArray(mine) && mine.length === journalled.length && journalled.every((v, i) => factsAgree(mine[i], v));
  if (journalled !== null && typeof journalled === 'object') {
    if (mine === null || typeof mine !== 'object' || Array.isArray(mine)) return false;
    const m = mine as Readonly<Record<string, unknown>>;
    return Object.entries(journalled).every(([k, v]) => WORDING.has(k) || (k in m && factsAgree(m[k], v)));
  }
  return mine === journalled;
}

function programOf(payload: unknown): string | null {
  if (payload === null || typeof payload !== 'object' || !('programHash' in payload)) return null;
  return typeof payload.programHash === 'string' ? payload.programHash : null;
}

/**
 * Recovery, an inspector's replay and the tests' check that the journal reproduces the live
 * table: `step` folded over the journalled inputs, from the first. Each input's step must write
 * exactly the entries journalled after it, so a journal this code did not write (or wrote
 * under other rules) is caught, not silently reinterpreted. Entries the table did not write move
 * only credits, and reach the state as `credit` inputs.
 *
 * An `open` input starts the table afresh (credits kept): the journal of a table opened under
 * another game or profile is not folded through this one.
 *
 * Across builds (`programs`): an entry another program wrote (an earlier build's, as the newest
 * `power.reset` before it names its program) may word its facts otherwise — a line citing
 * another article, a hold without a field added since — and is read by its facts: every member
 * but the wording must agree, and the credits its input's entries recorded must be the ones this
 * step derives. Its count, order, types and transaction ids are facts too. A command that
 * program took and this one refuses is passed over when it journalled nothing.
 */
export function foldJournal<S, R>(
  items: Iterable<JournalItem>,
  game: GameDefinition<S, R>,
  params: TableParams,
  /**
   * Where the fold of the entries before `items` left the table (a checkpoint's state, folded
   * under this game's identity and standing between two of the table's transactions); default:
   * the table before its first entry.
   */
  from?: { state: TableState<S, R>; opened: boolean },
  programs: FoldPrograms = {},
): Folded<S, R> {
  let state = from ? from.state : initialTable(params, game);
  let opened = from ? from.opened : false;
  let inputs = 0;
  let byFacts = 0;
  let skippedInputs = 0;
  /** The program that wrote the entries being read: the one the newest power reset named. */
  let writer = programs.writtenBy ?? null;
  const exact = () => programs.program === undefined || writer === programs.program;
  /** The entries the last folded input must have written next, in order. */
  let expected: JournalRecord[] = [];
  /** The credits another program's entries of the last input recorded, to be this program's once they are all read. */
  const recorded = new Map<number, number>();
  /** Entries of an input journalled under another identity: they move credits only. */
  let foreign = 0;
  const problem = (p: string): Folded<S, R> => ({ state, opened, inputs, problems: [p], byFacts, skippedInputs });
  const credit = (credits: readonly (readonly [number, number])[]) => {
    for (const [station, balance] of credits) state = step(state, { kind: 'credit', station, balance }, game).state;
  };

  for (const item of items) {
    if (item.kind === 'input') {
      if (expected.length > 0) return problem(`entry ${item.seq}: the input before it journalled ${expected.length} entr(ies) fewer than its step writes`);
      const parsed = TableInput.safeParse(item.input);
      if (!parsed.success) return problem(`entry ${item.seq}: not a table input this version reads (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      const input = parsed.data;
      if (input.kind === 'open') opened = input.game === game.identity;
      if (!opened) {
        foreign = item.effects;
        continue;
      }
      const r = step(state, input, game);
      // A command an earlier build took and this one refuses (a rule tightened) that journalled
      // nothing moved no money: passed over, as this build would have refused it.
      if (r.refused && !exact() && item.effects === 0) {
        skippedInputs++;
        continue;
      }
      if (r.refused) return problem(`entry ${item.seq}: the journalled ${input.kind} is refused on replay: ${r.refused.reason}`);
      if (r.journal.length !== item.effects)
        return problem(`entry ${item.seq}: ${input.kind} wrote ${item.effects} entr(ies), its step writes ${r.journal.length}`);
      state = r.state;
      expected = [...r.journal];
      inputs++;
      continue;
    }
    const want = expected.shift();
    if (want) {
      if (!sameRecord(want, item.record)) {
        if (exact()) return problem(`entry ${item.seq}: journalled ${item.record.type} differs from what its input's step writes (${want.type})`);
        if (!sameFacts(want, item.record))
          return problem(`entry ${item.seq}: journalled ${item.record.type} (written by another program) and what its input's step writes: their facts differ`);
        byFacts++;
      }
      const differs = exact() ? null : takeRecordedCredits(recorded, item, state.credits, expected.length === 0);
      if (differs) return problem(differs);
      continue;
    }
    if (item.record.type === 'power.reset') writer = programOf(item.record.payload);
    if (foreign > 0) foreign--;
    credit(item.credits);
  }
  if (expected.length > 0) return problem(`the last input journalled ${expected.length} entr(ies) fewer than its step writes`);
  return { state, opened, inputs, problems: [], byFacts, skippedInputs };
}

/**
 * Another program's money is this one's: the credits its entries of an input left are the ones
 * this step derives, checked (and forgotten) once the input's last entry is read. A difference is
 * the fold's problem.
 */
function takeRecordedCredits(
  recorded: Map<number, number>,
  item: Extract<JournalItem, { kind: 'entry' }>,
  credits: Readonly<Record<number, number>>,
  last: boolean,
): string | null {
  for (const [station, after] of item.credits) recorded.set(station, after);
  if (!last) return null;
  for (const [station, after] of recorded)
    if ((credits[station] ?? 0) !== after)
      return `entry ${item.seq}: the credit of station ${station} is ${after} in the journal, ${credits[station] ?? 0} on replay`;
  recorded.clear();
  return null;
}

type Recorded = { readonly type: string; readonly txId?: string | null; readonly payload: unknown };

function sameRecord(want: JournalRecord, got: Recorded): boolean {
  const wantTx = 'txId' in want ? want.txId : null;
  return want.type === got.type && wantTx === (got.txId ?? null) && canonicalJson(want.payload) === canonicalJson(got.payload);
}

function sameFacts(want: JournalRecord, got: Recorded): boolean {
  const wantTx = 'txId' in want ? want.txId : null;
  return want.type === got.type && wantTx === (got.txId ?? null) && factsAgree(JSON.parse(canonicalJson(want.payload)), got.payload);
}
