// Test-only: a table's journal as its runtime writes it (the engine's own step, each record a
// ledger entry), and an upstream with a back office that a ledger of those entries synced to.
// What the gaming day's report reads of a real table's rounds, not of entries written by hand.
import assert from 'node:assert/strict';
import type { JournalRecord } from '../../engine/table/effects.js';
import type { GameDefinition } from '../../engine/table/game.js';
import type { TableInput } from '../../engine/table/inputs.js';
import type { TableParams, TableState } from '../../engine/table/state.js';
import { initialTable, step } from '../../engine/table/step.js';
import { Ledger, SyncClient } from '../../ledger/index.js';
import type { NewEntry } from '../../ledger/entries.js';
import { billCredit } from '../../ledger/fixtures.js';
import { enrolTerminal, putUser, startUpstream } from '../../upstream/index.js';
import { signInHttp } from './backoffice-http.js';
import { openDatabase } from './upstream-databases.js';

/** A table stepped input by input; `entries` its journal so far, each station's notes first. */
export interface EngineTable<S, R> {
  feed(input: TableInput): void;
  readonly state: TableState<S, R>;
  readonly entries: NewEntry[];
}

/** An open table whose stations each have `credit` from a note (MOP). */
export function engineTable<S, R>(game: GameDefinition<S, R>, params: TableParams, credit: number): EngineTable<S, R> {
  let state = initialTable(params, game);
  const entries: NewEntry[] = [];
  const feed = (input: TableInput) => {
    const r = step(state, input, game);
    assert.ok(!r.refused, `${input.kind} refused: ${JSON.stringify(r.refused)}`);
    for (const e of r.journal as readonly JournalRecord[]) entries.push(e as NewEntry);
    state = r.state;
    for (const e of r.effects) if (e.type === 'next') feed({ kind: e.input, at: 0 } as TableInput);
  };
  feed({ kind: 'open', at: 1, params, game: game.identity });
  for (const { station } of params.stations) {
    entries.push(billCredit(station, credit, `note-${station}`, 'MOP'));
    feed({ kind: 'credit', station, balance: credit });
  }
  return {
    feed,
    entries,
    get state() {
      return state;
    },
  };
}

/** An upstream on PGlite that `entries` reached through a ledger of terminal `terminal` at `at`: its report routes, signed in as accounting. */
export async function syncedBackoffice(terminal: string, entries: readonly NewEntry[], at: Date) {
  const opened = await openDatabase('pglite');
  await putUser(opened.db, { name: 'cash', role: 'accounting', password: 'correct horse battery', by: 'test' }, { N: 2 ** 10, r: 8, p: 1 });
  const up = await startUpstream({ db: opened.db, backoffice: {} });
  const cred = await enrolTerminal(opened.db, terminal, false);
  const ledger = Ledger.open({ file: ':memory:', terminalId: terminal, clock: () => at });
  ledger.appendMany([...entries]);
  const client = new SyncClient(ledger, {
    url: up.url,
    credentials: { ...cred, upstream: up.url },
    heartbeat: { snapshot: () => ({ currency: { code: 'MOP', exponent: 2 } }) },
  });
  while ((await client.syncOnce()) === 'sent');
  const { cookie } = await signInHttp(up.url, 'cash', 'correct horse battery');
  return {
    /** GET /backoffice/api/reports/<route> of the gaming day `date`, as JSON. */
    get: async (route: string, date: string): Promise<unknown> =>
      (await fetch(`${up.url}/backoffice/api/reports/${route}?date=${date}`, { headers: { cookie } })).json(),
    async close() {
      ledger.close();
      await up.close();
      await opened.close();
    },
  };
}
