// A round's close to its row on the back office's live floor (issue 49: "a floor of 3 live table
// hosts update within 2 s of a round"), and where the time goes, beside a bare baseline of the
// same bytes. Seven tables' ledgers (in memory) sync to an upstream on PGlite with its back office
// through the real sync client, each woken by its round's close as a table host is
// (host/start/rounds-upstream.ts) and otherwise polling only once a minute, so a round reaches the
// upstream by that wake or not in time; heartbeats every 5 s. A signed-in supervisor's stream
// (`/backoffice/api/floor/events`) is read in this process. Each round is timed in three stages:
//   send:  the round journalled (its settlement committed) → its batch arrives at the upstream;
//   ingest: the batch arrives → the upstream has answered it (journal, meters, chain);
//   push:  answered → the row carrying the round's id is read off the stream (the floor's read,
//          the sessions' re-check, the write).
// The bare baseline: the same round's entries POSTed over loopback to a plain HTTP server that
// writes them to an SSE stream at once (no database, no ledger), read the same way. One round
// somewhere on the floor every 200 ms, the bare one 100 ms after each. The page's own part (an
// SSE event to the next frame) is bench/backoffice-floor.bench.ts's. Printed and handed to the
// report (`figure()`); never asserted. Everything runs in this one process (the upstream, PGlite,
// the seven ledgers and their clients): a table host is its own process on its own machine.
import { createServer, type ServerResponse } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sendRoundsAtOnce } from '../host/start/rounds-upstream.js';
import { billCredit, settledRound } from '../ledger/fixtures.js';
import { Ledger, SyncClient } from '../ledger/index.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream, type Db } from '../upstream/index.js';
import type { Sql } from '../upstream/sql.js';
import { figure, QUICK, times } from './report.js';

const TABLES = 7;
const ROUNDS = QUICK ? 14 : 140;
const SPACING_MS = 200;
const PASSWORD = 'correct horse battery';

/** Reads an SSE stream, calling `on` with each event's name and data as it arrives. */
async function readEvents(body: ReadableStream<Uint8Array>, on: (event: string, data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) on(event, data);
    }
  }
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadBefore = load();
// Each statement's time, from its call to its answer (PGlite runs one at a time: a statement's
// time includes its wait behind others), by its text: where the upstream's part goes.
const statements = new Map<string, number[]>();
const timed = (sql: Sql): Sql => ({
  ...sql,
  async query(text, params) {
    const t = performance.now();
    try {
      return await sql.query(text, params);
    } finally {
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
      statements.set(key, [...(statements.get(key) ?? []), performance.now() - t]);
    }
  },
});
const pglite = await openPglite();
const db: Db = { ...pglite, ...timed(pglite), transaction: (fn) => pglite.transaction((tx) => fn(timed(tx))) };
await migrateUpstream(db);
await putUser(db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'bench' }, { N: 2 ** 10, r: 8, p: 1 });
const up = await startUpstream({ db, backoffice: {} });

// When each ingest arrived and was answered, per terminal (the server's own request events).
const ingests = new Map<string, { arrive: number; done: number }[]>();
up.app.server.prependListener('request', (req, res) => {
  if (req.url !== '/v1/ingest') return;
  const terminal = String(req.headers['x-etg-terminal']);
  const rec = { arrive: performance.now(), done: Number.NaN };
  ingests.set(terminal, [...(ingests.get(terminal) ?? []), rec]);
  res.on('finish', () => (rec.done = performance.now()));
});

const signIn = await fetch(`${up.url}/backoffice/api/sign-in`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'ana', password: PASSWORD }),
});
if (signIn.status !== 200) throw new Error(`sign-in refused: ${signIn.status}`);
const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

// The floor's stream: when each (terminal, round) was first read off it.
const shown = new Map<string, number>();
const stream = new AbortController();
const floor = await fetch(`${up.url}/backoffice/api/floor/events`, { headers: { cookie }, signal: stream.signal });
void readEvents(floor.body as ReadableStream<Uint8Array>, (event, data) => {
  if (event !== 'rows') return;
  const at = performance.now();
  for (const r of JSON.parse(data) as { terminalId: string; lastRound: { roundId: string } | null }[]) {
    const key = `${r.terminalId} ${r.lastRound?.roundId}`;
    if (r.lastRound && !shown.has(key)) shown.set(key, at);
  }
}).catch(() => undefined);

