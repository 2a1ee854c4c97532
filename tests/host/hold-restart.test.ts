// A hold outlives a kill, between rounds (no round in play) or inside a round (bets in play): the
// restarted host rebuilds it from the journal, with the reads that came during it, and stays on
// hold, taking no bets, until it is resolved the way the hold requires (a void by two people; an
// unreadable card entered by hand by two people when no card followed it). The first run is a
// child process killed with SIGKILL (hold-child.ts), the restart runs here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseCard } from '../../engine/cards/card.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { openExistingLedger, verifyLedger, type EntryBody, type Ledger } from '../../ledger/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The child's timings: a held table must show no countdown for several of its betting windows.
const TIMINGS = { bettingMs: 300, decisionMs: 5_000, resultsMs: 100 };

/** Runs the child until it reports its hold, then kills it with SIGKILL. */
async function holdThenKill(
  dataDir: string,
  scenario: 'extra-card' | 'unreadable' | 'in-round-unreadable' | 'in-round-reads',
): Promise<{ hold: string; phase: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tests/host/hold-child.ts'), dataDir, scenario], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const line = await new Promise<string | null>((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    void exited.then(() => resolve(null));
  });
  assert.ok(line, `the child held the table: ${stderr}`);
  child.kill('SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  return JSON.parse(line) as { hold: string; phase: string };
}

const misreads = (ledger: Ledger) =>
  [...ledger.entries(1)]
    .filter((e) => e.type === 'misread')
    .map(
      (e) =>
        (JSON.parse(e.body) as EntryBody).payload as {
          roundId?: string;
          detail: string;
          resolution: string;
          card?: string;
          confirmedBy?: string[];
          shoeSequence?: number[];
          duringHold?: boolean;
        },
    );

const start = (dataDir: string, game: 'war' | 'blackjack') =>
  startHost({
    dataDir,
    rendererDir: path.join(dataDir, 'none'),
    logger: pino({ level: 'silent' }),
    config: simulatedTableConfig(game),
    simulatedDealer: false,
    timings: TIMINGS,
  });

/** The restarted table is on this hold and takes nothing: no countdown, no bet, not even after several betting windows. */
async function assertHeld(running: RunningHost, hold: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const v = running.table.reads.view();
    assert.equal(v.phase, 'hold', 'the table is back on hold after the kill');
    assert.equal(v.hold, hold);
    assert.equal(v.endsAt, null, 'no countdown runs');
    assert.equal(running.table.reads.station(1).betting.open, false, 'no betting window');
    assert.equal(running.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, false);
    assert.ok(
      running.floor.tilts.list().some((t) => t.kind === 'card-hold'),
      'the card-hold fault stands',
    );
    if (i === 0) await sleep(TIMINGS.bettingMs * 4);
  }
  // A monitor sees it too, without opening service mode.
  const health = (await (await fetch(`${running.origin}/healthz`)).json()) as {
    table: { phase: string; hold: string; faults: string[] };
    recovery: { tableHold: string };
  };
  assert.deepEqual([health.table.phase, health.table.hold, health.recovery.tableHold], ['hold', hold, hold]);
  assert.ok(health.table.faults.includes('card-hold'));
  const clears = [...running.ledger.entries(1)].filter((e) => e.type === 'tilt.clear');
  assert.deepEqual(clears, [], 'the restart journalled no end of the hold');
}

