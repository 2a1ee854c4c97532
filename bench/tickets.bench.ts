// Ticket redemption (issue 47): the round trip of a ticket inserted at a station to its approval —
// the table's guard, its signed HTTP request, the upstream's transaction (the attempt recorded, the
// conditional UPDATE under the ticket's row lock, the attempt's outcome), the answer checked —
// and on to the credit (the confirmation after the stack). Beside it, in the same run and on the
// same PostgreSQL (its own throwaway cluster, fsync on): the bare round trip of the same decision,
// one conditional UPDATE of a ticket row over a pg connection, no HTTP, no signature, no attempt
// kept. One redemption at a time, so each figure is a latency, not a throughput. Then, through the
// host's own acceptor path (./tickets-acceptor.ts): a ticket's insert-to-credit through the ID-003
// simulator (barcode escrow → authority → stack → credit), beside a bank note's through the same
// simulator and driver, in the same run.
//   npm run bench -- tickets
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { guardAuthority } from '../host/tickets/guard.js';
import { UpstreamAuthority } from '../host/tickets/upstream-authority.js';
import { RequestId, TicketTerms } from '../terms/ticket-terms.js';
import { validationNumber } from '../terms/validation-number.js';
import { connectPg, enrolTerminal, migrateUpstream, startLocalCluster, startUpstream } from '../upstream/index.js';
import { figure, QUICK, times } from './report.js';
import { acceptorInsertToCredit } from './tickets-acceptor.js';

const N = Number(process.env.TICKETS_BENCH_N ?? (QUICK ? 50 : 1000));
const WARM = Math.min(50, Math.floor(N / 10));
// Through the acceptor each insert waits on the device's own polling: fewer of them.
const N_ACCEPTOR = Number(process.env.TICKETS_BENCH_ACCEPTOR_N ?? (QUICK ? 10 : 100));
const WARM_ACCEPTOR = Math.min(5, Math.floor(N_ACCEPTOR / 10));

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

