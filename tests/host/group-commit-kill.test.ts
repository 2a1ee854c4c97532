// The money rule under group commit, with the process killed: remote stations bet as fast as their
// windows allow while the table host is SIGKILLed at random and started again on the same ledger.
// Every bet a station was acknowledged is in the journal after the restarts: an acknowledgement
// never comes before the commit it names is durable. The group-commit window is set wide (50 ms)
// so that kills land inside open windows, with bets waiting for their commit.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Rng } from '../../engine/random/seeded-rng.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { entriesOfTypes, openExistingLedger, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { bundledChild } from '../children/bundle.js';
import { freePort } from '../soak/net.js';

const STATIONS = 12;
const KILLS = 6;
const root = path.resolve(import.meta.dirname, '../..');

describe('group commit through SIGKILLs', { timeout: 600_000 }, () => {
  it('every bet acknowledged is in the journal after the host is killed and restarted six times', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'group-commit-kill-'));
    const dataDir = path.join(dir, 'host');
    const out = path.join(dir, 'enrolments.json');
    const lanPort = await freePort();
    const rng = Rng.fromSeed(23);
    let host: ChildProcess | null = null;
    // Seven host starts: bundled once, each starts without tsx loading every module (docs/testing.md).
    const hostScript = await bundledChild('tests/host/bets-host-child.ts');
    const startHost = async () => {
      const child = spawn(process.execPath, [hostScript], {
        cwd: root,
        env: { ...process.env, BETS_HOST: JSON.stringify({ dataDir, stations: STATIONS, lanPort, out, windowMs: 50 }) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      // A test that times out is abandoned, its finally never run: the host must not outlive this process.
      process.once('exit', () => child.kill('SIGKILL'));
      await new Promise<void>((resolve, reject) => {
        child.stdout?.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the host exited (${code}) before it was ready`)));
      });
      host = child;
    };
    const kill = async () => {
      const c = host;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    };
    // Per station: each bet's amount is its own (10,000 + a counter), so an ack names one journal entry.
    const acked = new Set<string>();
    const sent = { bets: 0, acks: 0, refused: 0 };
    let running = true;
    try {
      await startHost();
      const files = JSON.parse(readFileSync(out, 'utf8')) as EnrolmentFile[];
      const agent = pinnedAgent(files[0] as EnrolmentFile);
      const stations = files.map((e, i) => {
        let next = 0;
        const waiting = new Map<string, number>();
        const keep = async (): Promise<void> => {
          while (running) {
            let gone = () => undefined as void;
            const closed = new Promise<void>((r) => (gone = r));
            const s: HeadlessStation = new HeadlessStation(e, agent, {
              closed: () => gone(),
              message: (m) => {
                if (m.type === 'ack' && waiting.has(m.ref)) {
                  acked.add(`${e.station}:${waiting.get(m.ref)}`);
                  sent.acks++;
                } else if (m.type === 'error' && m.ref && waiting.has(m.ref)) sent.refused++;
                if ((m.type === 'ack' || m.type === 'error') && m.ref) waiting.delete(m.ref);
              },
            });
            try {
              await s.connect();
            } catch {
              await new Promise((r) => setTimeout(r, 200));
              continue;
            }
            // Bets every 20–60 ms while the window is open, a few per window.
            let perRound = '';
            let inRound = 0;
            const pace = setInterval(() => {
              const v = s.latest();
              if (!v || v.kind !== 'station' || !v.betting.open || !v.round) return;
              if (perRound !== v.round.roundId) {
                perRound = v.round.roundId;
                inRound = 0;
              }
              if (inRound >= 12 || rng.below(3) === 0) return;
              inRound++;
              const amount = 10_000 + i * 10_000 + ++next;
              waiting.set(s.command({ name: 'place-bet', spot: { bet: 'banker' }, amount }), amount);
              sent.bets++;
            }, 20);
            pace.unref();
            await closed;
            clearInterval(pace);
            waiting.clear();
            await new Promise((r) => setTimeout(r, 100 + rng.below(300)));
          }
        };
        return keep();
      });
      for (let k = 0; k < KILLS; k++) {
        await new Promise((r) => setTimeout(r, 1500 + rng.below(2500)));
        await kill();
        await new Promise((r) => setTimeout(r, rng.below(500)));
        await startHost();
      }
      await new Promise((r) => setTimeout(r, 2000));
      running = false;
      await kill();
      await Promise.race([Promise.all(stations), new Promise((r) => setTimeout(r, 5000))]);
    } finally {
      running = false;
      await kill();
    }
    try {
      const ledger = openExistingLedger(dataDir);
      try {
        assert.equal(verifyLedger(ledger).ok, true, 'the ledger verifies');
        const journalled = new Set<string>();
        for (const e of entriesOfTypes(ledger, ['table.input'])) {
          const input = (JSON.parse(e.body) as EntryBody).payload as { input: { kind?: unknown; station?: unknown; amount?: unknown } };
          if (input.input.kind === 'place-bet') journalled.add(`${String(input.input.station)}:${String(input.input.amount)}`);
        }
        const lost = [...acked].filter((b) => !journalled.has(b));
        console.log(`# ${sent.bets} bets sent, ${sent.acks} acknowledged, ${sent.refused} refused, ${journalled.size} journalled, through ${KILLS} kills`);
        assert.ok(sent.acks > 50, `bets were acknowledged (${sent.acks})`);
        assert.deepEqual(lost, [], 'every bet acknowledged is journalled');
      } finally {
        ledger.close();
      }
    } finally {
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
