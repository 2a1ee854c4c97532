// What the upstream alarm tests share: an upstream on each database with one enrolled table (T1)
// whose ledger, in memory, appends through the ledger's own code and syncs to it; and the alarms
// the upstream raised, read back by kind.
import { after, before } from 'node:test';
import { Ledger, SyncClient, type Credentials, type NewEntry } from '../../ledger/index.js';
import { enrolTerminal, startUpstream, type Db } from '../../upstream/index.js';
import { openDatabase, type DATABASES, type OpenDatabase } from '../sync/upstream-databases.js';

export interface RaisedAlarm {
  kind: string;
  terminal: string | null;
  detail: Record<string, unknown>;
}

/** The alarms of these kinds raised after alarm `after`, oldest first. */
export async function raisedAlarms(db: Db, kinds: readonly string[], after = 0): Promise<RaisedAlarm[]> {
  const r = await db.query<{ kind: string; terminal_id: string | null; detail: Record<string, unknown> }>(
    'SELECT kind, terminal_id, detail FROM alarms WHERE kind = ANY($1::text[]) AND id > $2 ORDER BY id',
    [[...kinds], after],
  );
  return r.rows.map((x) => ({ kind: x.kind, terminal: x.terminal_id, detail: x.detail }));
}

/** The newest alarm's id, 0 with none. */
export async function lastAlarmId(db: Db): Promise<number> {
  const r = await db.query<{ id: number | null }>('SELECT max(id)::int AS id FROM alarms');
  return r.rows[0]?.id ?? 0;
}

/**
 * Call inside a `describe`: opens the upstream before its tests and closes it after. `journal`
 * appends the entries to T1's ledger, syncs until nothing is left, and gives their seqs and the
 * alarms of `kinds` they raised.
 */
export function alarmRig(database: (typeof DATABASES)[number], kinds: readonly string[]) {
  let opened: OpenDatabase | undefined;
  let up: Awaited<ReturnType<typeof startUpstream>> | undefined;
  let ledger: Ledger | undefined;
  let client: SyncClient | undefined;
  before(async () => {
    opened = await openDatabase(database);
    up = await startUpstream({ db: opened.db });
    const cred: Credentials = { ...(await enrolTerminal(opened.db, 'T1', false)), upstream: up.url };
    ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
    client = new SyncClient(ledger, { url: up.url, credentials: cred });
  });
  after(async () => {
    ledger?.close();
    await up?.close();
    await opened?.close();
  });
  return {
    async journal(entries: readonly NewEntry[]): Promise<{ seqs: number[]; alarms: RaisedAlarm[] }> {
      if (!opened || !ledger || !client) throw new Error('the rig opens in `before`: journal from a test');
      const from = await lastAlarmId(opened.db);
      const seqs = ledger.appendMany(entries).map((r) => r.entry.seq);
      while ((await client.syncOnce()) === 'sent');
      return { seqs, alarms: await raisedAlarms(opened.db, kinds, from) };
    },
  };
}
