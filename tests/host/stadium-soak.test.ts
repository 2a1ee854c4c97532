// The remote acceptors' money rule under fire: five remote stations, each with a simulated ID-003
// acceptor that outlives every kill (the hardware, served over TCP), behind its own station agent
// (a process: three run the driver, two relay the acceptor's bytes and the host runs it) through a
// proxy the soak cuts; 200 notes inserted at random moments while the soak kills the table host and
// the agents at random (SIGKILL) and cuts the network. At the end every note is in a cashbox or
// back with the customer, and the ledger has credited exactly the notes in the cashboxes: not one
// credit lost or doubled.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Rng } from '../../engine/random/seeded-rng.js';
import { Id003Simulator, serveDevice } from '../../hardware/index.js';
import { entriesOfTypes, ledgerFile, openExistingLedger, openLedgerReader, verifyLedger, type EntryBody, type Payload } from '../../ledger/index.js';
import { REMOTE_STATION_BASE } from '../../protocol/index.js';
import { bundledChild } from '../children/bundle.js';
import { cuttable, freePort } from '../soak/net.js';

const STATIONS = 5;
const NOTES = 200;
const root = path.resolve(import.meta.dirname, '../..');

/**
 * A child of ours from its bundle (tests/children/bundle.ts): the host and the agents start about
 * thirty times in all, each through tsx a few seconds of a core loading our modules one by one.
 */
