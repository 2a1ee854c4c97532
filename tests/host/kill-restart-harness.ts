// The harness of the kill-and-restart tests (kill-restart-<game>.test.ts), issue 7 §6. Not random points: the
// host child kills itself with SIGKILL right after the k-th journal entry of its first round
// (host/recovery/kill-switch.ts), for k = 1, 2, … until the round has no k-th entry. Each time a
// new host starts on the same data and must: verify the ledger, conserve the money, finish the
// round (settled, or voided by the recovery rules), credit no note twice, place no card twice, and
// take the screen of the killed run back (same token) with a fresh snapshot the renderer accepts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { accountFor } from '../../cli/soak/account.js';
import pino from 'pino';
import { HostChild, type HostStarted } from '../../cli/soak/child.js';
import { hostOptionsFromArgs } from '../../host/launch-options.js';
import { startHost } from '../../host/start-host.js';
import { openExistingLedger, type EntryBody } from '../../ledger/index.js';
import type { ViewState } from '../../protocol/index.js';
import { HostClient } from '../../renderer/src/connection/host-client.js';

/** Waits on a predicate over the data dir's ledger (read-only, while the host writes it). */
async function until<T>(dataDir: string, probe: (db: Database.Database) => T | null, what: string, cancel?: { stopped: boolean }, limitMs = 60_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    if (cancel?.stopped) return new Promise<T>(() => undefined); // given up on: never settles, holds nothing
    let db: Database.Database | null = null;
    try {
      db = new Database(path.join(dataDir, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
      const r = probe(db);
      if (r !== null) return r;
    } catch {
      // not created yet
    } finally {
      db?.close();
    }
    if (Date.now() - t0 > limitMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The first round the host journalled: its id, entry types in order, and whether it is closed. */
function firstRound(db: Database.Database): { roundId: string; types: string[]; closed: boolean } | null {
  const first = db.prepare('SELECT round_id FROM journal WHERE round_id IS NOT NULL ORDER BY seq LIMIT 1').get() as { round_id: string } | undefined;
  if (!first) return null;
  const types = (db.prepare('SELECT type FROM journal WHERE round_id = ? ORDER BY seq').all(first.round_id) as { type: string }[]).map((r) => r.type);
  return { roundId: first.round_id, types, closed: types.includes('round.settle') || types.includes('round.void') };
}

/**
 * A station screen over a WebSocket to `origin` with `token`, through the renderer's own
 * HostClient, one per connection as the renderer makes them: its version starts unset, so a
 * restarted host's versions (from 1 again) are taken and drawn.
 */
async function stationScreen(origin: string, token: string) {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, { origin });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const snapshots: { version: number; state: ViewState }[] = [];
  const errors: string[] = [];
  // The renderer's own protocol client, as renderer/src/main.ts makes one per connection.
  const client = new HostClient(
    {
      send: (t) => ws.send(t),
      onMessage: (h) => ws.on('message', (d) => h(d.toString())),
      onClose: (h) => ws.on('close', () => h()),
      close: () => ws.close(),
    },
    'station/1',
    { snapshot: (_v, version, state) => snapshots.push({ version, state }), error: (e) => errors.push(e.code), closed: () => undefined },
  );
  client.start(token);
  return { snapshots, errors, close: () => ws.close() };
}

const tokenOf = (started: HostStarted) => new URL(started.screens['station/1'] as string).searchParams.get('token') as string;

export async function killAtEveryStep(game: 'blackjack' | 'baccarat' | 'war', seed: number) {
  const steps: { k: number; killedAfter: string; outcome: string }[] = [];
  for (let k = 1; k <= 40; k++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `kill-${game}-${k}-`));
    try {
      const a = new HostChild({ dataDir, game, stations: 1, seed, extra: [`--test-kill-after-round-entry=${k}`] });
      const startedA = await a.started;
      assert.ok(startedA, `the host started: ${a.errors()}`);
      const screenA = await stationScreen(startedA.origin, tokenOf(startedA));
      // Either the kill switch fires, or the first round closes with fewer than k entries: every step is done.
      const cancel = { stopped: false };
      const short = until(dataDir, (db) => {
        const r = firstRound(db);
        return r && r.closed && r.types.length < k ? r : null;
      }, 'the first round', cancel);
      const ended = await Promise.race([a.exited.then((e) => ({ killed: e })), short.then((r) => ({ short: r }))]);
      cancel.stopped = true;
      if ('short' in ended) {
        await a.kill('SIGKILL');
        screenA.close();
        break;
      }
      assert.equal(ended.killed.signal, 'SIGKILL', `run ${k}: the host died by its kill switch`);
      assert.ok(screenA.snapshots.length > 0, 'the screen was live before the kill');
      const atKill = await until(dataDir, firstRound, 'the round at the kill');
      assert.equal(atKill.types.length, k, `killed right after entry ${k} of the round`);

      // The restart runs in this process (same options as the child's command line): no second
      // interpreter start per step, which keeps these tests within their time.
      const b = await startHost({
        dataDir,
        rendererDir: path.join(dataDir, 'none'),
        logger: pino({ level: 'silent' }),
        ...hostOptionsFromArgs({ game, stations: '1', seed: String(seed + 1), autoplay: true, 'test-timing': true }),
      });
      const startedB = { origin: b.origin };
      // The screen of the killed run reconnects to the same address with its own token and resynchronises.
      assert.equal(startedB.origin, startedA.origin, 'the restarted host serves on the port of the killed one');
      const screenB = await stationScreen(startedB.origin, tokenOf(startedA));
      const resumed = await until(dataDir, (db) => {
        const r = firstRound(db);
        return r?.closed ? r : null;
      }, 'the interrupted round to close');
      await until(dataDir, () => (screenB.snapshots.length > 0 ? true : null), 'a snapshot after the restart');
      await b.close();
      screenA.close();
      screenB.close();
      assert.deepEqual(screenB.errors, [], 'the old token is taken back after the kill');
      const snap = screenB.snapshots[0];
      assert.ok(snap && snap.state.kind === 'station' && snap.state.station === 1, 'a station snapshot arrived');
      assert.ok(snap.version < (screenA.snapshots.at(-1)?.version ?? 0) || snap.version <= 3, 'versions started again, and the renderer took them');

      const ledger = openExistingLedger(dataDir);
      try {
        const money = accountFor(ledger);
        assert.equal(money.ledgerVerified, true, `ledger verifies: ${money.problems.join('; ')}`);
        assert.equal(money.conserved, true, 'credits in = on meters + cashed out + house result + in play');
        const record = ledger.round(resumed.roundId);
        assert.ok(record, 'the interrupted round is closed');
        const cardEntries = resumed.types.filter((t) => t === 'card.read').length;
        assert.equal(record.cards.length, cardEntries, 'every journalled card is in the record once, none placed twice');
        if (record.status === 'void') assert.ok(record.authorisedBy?.includes('host-recovery') || record.reason, 'a void names its reason');
        const escrows = new Map<number, number>();
        for (const e of ledger.entries(1)) {
          if (e.type !== 'bill.credit' && e.type !== 'bill.return') continue;
          const seq = (JSON.parse(e.body) as EntryBody).payload.escrowSeq as number | undefined;
          if (seq !== undefined) escrows.set(seq, (escrows.get(seq) ?? 0) + 1);
        }
        assert.ok([...escrows.values()].every((n) => n === 1), 'no note in escrow resolved (credited) twice');
        steps.push({ k, killedAfter: atKill.types.at(-1) ?? '', outcome: record.status });
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  // Every round of these games has at least a bet, two cards and a settlement.
  assert.ok(steps.length >= 3, `killed at ${steps.length} steps`);
  assert.ok(steps.some((s) => s.killedAfter === 'card.read' && s.outcome === 'settled'), 'a round killed mid-deal went on to its settlement');
  return steps;
}

