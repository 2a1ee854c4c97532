// Sync catch-up: 100 000 journal entries from a kiosk ledger to a local PostgreSQL (its own
// throwaway cluster, fsync on), through the real HTTP service and signed requests; beside, in the
// same run and the same cluster, the same entries' bodies inserted bare: one multi-row INSERT per
// batch of the same size, one transaction each, into a table with the same primary key and no
// service, signature, chain check, JSON document, meters or head.
//   npm run bench -- sync
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { journalBodyBytes, Ledger, SyncClient } from '../ledger/index.js';
import { billCredit, settledRound } from '../ledger/fixtures.js';
import { figure, QUICK, times } from './report.js';
import { connectPg, enrolTerminal, migrateUpstream, startLocalCluster, startUpstream, verifyChain } from '../upstream/index.js';

const TARGET = Number(process.env.SYNC_BENCH_ENTRIES ?? (QUICK ? 5_000 : 100_000));
const BATCH = Number(process.env.SYNC_BENCH_BATCH ?? 500);
const dir = mkdtempSync(path.join(os.tmpdir(), 'sync-bench-'));
const cluster = await startLocalCluster({ durable: true });
const db = connectPg(cluster.url);
try {
  await migrateUpstream(db);
  // The catch-up's own speed: each terminal's ingest budget (60,000 entries a minute, an honest
  // table's whole unsynced backlog at most 50,000) would set it otherwise.
  const up = await startUpstream({ db, ingestBudget: { entriesPerMinute: 100_000_000, bytesPerMinute: 2 ** 40 } });
  const ledger = Ledger.open({ dataDir: dir, terminalId: 'SYNC' });
  let t = performance.now();
  const seats = [1, 2, 3, 4, 5, 6, 7];
  for (let s = 1; s <= 7; s++) ledger.append(billCredit(s, 100_000_000, `b${s}`));
  let i = 0;
  while (ledger.headOf().seq < TARGET) {
    const batch = [];
    for (let k = 0; k < 50; k++, i++) {
      const { bets, settle } = settledRound(`r${i}`, seats, 100, i);
      batch.push(...bets, settle);
    }
    ledger.appendMany(batch.slice(0, Math.max(0, TARGET - ledger.headOf().seq)));
  }
  const bytes = journalBodyBytes(ledger);
  console.log(
    `kiosk journal: ${ledger.headOf().seq} entries (${(bytes / 1e6).toFixed(1)} MB of canonical bodies), written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const cred = await enrolTerminal(db, 'SYNC');
  const client = new SyncClient(ledger, { url: up.url, credentials: cred, maxBatchEntries: BATCH, maxBatchBytes: BATCH * 1024 });
  t = performance.now();
  let batches = 0;
  while ((await client.syncOnce()) === 'sent') batches++;
  const s = (performance.now() - t) / 1000;
  const st = client.status();
  console.log(
    `catch-up of ${st.ackedSeq} entries in ${batches} batches (≤${BATCH} entries/${BATCH} KiB): ${s.toFixed(1)} s = ${Math.round(st.ackedSeq / s)} entries/s, lag now ${st.lagEntries}`,
  );
  t = performance.now();
  const chain = await verifyChain(db, 'SYNC');
  const verifyS = (performance.now() - t) / 1000;
  console.log(`upstream chain verification of ${chain.entries} entries: ${((performance.now() - t) / 1000).toFixed(1)} s, ok=${chain.ok}`);

  // The baseline: the same bodies, batched as the client batched them, bare into the same server.
  const { rows } = await db.query<{ seq: string; body: string }>(`SELECT seq::text, body FROM journal WHERE terminal_id = 'SYNC' ORDER BY seq`);
  await db.query('CREATE TABLE bare_journal (terminal_id text NOT NULL, seq bigint NOT NULL, body text NOT NULL, PRIMARY KEY (terminal_id, seq))');
  t = performance.now();
  for (let k = 0; k < rows.length; k += BATCH) {
    const part = rows.slice(k, k + BATCH);
    await db.query(`INSERT INTO bare_journal (terminal_id, seq, body) SELECT 'SYNC', u.seq, u.body FROM unnest($1::bigint[], $2::text[]) AS u(seq, body)`, [
      part.map((r) => r.seq),
      part.map((r) => r.body),
    ]);
  }
  const bareS = (performance.now() - t) / 1000;
  console.log(
    `baseline: bare batched INSERT of the same ${rows.length} bodies (${BATCH} a statement, one transaction each) into the same PostgreSQL: ${bareS.toFixed(1)} s = ${Math.round(rows.length / bareS)} entries/s`,
  );
  const r = figure({
    name: `sync catch-up of ${st.ackedSeq} entries through the upstream service`,
    unit: 'entries/s',
    value: st.ackedSeq / s,
    better: 'higher',
    baseline: { name: `bare batched INSERT of the same bodies, ${BATCH} a transaction, same PostgreSQL`, value: rows.length / bareS },
  });
  console.log(`ratio, sync / bare insert: ${times(r)}`);
  figure({
    name: `upstream chain verification of ${chain.entries} entries`,
    unit: 's',
    value: verifyS,
    better: 'lower',
    baseline: null,
    note: 'no bare counterpart: it reads every entry back and hashes the chain, work only the upstream does',
  });
  ledger.close();
  await up.close();
} finally {
  await db.close();
  cluster.destroy();
  rmSync(dir, { recursive: true, force: true });
}
