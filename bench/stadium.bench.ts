// `npm run bench -- stadium`: one baccarat table host (a process of its own) and 50, 100 and 250
// remote stations over TLS, in four client processes, betting at random within the limits. For
// each size: card read → the last station's socket (p50, p99, max), the host's CPU time per
// coup, its RSS per station, the bytes sent per coup; the same with 10% of the stations behind
// a 64 kbit/s link; and in the same run a bare `ws` broadcast of a message of the same size to the
// same clients (same processes, same TLS, same throttling), with the ratio. Nothing asserts a
// timing. The load average is printed beside the figures: the machine is shared.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_STATION_BASE } from '../protocol/index.js';
import { figure, times } from './report.js';
import type { FromClients, FromHost, ToClients, ToHost } from './stadium/messages.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
// STADIUM_SIZES=250 (comma-separated): only those sizes.
const SIZES = process.env.STADIUM_SIZES ? process.env.STADIUM_SIZES.split(',').map(Number) : quick ? [20] : [50, 100, 250];
// STADIUM_ROUNDS=12: more coups per size, more card reads behind each percentile.
const ROUNDS = process.env.STADIUM_ROUNDS ? Number(process.env.STADIUM_ROUNDS) : quick ? 2 : 6;
const CLIENT_PROCESSES = 4;

// STADIUM_CPU_PROF=DIR: the host process writes a V8 CPU profile there (`node --cpu-prof`), one per size.
const profileDir = process.env.STADIUM_CPU_PROF;