function start(bundle: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [bundle, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function until(what: string, ms: number, ok: () => boolean, detail: () => string = () => ''): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() >= end) assert.fail(`timed out: ${what}${detail() ? `; ${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the remote acceptors through kills and cuts', { timeout: 900_000 }, () => {
  it('200 notes, the host and the agents killed at random, the network cut: not one credit lost or doubled', async (t) => {
    const [hostBundle, etgBundle] = await Promise.all([bundledChild('tests/host/stadium-host-child.ts'), bundledChild('tests/children/etg-entry.ts')]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'stadium-soak-'));
    const dataDir = path.join(dir, 'host');
    const enrolments = path.join(dir, 'enrolments.json');
    const lanPort = await freePort();
    const proxy = await cuttable(lanPort);
    const rng = Rng.fromSeed(17);
    const sims = Array.from({ length: STATIONS }, () => new Id003Simulator({ currency: 'MOP' }));
    const devices = await Promise.all(sims.map((s) => serveDevice(s, '127.0.0.1', 0)));
    let host: ChildProcess | null = null;
    /** The host last spawned, ready or not (a timeout can come while it starts). */
    let starting: ChildProcess | null = null;
    const agents: (ChildProcess | null)[] = Array.from({ length: STATIONS }, () => null);
    const errors: string[] = [];
    /** The host's last warnings, kept for a failure's message (which station, what its driver said). */
    const warnings: string[] = [];
    const startHost = async () => {
      const child = start(hostBundle, [], {
        STADIUM_SOAK: JSON.stringify({ dataDir, stations: STATIONS, lanPort, viaOrigin: `https://127.0.0.1:${proxy.port}`, out: enrolments }),
      });
      starting = child;
      child.stderr?.on('data', (d: Buffer) => {
        const text = d.toString();
        if (/"level":(50|60)/.test(text)) errors.push(text.slice(0, 400));
        for (const line of text.split('\n')) if (/"level":40/.test(line)) warnings.push(line.slice(0, 300));
        warnings.splice(0, Math.max(0, warnings.length - 200));
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout?.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the host exited (${code}) before it was ready`)));
      });
      host = child;
    };
    // A test that times out ends its process before any `finally` runs (--test-force-exit): the
    // host and the agents would go on running through the rest of the suite. Its signal stops them.
    t.signal.addEventListener('abort', () => {
      for (const c of [host, starting, ...agents]) c?.kill('SIGKILL');
    });
    const agentFiles: string[] = [];
    const startAgent = (i: number) => {
      agents[i] = start(etgBundle, [
        'station-agent',
        '--enrolment',
        agentFiles[i] as string,
        '--bill-acceptor',
        `tcp:127.0.0.1:${devices[i]?.port ?? 0}`,
        '--no-screen',
        // Every other station relays its acceptor's bytes and the host runs the driver (docs/stadium.md).
        ...(i % 2 === 1 ? ['--relay'] : []),
      ]);
    };
    const kill = async (c: ChildProcess | null) => {
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    };
    try {
      await startHost();
      const files = JSON.parse(readFileSync(enrolments, 'utf8')) as object[];
      files.forEach((f, i) => {
        const file = path.join(dir, `station-${i}.json`);
        writeFileSync(file, JSON.stringify(f), { mode: 0o600 });
        agentFiles.push(file);
      });
      for (let i = 0; i < STATIONS; i++) startAgent(i);

      const notes = [10, 20, 50, 100, 500, 1000];
      const inserted: number[] = Array.from({ length: STATIONS }, () => 0);
      const counts = { hostKills: 0, agentKills: 0, cuts: 0 };
      for (let n = 0; n < NOTES; n++) {
        const i = rng.below(STATIONS);
        const note = notes[rng.below(notes.length)] as number;
        sims[i]?.insertNote(note);
        inserted[i] = (inserted[i] ?? 0) + note;
        await new Promise((r) => setTimeout(r, 100 + rng.below(400)));
        const roll = rng.below(100);
        if (roll < 4) {
          await kill(host);
          counts.hostKills++;
          await new Promise((r) => setTimeout(r, rng.below(1500)));
          await startHost();
        } else if (roll < 12) {
          const a = rng.below(STATIONS);
          await kill(agents[a] ?? null);
          counts.agentKills++;
          await new Promise((r) => setTimeout(r, rng.below(1500)));
          startAgent(a);
        } else if (roll < 16) {
          proxy.cut();
          counts.cuts++;
        }
      }
      // Every note ends in a cashbox or back with the customer.
      const resolved = () => sims.every((s, i) => [...s.cashbox, ...s.returned, ...s.jammed].reduce((a, b) => a + b, 0) === inserted[i]);
      const stuckStations = () =>
        sims.flatMap((s, i) => ([...s.cashbox, ...s.returned, ...s.jammed].reduce((a, b) => a + b, 0) === inserted[i] ? [] : [REMOTE_STATION_BASE + 1 + i]));
      // The faults the host journalled and has not cleared for the station (or the whole table):
      // each is a reason for its acceptor to take no notes.
      const faultsOf = (station: number) => {
        try {
          const l = openLedgerReader(ledgerFile(dataDir));
          try {
            return l
              .openTilts()
              .filter((t) => t.station === undefined || t.station === station)
              .map((t) => `open fault at ${station}: ${t.kind}${t.station === undefined ? ' (table)' : ''} since ${t.ts}${t.detail ? ` (${t.detail})` : ''}`);
          } finally {
            l.close();
          }
        } catch (e) {
          return [`the ledger could not be read: ${e instanceof Error ? e.message : String(e)}`];
        }
      };
      // Seen twice in a whole CI run, never in a run alone: a note neither stacked nor returned after
      // 240 s (bf208f2; 6fc45ab: a relayed station, its acceptor disabled with nothing in its path,
      // its agent running). What each such station's acceptor and agent were doing then, the faults
      // the host holds open for it and its last warnings are in the failure.
      const stuck = () =>
        sims
          .map((s, i) => ({ s, i, out: [...s.cashbox, ...s.returned, ...s.jammed].reduce((a, b) => a + b, 0) }))
          .filter(({ out, i }) => out !== inserted[i])
          .map(
            ({ s, i, out }) =>
              `station ${REMOTE_STATION_BASE + 1 + i} (${i % 2 === 1 ? 'relayed' : 'driver on the agent'}): inserted ${inserted[i]}, out ${out}, ` +
              `acceptor ${s.state}${s.powered ? '' : ' (off)'}, in the path ${JSON.stringify(s.inPath)}, agent ${agents[i]?.exitCode === null && agents[i]?.signalCode === null ? 'running' : 'gone'}`,
          )
          .concat(errors.slice(-5).map((e) => `host error: ${e}`))
          .concat(stuckStations().flatMap((station) => faultsOf(station)))
          .concat(stuckStations().flatMap((station) => warnings.filter((w) => w.includes(`"station":${station}`)).slice(-8)))
          .join('; ');
      await until('every note stacked or returned', 240_000, resolved, stuck);
      // …and the host has heard every outcome: no escrow left unresolved. Read beside the running
      // host with a reader: `openExistingLedger` is the owner's open, whose rollback check raced the
      // host's commit once (its head mark a commit ahead of the snapshot read).
      const unresolved = () => {
        const l = openLedgerReader(ledgerFile(dataDir));
        try {
          return l.unresolvedEscrows();
        } finally {
          l.close();
        }
      };
      // Seen twice in a whole CI run (29 November, 4 December): an escrow still open 60 s after every
      // note was out of every acceptor, at a station whose agent runs the driver. The mechanism found
      // (remote-escrow-answer-lost.test.ts): a "stack" that never reached the agent, the note given
      // back on its escrow timeout, the agent killed before its return was heard, and the next agent's
      // driver reading the idle unit as note-vanished. Each open escrow, what its station's acceptor
      // holds and did, its agent, and the host's last warnings for it are in the failure.
      const openEscrows = () =>
        unresolved()
          .map((e) => {
            const i = e.station - REMOTE_STATION_BASE - 1;
            const s = sims[i];
            const agent = agents[i]?.exitCode === null && agents[i]?.signalCode === null ? 'running' : 'gone';
            return (
              `escrow seq ${e.seq} at station ${e.station} (${i % 2 === 1 ? 'relayed' : 'driver on the agent'}), ${e.device} note ${e.denomination} id ${e.escrowId ?? '?'}: ` +
              `acceptor ${s?.state ?? '?'}, cashbox ${JSON.stringify(s?.cashbox ?? [])}, returned ${JSON.stringify(s?.returned ?? [])}, jammed ${JSON.stringify(s?.jammed ?? [])}, agent ${agent}; ` +
              warnings
                .filter((w) => w.includes(`"station":${e.station}`))
                .slice(-6)
                .join('; ')
            );
          })
          .concat(`faults: ${JSON.stringify(counts)}`)
          .join(' | ');
      await until('every escrow credited or returned in the ledger', 60_000, () => unresolved().length === 0, openEscrows);
      for (const a of agents) await kill(a);
      await kill(host);

      const ledger = openExistingLedger(dataDir);
      try {
        assert.equal(verifyLedger(ledger).ok, true, 'the ledger verifies');
        // Honest agents through every kill and cut: the credit rule refused none of their notes.
        const refused = [...entriesOfTypes(ledger, ['bill.refused'])].map((e) => (JSON.parse(e.body) as EntryBody).payload);
        assert.deepEqual(refused, [], 'no note of an honest agent refused');
        const credited = new Map<number, number[]>();
        const creditIds = new Set<string>();
        for (const e of entriesOfTypes(ledger, ['bill.credit'])) {
          const p = (JSON.parse(e.body) as EntryBody).payload as Payload<'bill.credit'>;
          credited.set(p.station, [...(credited.get(p.station) ?? []), p.denomination / 100]);
          assert.ok(e.txId && !creditIds.has(e.txId), `a credit journalled twice: ${e.txId}`);
          creditIds.add(e.txId ?? '');
        }
        sims.forEach((s, i) => {
          const station = REMOTE_STATION_BASE + 1 + i;
          const sort = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
          assert.deepEqual(sort(credited.get(station) ?? []), sort(s.cashbox), `station ${station}: the notes credited are the notes in its cashbox`);
          assert.equal(ledger.credit(station) <= s.cashbox.reduce((a, b) => a + b, 0) * 100, true);
        });
        // The relaying stations took notes too: the host's own driver stacked and credited them.
        sims.forEach((s, i) => {
          if (i % 2 === 1) assert.ok(s.cashbox.length > 0, `relayed station ${REMOTE_STATION_BASE + 1 + i} stacked notes`);
        });
        const cashboxed = sims.reduce((a, s) => a + s.cashbox.length, 0);
        assert.ok(cashboxed > NOTES / 2, `most notes were stacked (${cashboxed} of ${NOTES})`);
        assert.ok(counts.hostKills > 0 && counts.agentKills > 0 && counts.cuts > 0, `kills and cuts happened: ${JSON.stringify(counts)}`);
        console.log(
          `# ${NOTES} notes: ${cashboxed} stacked and credited once, ${sims.reduce((a, s) => a + s.returned.length, 0)} returned; ${JSON.stringify(counts)}`,
        );
      } finally {
        ledger.close();
      }
      assert.deepEqual(errors, []);
    } finally {
      for (const a of agents) await kill(a);
      await kill(host);
      proxy.close();
      for (const d of devices) await d.close();
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
