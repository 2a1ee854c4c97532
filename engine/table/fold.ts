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
): Folded<S, R> {
  let state = from ? from.state : initialTable(params, game);
  let opened = from ? from.opened : false;
  let inputs = 0;
  /** The entries the last folded input must have written next, in order. */
  let expected: JournalRecord[] = [];
  /** Entries of an input journalled under another identity: they move credits only. */
  let foreign = 0;
  const problem = (p: string): Folded<S, R> => ({ state, opened, inputs, problems: [p] });
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
      if (!sameRecord(want, item.record))
        return problem(`entry ${item.seq}: journalled ${item.record.type} differs from what its input's step writes (${want.type})`);
      continue;
    }
    if (foreign > 0) foreign--;
    credit(item.credits);
  }
  if (expected.length > 0) return problem(`the last input journalled ${expected.length} entr(ies) fewer than its step writes`);
  return { state, opened, inputs, problems: [] };
}

function sameRecord(want: JournalRecord, got: { readonly type: string; readonly txId?: string | null; readonly payload: unknown }): boolean {
  const wantTx = 'txId' in want ? want.txId : null;
  return want.type === got.type && wantTx === (got.txId ?? null) && canonicalJson(want.payload) === canonicalJson(got.payload);
}
