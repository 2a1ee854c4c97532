// A table's first currency (migration 20's meters per currency): every meter delta it journalled
// before naming one was projected with no currency, and all of them move to the one it names.
// `moveMeters` found them by reading every entry of the table's journal back, in the heartbeat's
// transaction: on PGlite 10,000 entries took 5.4 s and 20,000 11.3 s (0.55 ms an entry, measured on
// this machine), the whole upstream waiting on its one connection meanwhile, for a table (an older
// kiosk release) that ran weeks before it named one. They are every row of its projection held
// with no currency, so those rows are moved as they stand: the journal is not read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal, migrateUpstream, openPglite, type Sql } from '../../upstream/index.js';
import { moveMeters } from '../../upstream/ingest/meters-currency.js';

const N = 200;
const body = `'{"seq":' || i || ',"type":"bill.credit","payload":{"station":1,"amount":100},"meters":[["table","totalIn",100],["station:1","totalIn",100],["table","billsIn.100",1]]}'`;

describe("a table's first currency", () => {
  it('takes the meters it held with none as they stand, reading none of its journal', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db);
      for (const t of ['T1', 'T2']) {
        await enrolTerminal(db, t, false);
        await db.query(
          `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
           SELECT $1, i, 'bill.credit', now(), 'c', 'p', 'h' || i, ${body}, (${body})::jsonb FROM generate_series(1, ${N}) i`,
          [t],
        );
        await db.query(
          `INSERT INTO meters (terminal_id, code, exponent, scope, name, value) VALUES
             ($1, '', -1, 'table', 'totalIn', ${N * 100}), ($1, '', -1, 'station:1', 'totalIn', ${N * 100}), ($1, '', -1, 'table', 'billsIn.100', ${N})`,
          [t],
        );
      }
      const asked: string[] = [];
      await db.transaction((tx) => {
        const seen: Sql = {
          query: (text, params) => {
            asked.push(text);
            return tx.query(text, params);
          },
          exec: (text) => {
            asked.push(text);
            return tx.exec(text);
          },
        };
        return moveMeters(seen, 'T1', 1, null, { code: 'MOP', exponent: 2 });
      });
      const held = await db.query<{ terminal_id: string; code: string; exponent: number; scope: string; name: string; value: string }>(
        'SELECT terminal_id, code, exponent, scope, name, value::text AS value FROM meters ORDER BY terminal_id, code, scope, name',
      );
      assert.deepEqual(
        held.rows.map((r) => [r.terminal_id, r.code, Number(r.exponent), r.scope, r.name, r.value]),
        [
          ['T1', 'MOP', 2, 'station:1', 'totalIn', String(N * 100)],
          ['T1', 'MOP', 2, 'table', 'billsIn.100', String(N)],
          ['T1', 'MOP', 2, 'table', 'totalIn', String(N * 100)],
          ['T2', '', -1, 'station:1', 'totalIn', String(N * 100)],
          ['T2', '', -1, 'table', 'billsIn.100', String(N)],
          ['T2', '', -1, 'table', 'totalIn', String(N * 100)],
        ],
      );
      assert.deepEqual(
        asked.filter((q) => /\bjournal\b/.test(q)),
        [],
        'the journal is not read back',
      );
    } finally {
      await db.close();
    }
  });
});
