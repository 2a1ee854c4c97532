import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { checkpointStats, latestCheckpoint } from './checkpoint.js';
import { bet, billCredit, settledRound } from './fixtures.js';
import type { NewEntry } from './entries.js';
import { connectionOf, Ledger } from './ledger.js';
import { checkpointKeyFile, signCheckpoint } from './sign.js';
import { appendSynthetic } from './testing/synthetic.js';
import { deleteCheckpoints, tamperBalance, tamperCheckpoint, tamperJournalBody, withTriggersLifted } from './testing/tamper.js';
import { verifyLedger } from './verify.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-ckpt-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const KEY = Buffer.alloc(32, 7);

/** A ledger with a checkpoint after 300-odd entries of busy play, then `more` entries after it. */
function played(more = 60): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-C', checkpointKey: KEY, checkpointEvery: 0 });
  appendSynthetic(l, 300, { batch: 50 });
  l.checkpoints.write();
  appendSynthetic(l, more, { batch: 10, from: 1000 });
  return l;
}

/** A settled round of remote stations (numbers over 100), each betting on the stadium box (seat 0). */
function remoteRound(roundId: string, stations: readonly number[]) {
  const { bets, settle } = settledRound(roundId, stations, 2000);
  const box = (e: NewEntry): NewEntry => {
    if (e.type === 'bet.place') return { ...e, payload: { ...e.payload, bets: e.payload.bets.map((b) => ({ ...b, seat: 0 })) } };
    if (e.type === 'round.settle')
      return {
        ...e,
        payload: {
          ...e.payload,
          cards: e.payload.cards.map((c) => ({ ...c, to: c.to.startsWith('seat:') ? 'seat:0' : c.to })),
          decisions: [],
          lines: e.payload.lines.map((line) => ({ ...line, seat: 0 })),
        },
      };
    return e;
  };
  return [...bets.map(box), box(settle)];
}

