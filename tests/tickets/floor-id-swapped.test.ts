// floor-validation.json holding another table's id, well formed (written into the data folder while
// the kiosk was off: a copied folder, a restored backup of another table, a hand edit). The file is
// believed until the upstream answers (docs/security.md, "What the table keeps in its data
// folder"): the table numbers its tickets offline under that id. Against the upstream on PGlite:
// each such ticket's word is refused as another issuer's (`ticket-foreign-issuer`, an alarm); the
// paper is paid nowhere, unless the other table has printed the same sequence, whose number it then
// is: paid once, at that table's amount, wherever it is inserted first. Once the upstream answers,
// its id is the table's again and is kept in place of the swapped one.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { TicketMachineId } from '../../host/floor/ticket-machine-id.js';
import { FLOOR_VALIDATION_FILE, keepingFloorId } from '../../host/tickets/floor-id.js';
import { upstreamAnswering } from '../../host/tickets/upstream-test-kit.js';
import { Ledger } from '../../ledger/ledger.js';
import { enrolTerminal, migrateUpstream, openPglite, type Db } from '../../upstream/index.js';
import { confirmIn, machineIdOf, redeem, registerIssue, registerPrinted } from '../../upstream/tickets.js';
import { requestId, ticket } from './kit.js';

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
  const upstreamOfA = (reachable: boolean) =>
    keepingFloorId(
      reachable
        ? { ...upstreamAnswering(null), machineId: async (proposed?: number) => ({ ok: true, machineId: await machineIdOf(db, 'A', proposed) }) }
        : upstreamAnswering(null),
      dir,
      log,
    );
  const idAtStart = (ledger: Ledger, reachable: boolean) => new TicketMachineId({ config, ledger, log, authority: upstreamOfA(reachable) }).forCashOut();
  const file = () => path.join(dir, FLOOR_VALIDATION_FILE);
  const redeemAtC = (validation: string, id = requestId()) => redeem(db, 'C', { requestId: id, validation, station: 2, currency: 'MOP', limit: 10_000_000 });

  it('numbers offline under it; each ticket refused foreign-issuer and paid nowhere (or paid as the other table’s own same-numbered ticket); the upstream’s answer puts A’s id back', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'A' });
    try {
      // A ran online once: the upstream gave it its id, kept in the data folder.
      const a = await idAtStart(ledger, true);
      assert.ok(a !== undefined);
      const b = await machineIdOf(db, 'B');
      assert.notEqual(a, b);
      // B printed its sequence 2 (100.00); A's tickets will be its sequences 1 and 2.
      const bOwn = ticket(b, 2, 10_000);
      assert.deepEqual(await registerIssue(db, 'B', bOwn), { ok: true });
      assert.deepEqual(await registerPrinted(db, 'B', bOwn), { ok: true });

      // While A was off, B's id was written into A's file, well formed.
      writeFileSync(file(), JSON.stringify({ v: 1, machineId: b }));
      assert.equal(await idAtStart(ledger, false), b, 'offline, A numbers under the swapped id');

      // A's offline tickets under B's id: their words refused as another issuer's, an alarm each.
      const a1 = ticket(b, 1, 50_000);
      const a2 = ticket(b, 2, 70_000);
      for (const t of [a1, a2]) {
        const word = await registerIssue(db, 'A', t);
        assert.equal(word.ok ? 'ok' : word.error, 'foreign-issuer');
      }
      const alarms = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alarms WHERE terminal_id = 'A' AND kind = 'ticket-foreign-issuer'`);
      assert.ok((alarms.rows[0]?.n ?? 0) >= 1, 'alarmed');
      // Sequence 1: no table's ticket has that number: paid nowhere.
      const paid1 = await redeemAtC(a1.validation);
      assert.equal(paid1.kind === 'refused' ? paid1.reason : paid1.kind, 'unknown');
      // Sequence 2 is B's own number: A's 700.00 paper is paid as B's 100.00, once; B's player's is then refused.
      assert.equal(a2.validation, bOwn.validation, 'the same 18 digits');
      const stackedAtC = requestId();
      const paid2 = await redeemAtC(a2.validation, stackedAtC);
      assert.equal(paid2.kind === 'approved' ? paid2.amount : paid2.reason, 10_000, 'B’s ticket’s amount, not A’s');
      assert.deepEqual(await confirmIn(db, 'C', stackedAtC, { validation: a2.validation, station: 2 }), { ok: true });
      const bPlayer = await redeemAtC(bOwn.validation);
      assert.equal(bPlayer.kind === 'refused' ? bPlayer.reason : bPlayer.kind, 'already-paid', 'B’s player’s own paper refused');

      // The upstream back: its id for A wins, proposing the swapped one changes nothing, and it is kept in the file.
      assert.equal(await idAtStart(ledger, true), a);
      assert.deepEqual(JSON.parse(readFileSync(file(), 'utf8')), { v: 1, machineId: a });
      assert.equal(await idAtStart(ledger, false), a, 'the next offline start numbers under A’s own id');
    } finally {
      ledger.close();
    }
  });
});
