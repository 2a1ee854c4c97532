// Issue 47's "done when": 100 concurrent redemptions of 20 tickets across 5 table hosts against one
// upstream pay each ticket exactly once. Every ticket is inserted at all five tables at the same
// moment (five attempts each, 100 in flight together, through each table's guarded HTTP client);
// each approval is confirmed as its acceptor would stack it. Then the register must hold each
// ticket redeemed once, by the one attempt that was approved, the other four refused
// `pending-elsewhere` or `already-paid`. On PGlite (the default) and on a throwaway PostgreSQL
// cluster, where the 100 requests run on up to 10 connections at once and only the row lock orders them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RedeemAnswer } from '../../host/tickets/authority.js';
import { connectPg, migrateUpstream, openPglite, startLocalCluster, type Db, type LocalCluster } from '../../upstream/index.js';
import * as ticketTool from '../../cli/upstream/ticket.js';
import { printed, redemption, startFloor, type FloorTable } from './kit.js';

const TABLES = 5;
const TICKETS = 20;

async function campaign(db: Db): Promise<string[]> {
  const { up, tables } = await startFloor(db, TABLES);
  try {
    // Each table issues four of the twenty tickets.
    const tickets = [];
    for (let i = 0; i < TICKETS; i++) tickets.push(await printed(tables[i % TABLES] as FloorTable, 1_000 + i));
    const attempts = tickets.flatMap((t) => tables.map((table, k) => ({ t, table, request: redemption(t, 101 + k) })));
    assert.equal(attempts.length, 100);
    const answers: { t: (typeof tickets)[number]; table: FloorTable; answer: RedeemAnswer }[] = await Promise.all(
      attempts.map(async ({ t, table, request }) => {
        const answer = await table.authority.redeem(request);
        // Stacked and credited: confirmed at once, as the host does after journalling the credit.
        if (answer.kind === 'approved') assert.deepEqual(await table.authority.confirm(request.requestId, request), { ok: true });
        return { t, table, answer };
      }),
    );
    for (const t of tickets) {
      const mine = answers.filter((a) => a.t.validation === t.validation);
      const paid = mine.filter((a) => a.answer.kind === 'approved');
      assert.equal(paid.length, 1, `ticket ${t.validation} approved ${paid.length} times`);
      assert.equal(paid[0]?.answer.kind === 'approved' && paid[0].answer.amount, t.amount);
      const reasons = mine.flatMap((a) => (a.answer.kind === 'refused' ? [a.answer.reason] : []));
      assert.ok(
        reasons.every((r) => r === 'pending-elsewhere' || r === 'already-paid'),
        reasons.join(),
      );
    }
    const state = await db.query<{ state: string; n: number }>('SELECT state, COUNT(*)::int AS n FROM tickets GROUP BY state');
    assert.deepEqual(state.rows, [{ state: 'redeemed', n: TICKETS }]);
    const outcomes = await db.query<{ outcome: string; n: number }>(
      'SELECT outcome, COUNT(*)::int AS n FROM ticket_redemptions GROUP BY outcome ORDER BY outcome',
    );
    assert.deepEqual(outcomes.rows, [
      { outcome: 'refused', n: 100 - TICKETS },
      { outcome: 'stacked', n: TICKETS },
    ]);
    // Each ticket's redemption names the attempt that was approved for it, and the table and station that asked.
    const held = await db.query<{ validation: string; redeem_terminal: string; redeem_station: number }>(
      'SELECT validation, redeem_terminal, redeem_station FROM tickets',
    );
    for (const r of held.rows) {
      const paid = answers.find((a) => a.t.validation === r.validation && a.answer.kind === 'approved');
      assert.equal(r.redeem_terminal, paid?.table.id);
      assert.equal(r.redeem_station, 101 + tables.findIndex((x) => x.id === paid?.table.id));
    }
    return tickets.map((t) => t.validation);
  } finally {
    await up.close();
  }
}

describe('100 concurrent redemptions of 20 tickets across 5 tables pay each exactly once', () => {
  it('on PGlite', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db);
      await campaign(db);
    } finally {
      await db.close();
    }
  });

  describe('on PostgreSQL', () => {
    let cluster: LocalCluster;
    let db: Db;
    before(async () => {
      cluster = await startLocalCluster();
      db = connectPg(cluster.url, 10);
      await migrateUpstream(db);
    });
    after(async () => {
      await db?.close();
      cluster?.destroy();
    });
    let numbers: string[] = [];
    it('row locks, ten connections', async () => {
      numbers = await campaign(db);
    });
    it('etg upstream ticket looks a ticket up by its number, and sums the liability', async () => {
      const said: string[] = [];
      const log = console.log;
      console.log = (line: string) => void said.push(line);
      try {
        assert.equal(await ticketTool.run([numbers[0] ?? '', '--pg', cluster.url, '--json']), 0);
        assert.equal(await ticketTool.run(['--liability', '--pg', cluster.url, '--json']), 0);
        assert.equal(await ticketTool.run(['001111111111111111', '--pg', cluster.url]), 1);
      } finally {
        console.log = log;
      }
      const view = JSON.parse(said[0] ?? '{}') as { ticket?: { state?: string; amount?: number }; attempts?: unknown[]; scheme?: { sequence?: number } };
      assert.equal(view.ticket?.state, 'redeemed');
      assert.equal(view.ticket?.amount, 1_000);
      assert.equal(view.attempts?.length, 5);
      assert.equal(view.scheme?.sequence, 1);
      assert.deepEqual((JSON.parse(said[1] ?? '{}') as { currencies?: unknown[] }).currencies, []);
      assert.match(said.slice(2).join('\n'), /not a number this scheme makes \(check\)[\s\S]*no ticket has this number/);
    });
  });
});
