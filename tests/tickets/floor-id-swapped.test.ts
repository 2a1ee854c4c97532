// floor-validation.json holding another table's id, well formed (written into the data folder while
// the kiosk was off: a copied folder, a restored backup of another table, a hand edit). Until 8
// December the file was believed until the upstream answered: offline, the table numbered its
// tickets under the other table's id, and a ticket whose sequence that table had also printed
// carried the same 18 digits: A's 700.00 paper paid as B's 100.00, B's own player then refused
// `already-paid`. The id the upstream assigned is now journalled (`ticket.machine-id`, before it is
// used) and read from the journal; the file is not read (docs/security.md, "What the table keeps
// in its data folder"). Against the upstream on PGlite: offline after the swap, A numbers under
// its own id, its tickets are its own, and B's player is paid B's amount.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { TicketMachineId } from '../../host/floor/ticket-machine-id.js';
import { keepingFloorId } from '../../host/tickets/floor-id.js';
import { upstreamAnswering } from '../../host/tickets/upstream-test-kit.js';
import { Ledger } from '../../ledger/ledger.js';
import { entriesOfTypes, readBatch } from '../../ledger/index.js';
import { enrolTerminal, migrateUpstream, openPglite, type Db } from '../../upstream/index.js';
import { ingest } from '../../upstream/ingest.js';
import { confirmIn, machineIdOf, redeem, registerIssue, registerPrinted } from '../../upstream/tickets.js';
import { requestId, ticket } from './kit.js';

/** The file an older version kept the upstream's answer in, and believed at the next start. */
const FLOOR_VALIDATION_FILE = 'floor-validation.json';

describe('floor-validation.json holding another table’s id', () => {
  let db: Db;
  let dir: string;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    for (const t of ['A', 'B', 'C']) await enrolTerminal(db, t);
    dir = mkdtempSync(path.join(os.tmpdir(), 'floor-id-swapped-'));
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const log = pino({ level: 'silent' });
  const config = simulatedTableConfig();
  /** Table A's upstream: the real register's answer to "which id is A's", or out of reach. */
  const upstreamOfA = (ledger: Ledger, reachable: boolean) =>
    keepingFloorId(
      reachable
        ? { ...upstreamAnswering(null), machineId: async (proposed?: number) => ({ ok: true, machineId: await machineIdOf(db, 'A', proposed) }) }
        : upstreamAnswering(null),
      ledger,
      log,
    );
  const idAtStart = (ledger: Ledger, reachable: boolean) =>
    new TicketMachineId({ config, ledger, log, authority: upstreamOfA(ledger, reachable) }).forCashOut();
  const file = () => path.join(dir, FLOOR_VALIDATION_FILE);
  const redeemAtC = (validation: string, id = requestId()) => redeem(db, 'C', { requestId: id, validation, station: 2, currency: 'MOP', limit: 10_000_000 });
  const assignments = (ledger: Ledger) => [...entriesOfTypes(ledger, ['ticket.machine-id'])].map((e) => (JSON.parse(e.body) as { payload: unknown }).payload);

  it('is not believed: offline, A numbers under the id its journal recorded; no paper carries B’s number, and B’s player is paid B’s amount', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'A' });
    try {
      // A ran online once: the upstream gave it its id, journalled before it was used.
      const a = await idAtStart(ledger, true);
      assert.ok(a !== undefined);
      assert.deepEqual(assignments(ledger), [{ machineId: a, authority: 'upstream' }]);
      const b = await machineIdOf(db, 'B');
      assert.notEqual(a, b);
      // B printed its sequence 2 (100.00); A's tickets will be its sequences 1 and 2.
      const bOwn = ticket(b, 2, 10_000);
      assert.deepEqual(await registerIssue(db, 'B', bOwn), { ok: true });
      assert.deepEqual(await registerPrinted(db, 'B', bOwn), { ok: true });

      // While A was off, B's id was written into A's data folder, well formed, as an older version kept it.
      writeFileSync(file(), JSON.stringify({ v: 1, machineId: b }));
      assert.equal(await idAtStart(ledger, false), a, 'offline, A numbers under its journal’s id, not the file’s');

      // A's offline tickets are its own: the upstream takes their words, and no number is B's.
      const a1 = ticket(a, 1, 50_000);
      const a2 = ticket(a, 2, 70_000);
      for (const t of [a1, a2]) {
        assert.deepEqual(await registerIssue(db, 'A', t), { ok: true });
        assert.deepEqual(await registerPrinted(db, 'A', t), { ok: true });
      }
      assert.notEqual(a2.validation, bOwn.validation, 'A’s sequence 2 is not B’s number');
      const alarms = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alarms WHERE terminal_id = 'A' AND kind = 'ticket-foreign-issuer'`);
      assert.equal(alarms.rows[0]?.n ?? 0, 0, 'no ticket of another issuer');
      // A's 700.00 paper is paid as itself; B's player's 100.00 as B's, once each.
      for (const [t, amount] of [
        [a2, 70_000],
        [bOwn, 10_000],
      ] as const) {
        const stacked = requestId();
        const paid = await redeemAtC(t.validation, stacked);
        assert.equal(paid.kind === 'approved' ? paid.amount : paid.reason, amount);
        assert.deepEqual(await confirmIn(db, 'C', stacked, { validation: t.validation, station: 2 }), { ok: true });
      }

      // The upstream back: its id for A, the one journalled, is not journalled again; the file is left as found.
      assert.equal(await idAtStart(ledger, true), a);
      assert.equal(assignments(ledger).length, 1, 'an answer the journal already holds adds no entry');
      assert.deepEqual(JSON.parse(readFileSync(file(), 'utf8')), { v: 1, machineId: b }, 'the table neither reads nor writes the file');
      assert.equal(await idAtStart(ledger, false), a);

      // The entry reaches the upstream with the journal: its ingest takes the new type.
      const batch = readBatch(ledger, 0, 1_000, 1_000_000);
      const r = await ingest(db, { terminalId: 'A', prevHash: batch.prevHash, entries: batch.entries });
      assert.deepEqual(r.status === 200 ? r.ackedSeq : r, ledger.headOf().seq, 'stored to the head');
      const kept = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal WHERE terminal_id = 'A' AND type = 'ticket.machine-id'`);
      assert.equal(kept.rows[0]?.n, 1);
    } finally {
      ledger.close();
    }
  });
});