describe('checkpoints', () => {
  it('verify from a checkpoint counts the remote stations’ recall rows after it only, as the seated stations’', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-C', checkpointKey: KEY, checkpointEvery: 0 });
    for (const s of [1, 101, 102]) l.append(billCredit(s, 50_000, `note-${s}`));
    l.appendMany(remoteRound('before', [1, 101, 102]));
    l.checkpoints.write();
    l.appendMany(remoteRound('after', [101, 102]));
    const r = verifyLedger(l, { from: 'checkpoint' });
    assert.equal(r.mode, 'checkpoint');
    assert.deepEqual(r.problems, []);
  });

  it('are written every N entries, each signed over the head it states', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-C', checkpointKey: KEY, checkpointEvery: 50 });
    for (let i = 0; i < 175; i++) l.append(billCredit(1 + (i % 3), 10_000, `n${i}`));
    const seqs = (connectionOf(l).prepare('SELECT seq FROM checkpoints ORDER BY seq').all() as { seq: number }[]).map((r) => r.seq);
    assert.deepEqual(seqs, [50, 100, 150]);
    const c = latestCheckpoint(l);
    assert.equal(c.status, 'ok');
    if (c.status === 'ok') {
      assert.equal(c.checkpoint.hash, l.entry(150)?.hash);
      assert.deepEqual(Object.fromEntries(c.checkpoint.state.balances), Object.fromEntries(Object.entries(balancesAt(l, 150))));
    }
    // A batch that crosses the interval checkpoints at its end.
    l.appendMany(Array.from({ length: 60 }, (_, i) => billCredit(2, 10_000, `m${i}`)));
    assert.equal(checkpointStats(l).lastSeq, 235);
  });

  it('verify from the checkpoint checks only the entries after it, and finds what the full check finds', () => {
    const l = played();
    const head = l.headOf().seq;
    const c = latestCheckpoint(l);
    assert.equal(c.status, 'ok');
    const from = c.status === 'ok' ? c.checkpoint.seq : -1;
    const quick = verifyLedger(l, { from: 'checkpoint' });
    assert.deepEqual(quick.problems, []);
    assert.equal(quick.mode, 'checkpoint');
    assert.equal(quick.fromSeq, from);
    assert.equal(quick.entries, head - from);
    const full = verifyLedger(l);
    assert.deepEqual(full.problems, []);
    assert.equal(full.mode, 'full');
    assert.equal(full.entries, head);
  });

  it('catches an entry after the checkpoint altered, even with the triggers dropped', () => {
    const l = played();
    const seq = l.headOf().seq - 5;
    const body = l.entry(seq)?.body ?? '';
    const m = /"roundId":"syn-\d+"/.exec(body) ?? /"door":"main"/.exec(body);
    assert.ok(m, body);
    assert.ok(tamperJournalBody(l, seq, m[0], m[0].replace(/"$/, 'x"')));
    const r = verifyLedger(l, { from: 'checkpoint' });
    assert.equal(r.ok, false);
    assert.ok(
      r.problems.some((p) => p.startsWith(`seq ${seq}: content hash`)),
      r.problems.join('\n'),
    );
  });

  it('are not written before the process verified the ledger: a tampered file is never signed over', () => {
    const dir = path.join(tmp, 'unverified');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-U', checkpointEvery: 20 });
    for (let i = 0; i < 25; i++) l.append(billCredit(1 + (i % 3), 10_000, `n${i}`));
    assert.equal(checkpointStats(l).lastSeq, 20);
    l.close();
    // Past the interval, with a balance moved while the kiosk was off.
    const edited = Ledger.open({ dataDir: dir, terminalId: 'T-U', checkpointEvery: 20, tailCheck: false });
    for (let i = 25; i < 45; i++) edited.append(billCredit(1, 10_000, `n${i}`));
    tamperBalance(edited, 'station:2:credit', -7);
    edited.close();
    // The next start journals its power reset before it verifies: the checkpoint now due waits.
    const again = Ledger.open({ dataDir: dir, terminalId: 'T-U', checkpointEvery: 20 });
    again.append({ type: 'power.reset', payload: { clean: false, softwareVersion: 't' } });
    assert.equal(again.checkpoints.write(), null, 'no checkpoint of a ledger this process has not verified');
    assert.equal(checkpointStats(again).lastSeq, 20);
    const r = verifyLedger(again, { from: 'checkpoint' });
    assert.equal(r.fromSeq, 20);
    assert.ok(r.problems.includes('balances: stored and recomputed differ'), r.problems.join('\n'));
    assert.equal(again.checkpoints.write(), null, 'nor after it failed verification');
    again.close();
  });

  it('are written once the process verified the ledger', () => {
    const dir = path.join(tmp, 'verified');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-V', checkpointEvery: 20 });
    for (let i = 0; i < 25; i++) l.append(billCredit(1, 10_000, `n${i}`));
    l.close();
    const again = Ledger.open({ dataDir: dir, terminalId: 'T-V', checkpointEvery: 20 });
    for (let i = 25; i < 45; i++) again.append(billCredit(1, 10_000, `n${i}`));
    assert.equal(checkpointStats(again).lastSeq, 20, 'due at 40, not yet vouched for');
    assert.equal(verifyLedger(again, { from: 'checkpoint' }).ok, true);
    assert.equal(again.checkpoints.writeIfDue(), 45);
    again.close();
  });

  it('catches a balance moved with no entry (the projection against the checkpoint and the replay)', () => {
    const l = played();
    tamperBalance(l, 'house', -5);
    const r = verifyLedger(l, { from: 'checkpoint' });
    assert.ok(r.problems.some((p) => p.startsWith('balances')));
  });

  const fields: [string, 'seq' | 'hash' | 'written_at' | 'has_table' | 'state' | 'signature', (v: string | number) => string | number][] = [
    ['its seq', 'seq', (v) => Number(v) - 1],
    ['its hash', 'hash', (v) => `${String(v).slice(0, 63)}${String(v).endsWith('0') ? '1' : '0'}`],
    ['its time', 'written_at', () => '2020-01-01T00:00:00.000Z'],
    ['whether it holds the table', 'has_table', (v) => 1 - Number(v)],
    ['its state (a balance)', 'state', (v) => String(v).replace(/\["house",(-?\d+)\]/, (_, n: string) => `["house",${Number(n) - 100}]`)],
    ['its signature', 'signature', (v) => `${String(v).slice(0, 63)}${String(v).endsWith('0') ? '1' : '0'}`],
  ];
  for (const [what, column, change] of fields) {
    it(`refuses a checkpoint whose ${what} was altered`, () => {
      const l = played();
      const c = latestCheckpoint(l);
      assert.equal(c.status, 'ok');
      const seq = c.status === 'ok' ? c.checkpoint.seq : 0;
      const row = connectionOf(l).prepare('SELECT * FROM checkpoints WHERE seq = ?').get(seq) as Record<string, string | number>;
      const value = change(row[column] as string | number);
      assert.notEqual(value, row[column]);
      assert.ok(tamperCheckpoint(l, seq, column, value));
      assert.equal(latestCheckpoint(l).status, 'bad');
      const r = verifyLedger(l, { from: 'checkpoint' });
      assert.equal(r.ok, false);
      assert.ok(r.problems.length > 0 && r.problems.every((p) => p.startsWith('checkpoint')), r.problems.join('\n'));
    });
  }

  it('refuses a checkpoint rewritten and signed again under another key (the key is what a forger lacks)', () => {
    const l = played();
    const c = latestCheckpoint(l);
    assert.equal(c.status, 'ok');
    const seq = c.status === 'ok' ? c.checkpoint.seq : 0;
    const row = connectionOf(l).prepare('SELECT state FROM checkpoints WHERE seq = ?').get(seq) as { state: string };
    const forged = row.state.replace(/\["house",(-?\d+)\]/, (_, n: string) => `["house",${Number(n) - 100}]`);
    assert.notEqual(forged, row.state);
    tamperCheckpoint(l, seq, 'state', forged);
    tamperCheckpoint(l, seq, 'signature', signCheckpoint(Buffer.alloc(32, 9), l.terminalId, seq, l.entry(seq)?.hash ?? '', forged));
    const r = verifyLedger(l, { from: 'checkpoint' });
    assert.equal(r.ok, false);
    assert.match(r.problems.join('\n'), /signature does not match/);
    // Signed with the terminal's own key, the same forgery would pass the signature: the key is the protection.
    tamperCheckpoint(l, seq, 'signature', signCheckpoint(KEY, l.terminalId, seq, l.entry(seq)?.hash ?? '', forged));
    assert.equal(latestCheckpoint(l).status, 'ok');
    // … and the balances it states are then checked against the stored ones after the replay.
    assert.ok(verifyLedger(l, { from: 'checkpoint' }).problems.some((p) => p.startsWith('balances')));
  });

  it('with its checkpoints deleted, verifies from genesis (deleting hides nothing, it only costs time)', () => {
    const l = played();
    assert.ok(deleteCheckpoints(l) > 0);
    const r = verifyLedger(l, { from: 'checkpoint' });
    assert.deepEqual(r.problems, []);
    assert.equal(r.mode, 'full');
    assert.equal(r.entries, l.headOf().seq);
    assert.ok(r.checked.some((c) => c.startsWith('no checkpoint')));
  });

  it('with the newest checkpoint deleted, verifies from the one before', () => {
    const l = played(40);
    const first = checkpointStats(l).lastSeq ?? 0;
    l.checkpoints.write();
    const second = checkpointStats(l).lastSeq ?? 0;
    assert.ok(second > first);
    deleteCheckpoints(l, second);
    const r = verifyLedger(l, { from: 'checkpoint' });
    assert.deepEqual(r.problems, []);
    assert.equal(r.fromSeq, first);
  });

  it('verify --full catches a byte altered before the checkpoint, which the check from the checkpoint leaves to it', () => {
    const l = played(300);
    const c = latestCheckpoint(l);
    const upTo = c.status === 'ok' ? c.checkpoint.seq : 0;
    // A byte in a payload no column is derived from (a bet's name): the check from the checkpoint
    // compares the columns of the entries before it with their bodies (ledger/row-columns.ts), so an
    // edit of the type or the round would be refused there too; this one only a re-hash finds.
    let seq = 20;
    while (seq < upTo && !tamperJournalBody(l, seq, '"main"', '"maim"')) seq++;
    assert.ok(20 <= seq && seq < upTo && upTo < l.headOf().seq - 256, 'before the checkpoint, outside the tail the open re-hashes');
    assert.equal(verifyLedger(l, { from: 'checkpoint' }).ok, true, 'the start does not re-hash entries before its checkpoint');
    const full = verifyLedger(l);
    assert.equal(full.ok, false);
    assert.ok(
      full.problems.some((p) => p.startsWith(`seq ${seq}: content hash`)),
      full.problems.join('\n'),
    );
  });

  it('a file ledger signs with its key file; without the key file it verifies from genesis', () => {
    const dir = path.join(tmp, 'keyfile');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-F', checkpointEvery: 20 });
    for (let i = 0; i < 45; i++) l.append(billCredit(1, 10_000, `n${i}`));
    l.close();
    const again = Ledger.open({ dataDir: dir, terminalId: 'T-F' });
    assert.equal(verifyLedger(again, { from: 'checkpoint' }).fromSeq, 40);
    again.close();
    rmSync(checkpointKeyFile(path.join(dir, 'ledger.sqlite')));
    const tool = Ledger.open({ dataDir: dir, terminalId: 'T-F', tailCheck: false });
    const r = verifyLedger(tool, { from: 'checkpoint' });
    assert.equal(r.ok, true);
    assert.equal(r.mode, 'full');
    tool.close();
  });

  it("a host's start after its key file was deleted verifies from genesis, and the new key's checkpoints are believed", () => {
    const dir = path.join(tmp, 'keyfile-lost');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-F', checkpointEvery: 20 });
    for (let i = 0; i < 45; i++) l.append(billCredit(1, 10_000, `n${i}`));
    l.close();
    rmSync(checkpointKeyFile(path.join(dir, 'ledger.sqlite')));
    // The host's open (tail check, writer): it makes a new key. The checkpoints the lost key signed
    // can never be checked again; they are not a forgery, and cost only a verification from genesis.
    const host = Ledger.open({ dataDir: dir, terminalId: 'T-F', checkpointEvery: 20 });
    const r = verifyLedger(host, { from: 'checkpoint' });
    assert.deepEqual(r.problems, [], 'the table would hold for a ledger that is intact');
    assert.equal(r.mode, 'full');
    for (let i = 45; i < 65; i++) host.append(billCredit(1, 10_000, `n${i}`));
    host.close();
    const again = Ledger.open({ dataDir: dir, terminalId: 'T-F' });
    const next = verifyLedger(again, { from: 'checkpoint' });
    assert.deepEqual(next.problems, [], 'the next start');
    assert.equal(next.fromSeq, 60, "from the new key's checkpoint");
    again.close();
    // A tool opening the folder read-only sees the same.
    const tool = Ledger.open({ dataDir: dir, terminalId: 'T-F', readonly: true });
    assert.equal(verifyLedger(tool, { from: 'checkpoint' }).fromSeq, 60);
    tool.close();
  });

  it('a start killed before its new key wrote a checkpoint still verifies from genesis at the next', () => {
    const dir = path.join(tmp, 'keyfile-lost-killed');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-F', checkpointEvery: 20 });
    for (let i = 0; i < 45; i++) l.append(billCredit(1, 10_000, `n${i}`));
    l.close();
    rmSync(checkpointKeyFile(path.join(dir, 'ledger.sqlite')));
    Ledger.open({ dataDir: dir, terminalId: 'T-F', checkpointEvery: 20 }).close();
    const again = Ledger.open({ dataDir: dir, terminalId: 'T-F' });
    const r = verifyLedger(again, { from: 'checkpoint' });
    assert.deepEqual(r.problems, []);
    assert.equal(r.mode, 'full');
    again.close();
  });

  it('a key file left empty (a power cut as it was made) is a lost key: the host starts, verifying from genesis', () => {
    const dir = path.join(tmp, 'keyfile-empty');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-F', checkpointEvery: 20 });
    for (let i = 0; i < 45; i++) l.append(billCredit(1, 10_000, `n${i}`));
    l.close();
    const keyFile = checkpointKeyFile(path.join(dir, 'ledger.sqlite'));
    writeFileSync(keyFile, '');
    const tool = Ledger.open({ dataDir: dir, terminalId: 'T-F', readonly: true });
    assert.equal(verifyLedger(tool, { from: 'checkpoint' }).mode, 'full', 'a reader: no key, from genesis');
    tool.close();
    const host = Ledger.open({ dataDir: dir, terminalId: 'T-F' });
    const r = verifyLedger(host, { from: 'checkpoint' });
    assert.deepEqual(r.problems, []);
    assert.equal(r.mode, 'full');
    host.close();
    assert.equal(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64').length, 32, 'a new key in its place');
    // Something else in it is no cut write: refused as before, naming the file.
    writeFileSync(keyFile, 'not a key\n');
    assert.throws(() => Ledger.open({ dataDir: dir, terminalId: 'T-F' }), /does not hold a 32-byte key/);
  });

  it('property: from any checkpoint, verification agrees with the full check on an intact ledger and catches any byte altered after it', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('bill' as const), s: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ k: fc.constant('escrow' as const), s: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ k: fc.constant('resolve' as const), credit: fc.boolean() }),
      fc.record({ k: fc.constant('bet' as const), s: fc.integer({ min: 1, max: 3 }), a: fc.integer({ min: 1, max: 30_000 }) }),
      fc.record({ k: fc.constant('settle' as const), void: fc.boolean() }),
      fc.record({ k: fc.constant('cashout' as const), s: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ k: fc.constant('pay' as const) }),
      fc.record({ k: fc.constant('clear' as const) }),
      fc.record({ k: fc.constant('checkpoint' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 5, maxLength: 60 }), fc.nat(), fc.nat(), (ops, pick, byte) => {
        const l = Ledger.open({ file: ':memory:', terminalId: 'P', checkpointKey: KEY, checkpointEvery: 0 });
        let n = 0;
        let round = 0;
        const escrows: { seq: number; s: number }[] = [];
        const handpays: { tx: string; s: number; amount: number }[] = [];
        const tryAppend = (f: () => void) => {
          try {
            f();
          } catch {
            /* refused: nothing written */
          }
        };
        for (const o of ops) {
          const rid = `r${round}`;
          if (o.k === 'bill') tryAppend(() => l.append(billCredit(o.s, 50_000, `b${n++}`)));
          else if (o.k === 'escrow') {
            const r = l.append({ type: 'bill.escrow', payload: { station: o.s, device: `ba-${o.s}`, denomination: 20_000, currency: 'HKD' } });
            escrows.push({ seq: r.entry.seq, s: o.s });
          } else if (o.k === 'resolve') {
            const e = escrows.shift();
            if (e) {
              const p = { station: e.s, device: `ba-${e.s}`, denomination: 20_000, currency: 'HKD', escrowSeq: e.seq };
              if (o.credit) l.append({ type: 'bill.credit', txId: `e${n++}`, payload: p });
              else l.append({ type: 'bill.return', payload: { ...p, reason: 'timeout' } });
            }
          } else if (o.k === 'bet') tryAppend(() => l.append(bet(o.s, rid, o.a, `x${n++}`)));
          else if (o.k === 'settle') {
            const open = l.rounds.open().find((r) => r.roundId === rid);
            if (open) {
              if (o.void) {
                l.append({
                  type: 'round.void',
                  txId: `${rid}:void`,
                  payload: { roundId: rid, tableId: 'T1', game: 'blackjack', profile: 'p', cards: [], decisions: [], reason: 'test', authorisedBy: ['s'] },
                });
              } else {
                const { settle } = settledRound(rid, [], 0);
                const payload = settle.payload as unknown as { lines: unknown[] };
                payload.lines = open.stations.map((x) => ({
                  station: x.station,
                  seat: x.station,
                  bet: 'main',
                  stake: x.amount,
                  net: x.amount % 3 === 0 ? -x.amount : 1,
                  rule: 'r',
                }));
                tryAppend(() => l.append(settle));
              }
              round++;
            }
          } else if (o.k === 'cashout') {
            const amount = l.credit(o.s);
            if (amount > 0) {
              const tx = `c${n++}`;
              l.append({ type: 'credit.cancel', txId: tx, payload: { station: o.s, amount, reason: 'cash out' } });
              handpays.push({ tx, s: o.s, amount });
            }
          } else if (o.k === 'pay') {
            const h = handpays.shift();
            if (h) l.append({ type: 'handpay.confirm', txId: `p${n++}`, payload: { station: h.s, requestTxId: h.tx, amount: h.amount, attendant: 'A1' } });
          } else if (o.k === 'clear') {
            l.append({ type: 'meter.clear', payload: { who: 's', authorisation: 'A-1', scope: 'station:1', reason: 'test' } });
          } else l.checkpoints.write();
        }
        const quick = verifyLedger(l, { from: 'checkpoint' });
        assert.deepEqual(quick.problems, []);
        assert.deepEqual(verifyLedger(l).problems, []);
        // Any byte of any entry after the checkpoint, altered: caught.
        const from = quick.fromSeq;
        const head = l.headOf().seq;
        if (head > from) {
          const seq = from + 1 + (pick % (head - from));
          const body = l.entry(seq)?.body ?? '';
          const at = byte % body.length;
          const ch = body[at] === '1' ? '2' : '1';
          const db = connectionOf(l);
          let refused: string | null = null;
          try {
            withTriggersLifted(db, ['journal_no_update'], () =>
              db.prepare('UPDATE journal SET body = ? WHERE seq = ?').run(body.slice(0, at) + ch + body.slice(at + 1), seq),
            );
          } catch (e) {
            refused = e instanceof Error ? e.message : String(e);
          }
          if (refused !== null) {
            // A body that is no JSON any more cannot even be stored where an index reads it
            // (migration 11's escrows and handpay confirms): SQLite refuses the UPDATE itself.
            assert.match(refused, /malformed JSON/);
            assert.ok(['bill.credit', 'bill.return', 'handpay.confirm'].includes(l.entry(seq)?.type ?? ''), `refused for entry ${seq}: ${refused}`);
          } else {
            const r = verifyLedger(l, { from: 'checkpoint' });
            assert.equal(r.ok, false, `byte ${at} of entry ${seq} altered`);
          }
        }
        l.close();
      }),
      { numRuns: 150, seed: 20261123 },
    );
  });
});

function balancesAt(l: Ledger, seq: number): Record<string, number> {
  const rows = connectionOf(l).prepare('SELECT account, SUM(amount) AS b FROM postings WHERE seq <= ? GROUP BY account ORDER BY account').all(seq) as {
    account: string;
    b: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.account, r.b]));
}