function child<In, Out>(
  file: string,
  env: Record<string, string>,
  profile = false,
): { proc: ChildProcess; next: <T extends Out>(type: string) => Promise<T>; send: (m: In) => void } {
  const proc = fork(path.join(here, 'stadium', file), [], {
    execArgv: ['--import', 'tsx', ...(profile && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: Out[] = [];
  const waiting: { type: string; resolve: (m: Out) => void }[] = [];
  proc.on('message', (m: Out) => {
    const type = (m as { type: string }).type;
    const w = waiting.findIndex((x) => x.type === type);
    if (w >= 0) waiting.splice(w, 1)[0]?.resolve(m);
    else inbox.push(m);
  });
  return {
    proc,
    send: (m) => proc.send(m as object),
    next: <T extends Out>(type: string) =>
      new Promise<T>((resolve, reject) => {
        const i = inbox.findIndex((m) => (m as { type: string }).type === type);
        if (i >= 0) return resolve(inbox.splice(i, 1)[0] as T);
        proc.once('exit', (code) => reject(new Error(`${file} exited (${code}) before ${type}`)));
        waiting.push({ type, resolve: (m) => resolve(m as T) });
      }),
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number);
};
const ms = (ns: bigint) => Number(ns) / 1e6;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Latency {
  p50: number;
  p99: number;
  max: number;
  events: number;
}

/** Per event: its start, and when each client got it (or a later one): the last client's delay. */
function lastSocket(events: { key: number; t0: bigint }[], clients: Map<number, bigint>[]): Latency {
  const delays: number[] = [];
  for (const e of events) {
    let last = -1n;
    for (const c of clients) {
      // A client that fell behind gets the latest snapshot, not every one: the first it got at or after this one.
      let at: bigint | null = c.get(e.key) ?? null;
      if (at === null) for (const [k, t] of c) if (k > e.key && (at === null || t < at)) at = t;
      if (at !== null && at > last) last = at;
    }
    if (last >= 0n) delays.push(ms(last - e.t0));
  }
  return { p50: pct(delays, 50), p99: pct(delays, 99), max: Math.max(...delays), events: delays.length };
}

async function run(stations: number, throttledShare: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stadium-bench-'));
  const host = child<ToHost, FromHost>('host-child.ts', { STADIUM_HOST: JSON.stringify({ stations, dir, seed: 5 }) }, true);
  try {
    const ready = await host.next<Extract<FromHost, { type: 'ready' }>>('ready');
    const numbers = Array.from({ length: stations }, (_, i) => REMOTE_STATION_BASE + 1 + i);
    const throttled = numbers.filter((_, i) => throttledShare > 0 && i % Math.round(1 / throttledShare) === 0);
    const clients = Array.from({ length: CLIENT_PROCESSES }, (_, k) =>
      child<ToClients, FromClients>('clients-child.ts', {
        STADIUM_CLIENTS: JSON.stringify({
          file: ready.file,
          stations: numbers.filter((_, i) => i % CLIENT_PROCESSES === k),
          throttled,
          seed: 100 + k,
          notes: 3,
        }),
      }),
    );
    await Promise.all(clients.map((c) => c.next('connected')));
    const loadBefore = load();
    host.send({ type: 'measure', rounds: ROUNDS });
    const measured = await host.next<Extract<FromHost, { type: 'measured' }>>('measured');
    for (const c of clients) c.send({ type: 'report' });
    const reports = await Promise.all(clients.map((c) => c.next<Extract<FromClients, { type: 'report' }>>('report')));
    const received = reports.flatMap((r) => r.received);
    const asMap = (versions: [number, string][]) => new Map(versions.map(([v, t]) => [v, BigInt(t)]));
    const events = measured.cards.map((c) => ({ key: c.version, t0: BigInt(c.t0) }));
    const free = lastSocket(
      events,
      received.filter((r) => !r.throttled).map((r) => asMap(r.versions)),
    );
    const slow = throttled.length
      ? lastSocket(
          events,
          received.filter((r) => r.throttled).map((r) => asMap(r.versions)),
        )
      : null;

    // The baseline, same run: a bare ws broadcast of a message of the same size to the same clients.
    host.send({ type: 'bare-listen' });
    const bareReady = await host.next<Extract<FromHost, { type: 'bare-ready' }>>('bare-ready');
    for (const c of clients) c.send({ type: 'bare-connect', port: bareReady.port });
    await Promise.all(clients.map((c) => c.next('bare-connected')));
    const count = quick ? 10 : 40;
    host.send({ type: 'bare-broadcast', bytes: measured.roundMessageBytes, count, gapMs: 150 });
    const done = await host.next<Extract<FromHost, { type: 'bare-done' }>>('bare-done');
    await new Promise((r) => setTimeout(r, 500));
    for (const c of clients) c.send({ type: 'bare-report' });
    const bareReports = (await Promise.all(clients.map((c) => c.next<Extract<FromClients, { type: 'bare-report' }>>('bare-report')))).flatMap(
      (r) => r.received,
    );
    const bareEvents = done.times.map((t) => ({ key: t.seq, t0: BigInt(t.t0) }));
    const bare = lastSocket(
      bareEvents,
      bareReports.filter((r) => !r.throttled).map((r) => asMap(r.seqs)),
    );
    const loadAfter = load();

    // The host's own part of each card's path: its journal commit, then its sends.
    const hostSide = (to: 'committed' | 'built' | 'sent') => measured.cards.map((c) => ms(BigInt(c[to]) - BigInt(c.t0)));
    const committed = hostSide('committed');
    const built = hostSide('built');
    const sentOut = hostSide('sent');

    const label = `${stations} stations${throttled.length ? `, ${throttled.length} of them at 64 kbit/s` : ''}`;
    const perRound = (x: number) => x / measured.rounds;
    console.log(`\n  ${label} (load average ${loadBefore} → ${loadAfter}; ${events.length} card reads over ${measured.rounds} coups)`);
    for (const p of ['p50', 'p99', 'max'] as const) {
      const r = figure({
        name: `stadium: card read → last ${throttled.length ? 'unthrottled ' : ''}station's socket, ${p}, ${label}`,
        unit: 'ms',
        value: free[p],
        better: 'lower',
        baseline: { name: `bare ws broadcast of ${measured.roundMessageBytes} bytes to the same clients, ${p}`, value: bare[p] },
      });
      console.log(`    ${p} card read → last station: ${free[p].toFixed(1)} ms, bare broadcast ${bare[p].toFixed(1)} ms (${times(r)})`);
    }
    const bareSent = done.times.map((x) => ms(BigInt(x.sent) - BigInt(x.t0)));
    console.log(`    on the host, the bare broadcast: its last socket written p50 ${pct(bareSent, 50).toFixed(1)} / p99 ${pct(bareSent, 99).toFixed(1)} ms`);
    console.log(
      `    on the host: card read → journal committed p50 ${pct(committed, 50).toFixed(1)} / p99 ${pct(committed, 99).toFixed(1)} ms; → public round built p50 ${pct(built, 50).toFixed(1)} / p99 ${pct(built, 99).toFixed(1)} ms; → the last socket written p50 ${pct(sentOut, 50).toFixed(1)} / p99 ${pct(sentOut, 99).toFixed(1)} ms`,
    );
    if (slow)
      console.log(
        `    the ${throttled.length} throttled stations: p50 ${slow.p50.toFixed(0)} ms, p99 ${slow.p99.toFixed(0)} ms, max ${slow.max.toFixed(0)} ms (latest snapshot wins)`,
      );
    figure({
      name: `stadium: host CPU time per coup, ${label}`,
      unit: 'ms',
      value: perRound(measured.cpuMs),
      better: 'lower',
      baseline: null,
      note: 'no bare counterpart: a coup is the engine, its durable journal, the views and the sends',
    });
    console.log(
      `    host CPU per coup: ${perRound(measured.cpuMs).toFixed(0)} ms; RSS ${(measured.rssBytes / 2 ** 20).toFixed(0)} MiB, ${(measured.rssBytes / stations / 1024).toFixed(0)} KiB per station`,
    );
    console.log(
      `    sent per coup: ${(perRound(measured.bytesSent) / 1024).toFixed(0)} KiB in ${perRound(measured.messagesSent).toFixed(0)} messages (${perRound(measured.superseded).toFixed(1)} superseded by a newer snapshot before they went); public round message ${measured.roundMessageBytes} bytes`,
    );
    figure({
      name: `stadium: host RSS per station, ${label}`,
      unit: 'KiB',
      value: measured.rssBytes / stations / 1024,
      better: 'lower',
      baseline: null,
      note: "the host's whole RSS over the stations: no bare host holds the same table",
    });
    figure({
      name: `stadium: bytes sent per coup, ${label}`,
      unit: 'KiB',
      value: perRound(measured.bytesSent) / 1024,
      better: 'lower',
      baseline: null,
      note: 'what the protocol sends: a count, not a speed',
    });
    for (const c of clients) c.send({ type: 'stop' });
  } finally {
    host.send({ type: 'stop' });
    await new Promise((r) => host.proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`stadium: baccarat, ${ROUNDS} coups per size, ${CLIENT_PROCESSES} client processes, ${os.cpus().length} cores; load average ${load()}`);
// STADIUM_SHARES=0.1 (comma-separated): only those shares of throttled stations.
const SHARES = process.env.STADIUM_SHARES ? process.env.STADIUM_SHARES.split(',').map(Number) : [0, 0.1];
for (const n of SIZES) for (const share of SHARES) await run(n, share);