describe('a hold between rounds across a kill', () => {
  it('an extra card between rounds: held again after SIGKILL until voided by two people; the lifting is journalled', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hold-extra-'));
    try {
      assert.deepEqual(await holdThenKill(dir, 'extra-card'), { hold: 'extra-card', phase: 'hold' });
      const second = await start(dir, 'war');
      try {
        await assertHeld(second, 'extra-card');
        assert.equal(second.table.supervisor.enterCard(parseCard('5C'), 'sup-1', 'wit-2').ok, false, 'a card read as it is cannot be entered by hand');
        assert.deepEqual(second.table.supervisor.voidRound('stray card drawn between rounds', ['sup-1', 'wit-2']), { ok: true });
        const lifted = misreads(second.ledger).at(-1);
        assert.deepEqual([lifted?.resolution, lifted?.roundId, lifted?.confirmedBy], ['round-void', undefined, ['sup-1', 'wit-2']]);
        assert.ok(!second.floor.tilts.list().some((t) => t.kind === 'card-hold'), 'the fault ends with its resolution');
        for (let i = 0; i < 100 && !second.table.reads.station(1).betting.open; i++) await sleep(20);
        assert.equal(second.table.reads.station(1).betting.open, true, 'betting opens once resolved');
      } finally {
        await second.close();
      }
      // Resolved is resolved: the next start does not hold again.
      const third = await start(dir, 'war');
      try {
        assert.equal(third.table.reads.view().hold, null);
        for (let i = 0; i < 100 && !third.table.reads.station(1).betting.open; i++) await sleep(20);
        assert.equal(third.table.reads.station(1).betting.open, true);
        assert.equal(verifyLedger(third.ledger).ok, true);
      } finally {
        await third.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'an unreadable burn between rounds: held again after SIGKILL; the card entered by two people names the shoe sequence of the unreadable read',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'hold-unreadable-'));
      try {
        assert.deepEqual(await holdThenKill(dir, 'unreadable'), { hold: 'unreadable', phase: 'hold' });
        const killed = openExistingLedger(dir);
        const pending = misreads(killed);
        killed.close();
        const second = await start(dir, 'blackjack');
        try {
          await assertHeld(second, 'unreadable');
          const sequence = pending.at(-1)?.shoeSequence;
          assert.ok(sequence && sequence.length === 1, 'the hold journalled the sequence of the unreadable read');
          // The simulated shoe is a new device after the kill: its new shoe asks for its burns again.
          for (let i = 0; i < 200 && second.devices.shoe.loadsHandled < 1; i++) await sleep(20);
          assert.deepEqual(second.table.supervisor.enterCard(parseCard('5H'), 'sup-1', 'wit-2'), { ok: true });
          const entered = misreads(second.ledger).at(-1);
          assert.deepEqual([entered?.resolution, entered?.confirmedBy, entered?.shoeSequence], ['card-entered', ['sup-1', 'wit-2'], sequence]);
          assert.equal(second.table.reads.view().hold, null);
        } finally {
          await second.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('a ledger hold between rounds (a burn the ledger refused): journalled, held again at the next start until voided', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hold-ledger-'));
    try {
      const first = await start(dir, 'blackjack');
      try {
        for (let i = 0; i < 200 && first.table.reads.cue()?.kind !== 'card'; i++) await sleep(20);
        assert.equal(first.table.reads.cue()?.kind, 'card', 'a burn is asked for');
        // The ledger refuses the burn's card.read once (a full disk, say), with the input it came
        // in; it takes the hold's entries.
        const appendMany = first.ledger.appendMany.bind(first.ledger);
        let refused = false;
        first.ledger.appendMany = (entries, then) => {
          if (entries.some((e) => e.type === 'card.read') && !refused) {
            refused = true;
            throw new Error('SQLITE_FULL: database or disk is full');
          }
          return appendMany(entries, then);
        };
        first.devices.shoe.simulator()?.drawCard();
        for (let i = 0; i < 200 && first.table.reads.view().hold === null; i++) await sleep(20);
        assert.equal(first.table.reads.view().hold, 'ledger');
        const pending = misreads(first.ledger).at(-1);
        assert.deepEqual([pending?.detail, pending?.resolution, pending?.roundId], ['ledger', 'pending', undefined]);
      } finally {
        await first.close();
      }
      const second = await start(dir, 'blackjack');
      try {
        await assertHeld(second, 'ledger');
        assert.deepEqual(second.table.supervisor.voidRound('burn not journalled: shoe checked', ['sup-1', 'wit-2']), { ok: true });
        assert.equal(misreads(second.ledger).at(-1)?.resolution, 'round-void');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a hold inside a round across a kill (issue 7 review, item 4)', () => {
  /** The restarted host resumed the round on its hold: no countdown, no bets, the fault standing. */
  async function assertRoundHeld(running: RunningHost, hold: string, roundId: string): Promise<void> {
    assert.equal(running.recovery.resumedRound, roundId, 'the interrupted round was rebuilt, not voided');
    for (let i = 0; i < 2; i++) {
      const v = running.table.reads.view();
      assert.deepEqual([v.phase, v.hold, v.endsAt, v.roundId], ['hold', hold, null, roundId]);
      assert.equal(running.table.commands.placeBet(3, { bet: 'main' }, 10_000).ok, false);
      assert.ok(running.floor.tilts.list().some((t) => t.kind === 'card-hold'));
      if (i === 0) await sleep(TIMINGS.bettingMs * 3);
    }
  }
  const heldRound = (dir: string) => {
    const l = openExistingLedger(dir);
    try {
      const m = misreads(l);
      return { pending: m.filter((x) => x.resolution === 'pending'), credits: [l.credit(1), l.credit(2)] };
    } finally {
      l.close();
    }
  };

  it('an unreadable card mid-deal: held again after SIGKILL; the card entered by two people, the round settles with it', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hold-in-round-'));
    try {
      assert.deepEqual(await holdThenKill(dir, 'in-round-unreadable'), { hold: 'unreadable', phase: 'hold' });
      const killed = heldRound(dir);
      const [pending] = killed.pending;
      assert.ok(pending?.roundId && pending.shoeSequence?.length === 1, 'the hold was journalled with its round and the shoe sequence');
      assert.deepEqual(killed.credits, [40_000, 30_000], 'both bets were in play at the kill');
      const second = await start(dir, 'war');
      try {
        await assertRoundHeld(second, 'unreadable', pending.roundId);
        assert.match(JSON.stringify(second.table.supervisor.enterCard(parseCard('2D'), 'sup-1', 'sup-1')), /someone other/);
        assert.deepEqual(second.table.supervisor.enterCard(parseCard('2D'), 'sup-1', 'wit-2'), { ok: true });
        const entered = misreads(second.ledger).at(-1);
        assert.deepEqual(
          [entered?.resolution, entered?.roundId, entered?.card, entered?.shoeSequence, entered?.confirmedBy],
          ['card-entered', pending.roundId, '2D', pending.shoeSequence, ['sup-1', 'wit-2']],
        );
        // The croupier's card, through the restarted (simulated, new) shoe once its gate opens.
        const sim = second.devices.shoe.simulator();
        assert.ok(sim);
        for (let i = 0; i < 400 && !(second.table.reads.expectsCard() && second.devices.shoe.gateOpen()); i++) await sleep(10);
        assert.equal(sim.drawCard({ card: '3C' }), '3C');
        for (let i = 0; i < 400 && second.table.reads.view().phase !== 'results'; i++) await sleep(10);
        const record = second.ledger.rounds.record(pending.roundId);
        assert.equal(record?.status, 'settled');
        assert.deepEqual(
          record?.cards.map((c) => c.card),
          ['9S', '2D', '3C'],
        );
        assert.deepEqual(
          [second.ledger.credit(1), second.ledger.credit(2)],
          [60_000, 30_000],
          '9 beats 3: seat 1 wins 10,000; 2 loses to 3: seat 2 loses 20,000',
        );
        assert.equal(verifyLedger(second.ledger).ok, true);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'an unreadable card and one more card drawn during the hold, then SIGKILL: both reads come back with the hold; entry is refused; a void by two people returns every bet',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'hold-in-round-reads-'));
      try {
        assert.deepEqual(await holdThenKill(dir, 'in-round-reads'), { hold: 'unreadable', phase: 'hold' });
        const killed = heldRound(dir);
        const [hold, read] = killed.pending;
        assert.ok(hold?.roundId && hold.shoeSequence?.length === 1);
        assert.ok(read, 'a second pending entry: the read during the hold');
        assert.deepEqual(
          [read.duringHold, read?.card, read?.roundId],
          [true, '5C', hold.roundId],
          'the card drawn during the hold was journalled with the round',
        );
        const second = await start(dir, 'war');
        try {
          await assertRoundHeld(second, 'unreadable', hold.roundId);
          assert.deepEqual(second.table.reads.holdState()?.readsDuringHold, [{ card: '5C', shoeSequence: read.shoeSequence?.[0] }], 'rebuilt with the hold');
          assert.match(JSON.stringify(second.table.supervisor.enterCard(parseCard('2D'), 'sup-1', 'wit-2')), /1 more card\(s\) left the shoe/);
          assert.equal(second.table.reads.view().hold, 'unreadable');
          assert.deepEqual(second.table.supervisor.voidRound('card dealt during the hold', ['sup-1', 'wit-2']), { ok: true });
          assert.deepEqual([second.ledger.credit(1), second.ledger.credit(2)], [50_000, 50_000], 'every bet returned');
          const resolved = misreads(second.ledger).at(-1);
          assert.deepEqual(
            [resolved?.resolution, resolved?.roundId, resolved?.shoeSequence],
            ['round-void', hold.roundId, [...(hold.shoeSequence ?? []), ...(read.shoeSequence ?? [])]],
          );
          assert.equal(second.ledger.rounds.record(hold.roundId)?.status, 'void');
          assert.equal(verifyLedger(second.ledger).ok, true);
        } finally {
          await second.close();
        }
        // Resolved is resolved: the next start neither holds nor resumes the round.
        const third = await start(dir, 'war');
        try {
          assert.deepEqual([third.table.reads.view().hold, third.recovery.resumedRound], [null, null]);
        } finally {
          await third.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