const tables: { id: string; ledger: Ledger; client: SyncClient; off: () => void }[] = [];
for (let i = 1; i <= TABLES; i++) {
  const id = `T${i}`;
  const cred = await enrolTerminal(db, id, false);
  const ledger = Ledger.open({ file: ':memory:', terminalId: id });
  for (const s of [1, 2, 3]) ledger.append(billCredit(s, 100_000_000, `${id}-b${s}`));
  const client = new SyncClient(ledger, {
    url: up.url,
    credentials: { ...cred, upstream: up.url },
    idleMs: 60_000,
    heartbeat: {
      intervalMs: 5_000,
      snapshot: () => ({ tableId: id, game: 'blackjack', table: { phase: 'betting', faults: [] }, sync: { lagEntries: 0, lagSeconds: 0 } }),
    },
  });
  const off = sendRoundsAtOnce(ledger, client);
  client.start();
  tables.push({ id, ledger, client, off });
}
// Every table's notes synced and shown before the first round is timed.
while (tables.some((t) => t.client.status().lagEntries > 0)) await new Promise((r) => setTimeout(r, 100));

// The bare baseline: a plain server that writes what it is sent to its SSE client at once.
const bareClient: { res: ServerResponse | null } = { res: null };
const bare = createServer((req, res) => {
  if (req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': open\n\n');
    bareClient.res = res;
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    bareClient.res?.write(`event: rows\ndata: ${body}\n\n`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
const bareAddress = bare.address();
const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}`;
const bareShown = new Map<string, number>();
const bareStream = await fetch(`${bareUrl}/events`, { signal: stream.signal });
void readEvents(bareStream.body as ReadableStream<Uint8Array>, (_event, data) => {
  bareShown.set((JSON.parse(data) as { round: string }).round, performance.now());
}).catch(() => undefined);

statements.clear();
const rounds: { terminal: string; round: string; closed: number }[] = [];
const bareRounds: { round: string; sent: number }[] = [];
for (let n = 0; n < ROUNDS; n++) {
  const t = tables[n % TABLES]!;
  const round = `${t.id}-r${n}`;
  const { bets, settle } = settledRound(round, [1, 2, 3], 100, n);
  const closed = performance.now();
  t.ledger.appendMany([...bets, settle]);
  rounds.push({ terminal: t.id, round, closed });
  await new Promise((r) => setTimeout(r, SPACING_MS / 2));
  const sent = performance.now();
  bareRounds.push({ round, sent });
  void fetch(`${bareUrl}/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ round, entries: [...bets, settle] }),
  });
  await new Promise((r) => setTimeout(r, SPACING_MS / 2));
}
const deadline = Date.now() + 60_000;
while ((rounds.some((r) => !shown.has(`${r.terminal} ${r.round}`)) || bareRounds.some((r) => !bareShown.has(r.round))) && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 100));
const loadAfter = load();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? Number.NaN;
const max = (xs: number[]) => Math.max(...xs);
const stages = { send: [] as number[], ingest: [] as number[], push: [] as number[], total: [] as number[] };
let missing = 0;
for (const r of rounds) {
  const at = shown.get(`${r.terminal} ${r.round}`);
  const batch = ingests.get(r.terminal)?.find((x) => x.arrive >= r.closed);
  if (at === undefined || !batch) {
    missing++;
    continue;
  }
  stages.total.push(at - r.closed);
  stages.send.push(batch.arrive - r.closed);
  stages.ingest.push(batch.done - batch.arrive);
  stages.push.push(at - batch.done);
}
const bareTotal = bareRounds.flatMap((r) => {
  const at = bareShown.get(r.round);
  return at === undefined ? [] : [at - r.sent];
});

const ms = (x: number) => `${x.toFixed(1)} ms`;
const line = (name: string, xs: number[]) => `  ${name.padEnd(8)} median ${ms(median(xs))}, p95 ${ms(p95(xs))}, max ${ms(max(xs))}`;
console.log(`backoffice push: ${TABLES} tables, ${ROUNDS} rounds (one every ${SPACING_MS} ms), load ${loadBefore} → ${loadAfter}`);
console.log(line('send', stages.send));
console.log(line('ingest', stages.ingest));
console.log(line('push', stages.push));
console.log(line('total', stages.total));
console.log(line('bare', bareTotal));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log("  the upstream's statements while the rounds ran, by total time (count, median, total):");
for (const [text, xs] of [...statements].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, 10))
  console.log(`    ${String(xs.length).padStart(5)} × ${ms(median(xs)).padStart(9)} = ${ms(sum(xs)).padStart(10)}  ${text}`);
if (missing > 0) console.log(`  ${missing} rounds never reached the stream within 60 s`);
const headline = figure({
  name: `backoffice floor push, ${TABLES} tables: a round journalled to its row read off the floor's stream, median`,
  unit: 'ms',
  value: median(stages.total),
  better: 'lower',
  baseline: { name: 'the same entries POSTed to a bare server that writes them to its SSE stream, median', value: Math.max(0.1, median(bareTotal)) },
});
console.log(`  round → row (median) ${ms(median(stages.total))}, bare ${ms(median(bareTotal))}, ratio ${times(headline)}`);

stream.abort();
for (const t of tables) {
  t.off();
  await t.client.stop();
  t.ledger.close();
}
bareClient.res?.end();
bare.close();
await up.close();
await db.close();