const cluster = await startLocalCluster({ durable: true });
const db = connectPg(cluster.url);
try {
  await migrateUpstream(db);
  const up = await startUpstream({ db, limits: { tickets: 1_000_000, ticketRefusals: 1_000_000 } });
  const table = (id: string, cred: { terminalId: string; key: string }) =>
    guardAuthority(new UpstreamAuthority({ url: up.url, credentials: cred, timeoutMs: 30_000 }), { deadlineMs: 30_000, wordDeadlineMs: 30_000 });
  const issuerCred = await enrolTerminal(db, 'ISSUER');
  const issuer = table('ISSUER', issuerCred);
  const redeemer = table('REDEEMER', await enrolTerminal(db, 'REDEEMER'));
  const m = await issuer.machineId();
  if (!m.ok) throw new Error(m.detail);
  const now = Date.now();
  const tickets: TicketTerms[] = [];
  for (let seq = 1; seq <= N + WARM + N_ACCEPTOR + WARM_ACCEPTOR; seq++) {
    const t = TicketTerms.parse({
      validation: validationNumber(m.machineId, seq),
      machineId: m.machineId,
      sequence: seq,
      station: 1,
      amount: 10_000,
      currency: 'MOP',
      issuedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 30 * 86_400_000).toISOString(),
    });
    await issuer.registerIssue(t);
    await issuer.registerPrinted(t);
    tickets.push(t);
  }
  const approve: number[] = [];
  const credit: number[] = [];
  for (const [i, t] of tickets.slice(0, N + WARM).entries()) {
    const q = { requestId: RequestId.parse(randomUUID()), validation: t.validation, station: 2, currency: 'MOP', limit: 1_000_000 };
    const t0 = performance.now();
    const a = await redeemer.redeem(q);
    const t1 = performance.now();
    if (a.kind !== 'approved') throw new Error(`ticket ${t.validation} refused: ${a.reason}`);
    const c = await redeemer.confirm(q.requestId, q);
    const t2 = performance.now();
    if (!c.ok) throw new Error(`confirm refused: ${c.detail}`);
    if (i < WARM) continue;
    approve.push(t1 - t0);
    credit.push(t2 - t0);
  }
  console.log(`${N} redemptions one at a time (after ${WARM} to warm up), through the guard, signed HTTP and the upstream on a durable PostgreSQL:`);
  console.log(`  insert → approval: median ${ms(quantile(approve, 0.5))}, p95 ${ms(quantile(approve, 0.95))}`);
  console.log(`  insert → approval → confirmed (stacked): median ${ms(quantile(credit, 0.5))}, p95 ${ms(quantile(credit, 0.95))}`);

  // The baseline: the same decision bare, one conditional UPDATE of a printed ticket a round trip, autocommit.
  await db.query(`CREATE TABLE bare_tickets (validation text PRIMARY KEY, state text NOT NULL, amount bigint NOT NULL)`);
  await db.query(`INSERT INTO bare_tickets SELECT 'b' || g, 'printed', 10000 FROM generate_series(1, $1::int) g`, [N + WARM]);
  const bare: number[] = [];
  const select1: number[] = [];
  for (let i = 1; i <= N + WARM; i++) {
    const t0 = performance.now();
    const r = await db.query(`UPDATE bare_tickets SET state = 'pending' WHERE validation = $1 AND state = 'printed' RETURNING amount`, [`b${i}`]);
    const t1 = performance.now();
    await db.query('SELECT 1');
    const t2 = performance.now();
    if (r.rowCount !== 1) throw new Error('bare update took no row');
    if (i <= WARM) continue;
    bare.push(t1 - t0);
    select1.push(t2 - t1);
  }
  console.log(
    `baseline, same run, same PostgreSQL: one conditional UPDATE of a ticket row over pg (autocommit): median ${ms(quantile(bare, 0.5))}, p95 ${ms(quantile(bare, 0.95))}`,
  );
  console.log(`  (and SELECT 1, the wire alone: median ${ms(quantile(select1, 0.5))})`);
  const r = figure({
    name: `ticket redemption round trip, insert → approval (guard, signed HTTP, upstream transaction), median of ${N}`,
    unit: 'ms',
    value: quantile(approve, 0.5),
    better: 'lower',
    baseline: { name: 'one bare conditional UPDATE of a ticket row over pg, autocommit, same PostgreSQL, median', value: quantile(bare, 0.5) },
  });
  console.log(`ratio, redemption / bare UPDATE: ${times(r)}`);
  const rc = figure({
    name: `ticket redemption insert → confirmed (two round trips), median of ${N}`,
    unit: 'ms',
    value: quantile(credit, 0.5),
    better: 'lower',
    baseline: { name: 'one bare conditional UPDATE of a ticket row over pg, autocommit, same PostgreSQL, median', value: quantile(bare, 0.5) },
  });
  console.log(`ratio, insert → confirmed / bare UPDATE: ${times(rc)}`);

  // Through the host's acceptor path: each ticket and a note of 100 in turn at one ID-003 simulator.
  const atAcceptor = await acceptorInsertToCredit({
    authority: redeemer,
    tickets: tickets.slice(N + WARM).map((t) => t.validation),
    note: 100,
    warm: WARM_ACCEPTOR,
  });
  console.log(
    `${N_ACCEPTOR} tickets and ${N_ACCEPTOR} notes in turn (after ${WARM_ACCEPTOR} of each), through the ID-003 driver and simulator, journalled on SQLite:`,
  );
  console.log(
    `  ticket insert → credit (escrow → authority → stack → credit): median ${ms(quantile(atAcceptor.ticket, 0.5))}, p95 ${ms(quantile(atAcceptor.ticket, 0.95))}`,
  );
  console.log(`  note insert → credit, same simulator and driver: median ${ms(quantile(atAcceptor.note, 0.5))}, p95 ${ms(quantile(atAcceptor.note, 0.95))}`);
  const rt = figure({
    name: `ticket insert → credit through the ID-003 simulator and the upstream, median of ${N_ACCEPTOR}`,
    unit: 'ms',
    value: quantile(atAcceptor.ticket, 0.5),
    better: 'lower',
    baseline: { name: 'a bank note insert → credit through the same ID-003 simulator and driver, same run, median', value: quantile(atAcceptor.note, 0.5) },
  });
  console.log(`ratio, ticket / note insert → credit: ${times(rt)}`);
  console.log(
    `ratio, ticket insert → credit / bare UPDATE: ${(quantile(atAcceptor.ticket, 0.5) / quantile(bare, 0.5)).toFixed(1)}×; note insert → credit / bare UPDATE: ${(quantile(atAcceptor.note, 0.5) / quantile(bare, 0.5)).toFixed(1)}×`,
  );
  await up.close();
} finally {
  await db.close();
  cluster.destroy();
}
