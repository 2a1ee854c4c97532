// The witness's rules, alone (no kiosk code): it signs a head only when the links it is given lead
// from the head it signed before (or from genesis), refuses a lower or diverging head, survives a
// restart and a torn slot, signs a checkpoint only at its head and one state per entry, and answers
// a hostile client on its socket with refusals, never a crash.
import assert from 'node:assert/strict';
import { createHash, createPublicKey } from 'node:crypto';
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { chainHash, genesisHash } from './chain.js';
import { forgetTerminal } from './forget.js';
import { readKeyFile, writeNewKeyFile } from './keys.js';
import { freshDirs, testKey } from './test-kit.js';
import { WitnessRecord } from './record.js';
import { listenWitness } from './server.js';
import { checkpointStatement, headStatement, statementSigned } from './statement.js';
import { Witness } from './witness.js';
import type { Answer, SignedHead } from './wire.js';

const fresh = freshDirs('witness-');
/** A folder of the tests' own files (key files, sockets). */
const root = fresh();
mkdirSync(root);
const key = testKey;

/**
 * A chain of `count` entries for terminal T: their bodies (the ledger's shape, witness/effects.ts
 * reads it), content hashes and the hash after each. Entry 2 credits a note of 100 at station 1,
 * entry 3 bets 60 of it in round r1, entry 5 settles r1 lost (the house keeps the 60).
 */
function chain(count: number, salt = ''): { bodies: string[]; links: string[]; hashes: string[] } {
  const bodies: string[] = [];
  const links: string[] = [];
  const hashes: string[] = [];
  let h = genesisHash('T');
  for (let i = 1; i <= count; i++) {
    const effects: Record<number, object> = {
      2: {
        type: 'bill.credit',
        payload: { station: 1 },
        postings: [
          ['cashbox:1:100', 100],
          ['station:1:credit', -100],
        ],
        meters: [['station:1', 'totalIn', 100]],
      },
      3: {
        type: 'bet.place',
        payload: { roundId: 'r1', station: 1 },
        postings: [
          ['station:1:credit', 60],
          ['wagers:1', -60],
        ],
        meters: [],
        credits: [[1, 100, 40]],
      },
      5: {
        type: 'round.settle',
        payload: { roundId: 'r1' },
        postings: [
          ['wagers:1', 60],
          ['house', -60],
        ],
        meters: [['table', 'gamesPlayed', 1]],
      },
    };
    const body = JSON.stringify({ v: 1, terminal: 'T', seq: i, type: 'door.open', payload: { salt }, postings: [], meters: [], ...effects[i] });
    const c = createHash('sha256').update(body).digest('hex');
    h = chainHash(h, c);
    bodies.push(body);
    links.push(c);
    hashes.push(h);
  }
  return { bodies, links, hashes };
}

/** A checkpoint's state text (ledger/checkpoint.ts) at entry `seq` of `c`. */
function stateAt(
  c: { hashes: string[] },
  seq: number,
  o: { balances?: [string, number][]; meters?: [string, string, number][]; openBets?: unknown[]; at?: string } = {},
): string {
  return JSON.stringify({
    v: 1,
    terminal: 'T',
    seq,
    hash: c.hashes[seq - 1],
    at: o.at ?? '2026-01-01T00:00:00.000Z',
    balances: o.balances ?? [],
    meters: o.meters ?? [],
    openBets: o.openBets ?? [],
    table: null,
  });
}

const G = { seq: 0, hash: genesisHash('T') };
const at = (c: { hashes: string[] }, seq: number) => ({ seq, hash: c.hashes[seq - 1] as string });

function refused(a: Answer): string {
  assert.equal(a.ok, false, JSON.stringify(a));
  return a.ok === false ? a.error : '';
}

describe('the ledger witness', () => {
  it('signs the first head only from genesis, with links that lead to it', () => {
    const k = key();
    const w = new Witness({ dir: fresh(), key: k });
    const c = chain(10);
    assert.equal(refused(w.handle({ id: 1, op: 'witness', terminal: 'T', from: at(c, 3), links: c.links.slice(3, 5), to: at(c, 5) })), 'stale');
    const wrong = [...c.links.slice(0, 4), c.links[5] as string];
    assert.equal(refused(w.handle({ id: 2, op: 'witness', terminal: 'T', from: G, links: wrong, to: at(c, 5) })), 'bad-chain');
    assert.equal(refused(w.handle({ id: 3, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 4), to: at(c, 5) })), 'bad-chain');
    const a = w.handle({ id: 4, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 5), to: at(c, 5) });
    assert.ok(a.ok && a.op === 'witness');
    const head = (a as { head: SignedHead }).head;
    assert.equal(head.seq, 5);
    assert.ok(statementSigned(k.publicKey, headStatement(head), head.signature));
    // Another key does not verify it.
    assert.ok(!statementSigned(key().publicKey, headStatement(head), head.signature));
    w.close();
  });

  it('goes on only from its own head; refuses a lower head, another hash at its head, a rewritten chain', () => {
    const w = new Witness({ dir: fresh(), key: key() });
    const c = chain(20);
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 10), to: at(c, 10) }).ok);
    // Lower: entries lost.
    assert.equal(refused(w.handle({ id: 2, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 9), to: at(c, 9) })), 'lower');
    // The same head again: the same signed head (a retry).
    const again = w.handle({ id: 3, op: 'witness', terminal: 'T', from: at(c, 10), links: [], to: at(c, 10) });
    assert.ok(again.ok);
    // Re-forged: the whole chain rebuilt with entry 4 changed, the head as far as the witness's and beyond.
    const forged = chain(20, '-forged');
    assert.equal(refused(w.handle({ id: 4, op: 'witness', terminal: 'T', from: G, links: forged.links.slice(0, 10), to: at(forged, 10) })), 'diverging');
    assert.equal(
      refused(w.handle({ id: 5, op: 'witness', terminal: 'T', from: at(forged, 10), links: forged.links.slice(10, 15), to: at(forged, 15) })),
      'diverging',
    );
    // The forged links from the witness's own head do not lead to the forged hash.
    assert.equal(
      refused(w.handle({ id: 6, op: 'witness', terminal: 'T', from: at(c, 10), links: forged.links.slice(10, 15), to: at(forged, 15) })),
      'diverging',
    );
    // From an older point of the real chain: stale, with the witness's head to go on from.
    const stale = w.handle({ id: 7, op: 'witness', terminal: 'T', from: at(c, 5), links: c.links.slice(5, 15), to: at(c, 15) });
    assert.equal(refused(stale), 'stale');
    assert.equal(stale.ok === false ? stale.head?.seq : -1, 10);
    assert.ok(w.handle({ id: 8, op: 'witness', terminal: 'T', from: at(c, 10), links: c.links.slice(10, 20), to: at(c, 20) }).ok);
    assert.equal(w.headOf('T')?.seq, 20);
    w.close();
  });

  it('keeps its head across a restart and a torn slot; refuses what it signed before after the restart too', () => {
    const dir = fresh();
    const k = key();
    const c = chain(30);
    let w = new Witness({ dir, key: k });
    for (const [from, to] of [
      [0, 10],
      [10, 20],
      [20, 30],
    ] as const) {
      assert.ok(w.handle({ id: to, op: 'witness', terminal: 'T', from: from === 0 ? G : at(c, from), links: c.links.slice(from, to), to: at(c, to) }).ok);
    }
    w.close();
    w = new Witness({ dir, key: k });
    assert.equal(w.headOf('T')?.seq, 30);
    assert.equal(refused(w.handle({ id: 1, op: 'witness', terminal: 'T', from: at(c, 20), links: c.links.slice(20, 25), to: at(c, 25) })), 'lower');
    w.close();
    // The slot holding head 30 torn by a power cut mid-write: the other slot (head 20) stands.
    const file = path.join(dir, 'heads', 'T');
    const bytes = readFileSync(file);
    const newest = bytes.subarray(0, 512).toString().includes('"seq":30') ? 0 : 512;
    bytes.fill(0x20, newest + 40, newest + 512);
    writeFileSync(file, bytes);
    w = new Witness({ dir, key: k });
    assert.equal(w.headOf('T')?.seq, 20);
    // A slot whose signature is not the witness's (someone wrote it, or the key changed) is not
    // believed either, nor read as "no head yet": the terminal's requests fail until the loss is accepted.
    w.close();
    w = new Witness({ dir, key: key() });
    assert.throws(() => w.headOf('T'), /no slot that verifies/);
    w.close();
  });

  it('signs a checkpoint at its head only, one state per entry; a forgotten terminal starts again from genesis', () => {
    const dir = fresh();
    const k = key();
    const c = chain(12);
    // What entries 1–10 make: the note's 100 at station 1, 60 of it lost to the house; r1 closed.
    const made = {
      balances: [
        ['cashbox:1:100', 100],
        ['house', -60],
        ['station:1:credit', -40],
      ] as [string, number][],
      meters: [
        ['station:1', 'totalIn', 100],
        ['table', 'gamesPlayed', 1],
      ] as [string, string, number][],
    };
    const state = stateAt(c, 10, made);
    const other = stateAt(c, 10, { ...made, at: '2026-01-02T00:00:00.000Z' });
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 10), to: at(c, 10) }).ok);
    assert.ok(w.handle({ id: 1, op: 'fold', terminal: 'T', from: G, bodies: c.bodies.slice(0, 10), to: at(c, 10) }).ok);
    assert.equal(refused(w.handle({ id: 2, op: 'checkpoint', terminal: 'T', ...at(c, 9), state: stateAt(c, 9, made) })), 'not-at-head');
    assert.equal(refused(w.handle({ id: 3, op: 'checkpoint', terminal: 'T', seq: 10, hash: c.hashes[8] as string, state })), 'not-at-head');
    const a = w.handle({ id: 4, op: 'checkpoint', terminal: 'T', ...at(c, 10), state });
    assert.ok(a.ok, JSON.stringify(a));
    assert.ok(
      a.ok &&
        a.op === 'checkpoint' &&
        statementSigned(k.publicKey, checkpointStatement('T', 10, at(c, 10).hash, createHash('sha256').update(state).digest('hex')), a.signature),
    );
    assert.deepEqual(w.handle({ id: 4, op: 'checkpoint', terminal: 'T', ...at(c, 10), state }), a);
    w.close();
    // After a restart too: another state at entry 10 is refused (the record holds the one signed).
    w = new Witness({ dir, key: k });
    assert.equal(refused(w.handle({ id: 5, op: 'checkpoint', terminal: 'T', ...at(c, 10), state: other })), 'checkpoint-conflict');
    w.close();
    const forgotten = forgetTerminal(dir, 'T', 'test');
    assert.equal(forgotten?.seq, 10);
    w = new Witness({ dir, key: k });
    assert.equal(w.headOf('T'), null);
    const forged = chain(12, '-restored');
    assert.ok(w.handle({ id: 6, op: 'witness', terminal: 'T', from: G, links: forged.links.slice(0, 10), to: at(forged, 10) }).ok);
    // The fold was forgotten with the head: from genesis again.
    assert.ok(w.handle({ id: 6, op: 'fold', terminal: 'T', from: G, bodies: forged.bodies.slice(0, 10), to: at(forged, 10) }).ok);
    assert.ok(w.handle({ id: 7, op: 'checkpoint', terminal: 'T', ...at(forged, 10), state: stateAt(forged, 10, { ...made, at: 'x' }) }).ok);
    w.close();
    const record = readFileSync(path.join(dir, 'record.jsonl'), 'utf8');
    assert.match(record, /"k":"forget".*"by":"test"/);
  });

  it('signs only the state its own fold of the bodies makes: a made-up balance, meter or bet is refused (issue 50 item 1)', () => {
    const dir = fresh();
    const k = key();
    const c = chain(12);
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 4), to: at(c, 4) }).ok);
    // At entry 4 round r1 is open: station 1's bet of 60, its credit 100 before it.
    const open = {
      balances: [
        ['cashbox:1:100', 100],
        ['station:1:credit', -40],
        ['wagers:1', -60],
      ] as [string, number][],
      meters: [['station:1', 'totalIn', 100]] as [string, string, number][],
      openBets: [['r1', 1, 3, 60, 100]],
    };
    assert.equal(refused(w.handle({ id: 2, op: 'checkpoint', terminal: 'T', ...at(c, 4), state: stateAt(c, 4, open) })), 'fold-behind');
    // Folded in two stretches: the first ends below the head and waits; the checkpoint waits with it.
    assert.deepEqual(w.handle({ id: 3, op: 'folded', terminal: 'T' }), { id: 3, ok: true, op: 'folded', folded: G });
    assert.ok(w.handle({ id: 4, op: 'fold', terminal: 'T', from: G, bodies: c.bodies.slice(0, 2), to: at(c, 2) }).ok);
    assert.equal(refused(w.handle({ id: 5, op: 'checkpoint', terminal: 'T', ...at(c, 4), state: stateAt(c, 4, open) })), 'fold-behind');
    // A body changed, a body whose postings do not balance, a stretch from elsewhere, past the head: refused.
    const changed = c.bodies[2]?.replace('"wagers:1",-60', '"wagers:1",-6000').replace('"station:1:credit",60', '"station:1:credit",6000') as string;
    assert.equal(refused(w.handle({ id: 6, op: 'fold', terminal: 'T', from: at(c, 2), bodies: [changed, c.bodies[3]], to: at(c, 4) })), 'bad-chain');
    const unbalanced = c.bodies[2]?.replace('"wagers:1",-60', '"wagers:1",-59') as string;
    assert.equal(refused(w.handle({ id: 7, op: 'fold', terminal: 'T', from: at(c, 2), bodies: [unbalanced, c.bodies[3]], to: at(c, 4) })), 'bad-entry');
    assert.equal(refused(w.handle({ id: 8, op: 'fold', terminal: 'T', from: at(c, 3), bodies: [c.bodies[3]], to: at(c, 4) })), 'stale');
    assert.equal(refused(w.handle({ id: 9, op: 'fold', terminal: 'T', from: at(c, 2), bodies: c.bodies.slice(2, 6), to: at(c, 6) })), 'not-at-head');
    assert.ok(w.handle({ id: 10, op: 'fold', terminal: 'T', from: at(c, 2), bodies: c.bodies.slice(2, 4), to: at(c, 4) }).ok);
    // The made-up states: station 1's credit raised and the house lowered to match; a meter; a bet.
    const forged = [
      { ...open, balances: [...open.balances, ['house', 10_000_000]] as [string, number][] },
      { ...open, balances: open.balances.map(([a, v]) => [a, a === 'station:1:credit' ? v - 10_000_000 : v]) as [string, number][] },
      { ...open, meters: [['station:1', 'totalIn', 1_000]] as [string, string, number][] },
      { ...open, openBets: [['r1', 1, 3, 6_000, 100]] },
      { ...open, openBets: [] },
    ];
    for (const [i, f] of forged.entries()) {
      assert.equal(refused(w.handle({ id: 20 + i, op: 'checkpoint', terminal: 'T', ...at(c, 4), state: stateAt(c, 4, f) })), 'not-derived', JSON.stringify(f));
    }
    assert.ok(w.handle({ id: 30, op: 'checkpoint', terminal: 'T', ...at(c, 4), state: stateAt(c, 4, open) }).ok);
    w.close();
    // Restarted, it goes on from the fold of the checkpoint it signed.
    w = new Witness({ dir, key: k });
    assert.deepEqual(w.handle({ id: 31, op: 'folded', terminal: 'T' }), { id: 31, ok: true, op: 'folded', folded: at(c, 4) });
    assert.ok(w.handle({ id: 32, op: 'witness', terminal: 'T', from: at(c, 4), links: c.links.slice(4, 6), to: at(c, 6) }).ok);
    assert.ok(w.handle({ id: 33, op: 'fold', terminal: 'T', from: at(c, 4), bodies: c.bodies.slice(4, 6), to: at(c, 6) }).ok);
    const closed = {
      balances: [
        ['cashbox:1:100', 100],
        ['house', -60],
        ['station:1:credit', -40],
      ] as [string, number][],
      meters: [
        ['station:1', 'totalIn', 100],
        ['table', 'gamesPlayed', 1],
      ] as [string, string, number][],
    };
    assert.ok(w.handle({ id: 34, op: 'checkpoint', terminal: 'T', ...at(c, 6), state: stateAt(c, 6, closed) }).ok);
    w.close();
  });

  it('reads a first head write a power cut left zero-filled as no head yet when the record shows none (it was never answered)', () => {
    const dir = fresh();
    const k = key();
    new Witness({ dir, key: k }).close();
    mkdirSync(path.join(dir, 'heads'), { recursive: true });
    // The file grew to its second slot before the cut; its bytes never landed.
    writeFileSync(path.join(dir, 'heads', 'T'), Buffer.alloc(1024, 0));
    const logged: Record<string, unknown>[] = [];
    const w = new Witness({ dir, key: k, log: (l) => logged.push(l) });
    const c = chain(3);
    const a = w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 3) });
    assert.ok(a.ok, JSON.stringify(a));
    assert.ok(
      logged.some((l) => l.terminal === 'T' && String(l.message).includes('no head yet')),
      JSON.stringify(logged),
    );
    w.close();
  });

  it('fails loudly, never from genesis, when its head file is damaged or gone but the record shows heads it signed', () => {
    const dir = fresh();
    const k = key();
    const c = chain(10);
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 10) }).ok);
    w.close();
    const file = path.join(dir, 'heads', 'T');
    const rolledBack = chain(3, '-rolled-back');
    const tries = (why: string) => {
      const logged: Record<string, unknown>[] = [];
      w = new Witness({ dir, key: k, log: (l) => logged.push(l) });
      assert.ok(
        logged.some((l) => l.level === 'error' && l.terminal === 'T' && String(l.message).includes(file)),
        `${why}: logged at start, naming the file: ${JSON.stringify(logged)}`,
      );
      assert.throws(() => w.headOf('T'), new RegExp(file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), why);
      for (const r of [
        { id: 2, op: 'head', terminal: 'T' },
        { id: 3, op: 'witness', terminal: 'T', from: G, links: rolledBack.links, to: at(rolledBack, 3) },
      ]) {
        const a = w.handle(r);
        assert.equal(refused(a), 'failed', `${why}: ${JSON.stringify(a)}`);
        assert.ok(!a.ok && a.message.includes(file) && a.message.includes('etg witness forget'), `${why}: the answer names the file: ${a.ok ? '' : a.message}`);
      }
      w.close();
    };
    // Both slots unreadable (media damage, both torn in one page write): not "no head yet".
    writeFileSync(file, Buffer.alloc(1024, 0));
    tries('both slots zeroed');
    // The head file gone while the record holds the terminal's first head.
    rmSync(file);
    tries('the head file deleted');
    // Another terminal is served all the same; and `forget` accepts the loss by hand.
    w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 4, op: 'head', terminal: 'U' }).ok);
    w.close();
    forgetTerminal(dir, 'T', 'test');
    w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 5, op: 'witness', terminal: 'T', from: G, links: rolledBack.links, to: at(rolledBack, 3) }).ok);
    w.close();
  });

  it('fails loudly when its head file holds a head below one the record shows it signed (an older copy of the file put back)', () => {
    const dir = fresh();
    const k = key();
    const c = chain(20);
    let clock = 0;
    let w = new Witness({ dir, key: k, clock: () => new Date(1_800_000_000_000 + clock), monotonic: () => clock, headEveryMs: 1 });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 5), to: at(c, 5) }).ok);
    const file = path.join(dir, 'heads', 'T');
    const old = readFileSync(file);
    clock += 10;
    assert.ok(w.handle({ id: 2, op: 'witness', terminal: 'T', from: at(c, 5), links: c.links.slice(5, 20), to: at(c, 20) }).ok);
    w.close();
    writeFileSync(file, old);
    w = new Witness({ dir, key: k });
    assert.equal(refused(w.handle({ id: 3, op: 'head', terminal: 'T' })), 'failed');
    w.close();
  });

  it("fails loudly when its head file holds another terminal's head (another head file copied over it): never signs on from that chain", () => {
    const dir = fresh();
    const k = key();
    const c = chain(3);
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 3) }).ok);
    // Terminal U, further on: its head file holds a head the witness signed, of U.
    const uLinks = Array.from({ length: 10 }, (_, i) => createHash('sha256').update(`u${i}`).digest('hex'));
    const uHead = uLinks.reduce((h, l) => chainHash(h, l), genesisHash('U'));
    assert.ok(w.handle({ id: 2, op: 'witness', terminal: 'U', from: { seq: 0, hash: genesisHash('U') }, links: uLinks, to: { seq: 10, hash: uHead } }).ok);
    w.close();
    const file = path.join(dir, 'heads', 'T');
    writeFileSync(file, readFileSync(path.join(dir, 'heads', 'U')));
    w = new Witness({ dir, key: k });
    const head = w.handle({ id: 3, op: 'head', terminal: 'T' });
    assert.equal(refused(head), 'failed', `T's head is not U's: ${JSON.stringify(head)}`);
    assert.ok(!head.ok && head.message.includes(file), head.ok ? '' : head.message);
    // Going on from U's head as T's: refused, no head of T signed off T's chain.
    const link = createHash('sha256').update('forked').digest('hex');
    const forked = w.handle({
      id: 4,
      op: 'witness',
      terminal: 'T',
      from: { seq: 10, hash: uHead },
      links: [link],
      to: { seq: 11, hash: chainHash(uHead, link) },
    });
    assert.equal(refused(forked), 'failed', `no head of T from U's chain: ${JSON.stringify(forked)}`);
    // U is served all the same.
    assert.ok(w.handle({ id: 5, op: 'head', terminal: 'U' }).ok);
    w.close();
  });

  it("starts again after a power cut tore the record's last line, and after a write the disk cut short", () => {
    const dir = fresh();
    const k = key();
    const c = chain(3);
    const record = path.join(dir, 'record.jsonl');
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 3) }).ok);
    w.close();
    // The power cut: a line cut short, never fsynced, no answer depended on it.
    appendFileSync(record, '{"k":"head","head":{"terminal":"T","se');
    const logged: Record<string, unknown>[] = [];
    w = new Witness({ dir, key: k, log: (l) => logged.push(l) });
    const u = { seq: 0, hash: genesisHash('U') };
    const uLink = 'ab'.repeat(32);
    assert.ok(w.handle({ id: 2, op: 'witness', terminal: 'U', from: u, links: [uLink], to: { seq: 1, hash: chainHash(u.hash, uLink) } }).ok);
    w.close();
    w = new Witness({ dir, key: k });
    assert.equal(w.headOf('T')?.seq, 3);
    assert.equal(w.headOf('U')?.seq, 1);
    w.close();
    assert.ok(
      logged.some((l) => String(l.message).includes('torn')),
      `the torn tail cut off is logged: ${JSON.stringify(logged)}`,
    );
    assert.doesNotMatch(readFileSync(record, 'utf8'), /"se\n/, 'the fragment is gone from the record');

    // A full disk: the write stops half way and throws. The half line is taken back, the record reads whole.
    const before = readFileSync(record);
    const r = new WitnessRecord(record, {
      write: (fd, bytes) => {
        writeSync(fd, bytes.subarray(0, 10));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    assert.throws(() => r.append({ k: 'forget', at: new Date().toISOString(), terminal: 'U', head: null, by: 'test' }), /ENOSPC/);
    r.close();
    assert.deepEqual(readFileSync(record), before, 'nothing of the failed line is left');
    // Short writes (the kernel took part of it each time): the line goes out whole.
    const short = new WitnessRecord(record, { write: (fd, bytes) => writeSync(fd, bytes.subarray(0, 7)) });
    short.append({ k: 'forget', at: new Date().toISOString(), terminal: 'U', head: null, by: 'test' });
    short.close();
    assert.equal(new WitnessRecord(record).read().at(-1)?.k, 'forget');
  });

  it('forgets no terminal whose id the record would refuse: a space, a path (the witness would not start again, or its record deleted)', () => {
    const dir = fresh();
    const k = key();
    const c = chain(3);
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 3) }).ok);
    w.close();
    const record = path.join(dir, 'record.jsonl');
    const before = readFileSync(record);
    for (const bad of ['table 7', '../record.jsonl', '..', '', '.hidden', 'T/../../x']) {
      assert.throws(() => forgetTerminal(dir, bad, 'test'), /not a terminal id/, JSON.stringify(bad));
      assert.deepEqual(readFileSync(record), before, `${JSON.stringify(bad)}: nothing written, nothing removed`);
    }
    w = new Witness({ dir, key: k });
    assert.equal(w.headOf('T')?.seq, 3, 'the witness starts, its head kept');
    w.close();
  });

  it('serves at most 64 terminals when none is configured: a flood of new ids makes no head file, no record line each, no memory', () => {
    const dir = fresh();
    const k = key();
    const w = new Witness({ dir, key: k });
    const first = (t: string, id: number) => {
      const g = { seq: 0, hash: genesisHash(t) };
      const l = 'cd'.repeat(32);
      return w.handle({ id, op: 'witness', terminal: t, from: g, links: [l], to: { seq: 1, hash: chainHash(g.hash, l) } });
    };
    for (let i = 0; i < 64; i++) assert.ok(first(`T${i}`, i).ok, `T${i}`);
    const lines = () => readFileSync(path.join(dir, 'record.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    const before = lines();
    for (let i = 64; i < 1_000; i++) {
      const a = first(`T${i}`, i);
      assert.equal(refused(a), 'unknown-terminal');
      assert.match(a.ok ? '' : a.message, /at most 64 terminals.*--terminal/);
      // Asking after one (its head, its fold) holds nothing for it either.
      assert.ok(w.handle({ id: i, op: 'head', terminal: `Q${i}` }).ok);
      assert.ok(w.handle({ id: i, op: 'folded', terminal: `Q${i}` }).ok);
    }
    assert.equal(readdirSync(path.join(dir, 'heads')).length, 64, 'no head file past the cap');
    assert.equal(lines() - before, 1, 'one refused line for the burst (the rest counted)');
    // The 64 are served as before, and again after a restart.
    assert.ok(first('T3', 2_000).ok);
    w.close();
    const again = new Witness({ dir, key: k });
    assert.equal(again.headOf('T63')?.seq, 1);
    assert.equal(
      refused(
        again.handle({
          id: 1,
          op: 'witness',
          terminal: 'T64',
          from: { seq: 0, hash: genesisHash('T64') },
          links: [],
          to: { seq: 0, hash: genesisHash('T64') },
        }),
      ),
      'unknown-terminal',
    );
    again.close();
  });

  it('answers a head durable in its slot as signed when its record cannot take the line (a full disk), and logs it', () => {
    const logged: Record<string, unknown>[] = [];
    const dir = fresh();
    const k = key();
    const w = new Witness({ dir, key: k, log: (l) => logged.push(l) });
    const record = (w as unknown as { record: { append: (line: unknown) => void } }).record;
    record.append = () => {
      throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
    };
    const c = chain(5);
    const a = w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 5), to: at(c, 5) });
    assert.ok(a.ok && a.op === 'witness', JSON.stringify(a));
    assert.ok(
      logged.some((l) => l.level === 'error' && String(l.message).includes('ENOSPC')),
      JSON.stringify(logged),
    );
    w.close();
    // The head was durable: a restart holds it.
    const again = new Witness({ dir, key: k });
    assert.equal(again.headOf('T')?.seq, 5);
    again.close();
  });

  it('serves only the terminals it is given', () => {
    const w = new Witness({ dir: fresh(), key: key(), terminals: ['A'] });
    const c = chain(1);
    assert.equal(refused(w.handle({ id: 1, op: 'head', terminal: 'T' })), 'unknown-terminal');
    assert.equal(refused(w.handle({ id: 2, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 1) })), 'unknown-terminal');
    w.close();
  });

  it('refuses a key file others can read, or that is not a key, and never replaces one', () => {
    const file = path.join(root, 'k.pem');
    const made = writeNewKeyFile(file);
    assert.deepEqual(createPublicKey(readKeyFile(file)).export({ format: 'jwk' }), createPublicKey(made).export({ format: 'jwk' }));
    assert.throws(() => writeNewKeyFile(file), /never replaced/);
    chmodSync(file, 0o640);
    assert.throws(() => readKeyFile(file), /readable by others/);
    // Not a key at all: named, not OpenSSL's "DECODER routines::unsupported" alone.
    const garbage = path.join(root, 'garbage.pem');
    writeFileSync(garbage, 'garbage\n', { mode: 0o600 });
    assert.throws(() => readKeyFile(garbage), new RegExp(`^KeyFileError: ${garbage} is not a private key in PEM \\(.*\\): `));
  });
});

describe('the socket, against a hostile client', () => {
  async function talk(socket: string, lines: string[]): Promise<Answer[]> {
    return new Promise((resolve, reject) => {
      const s = net.createConnection(socket);
      let buf = '';
      s.setEncoding('utf8');
      s.on('data', (d: string) => (buf += d));
      s.on('error', reject);
      s.on('close', () =>
        resolve(
          buf
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Answer),
        ),
      );
      s.on('connect', () => {
        for (const l of lines) s.write(l);
        setTimeout(() => s.end(), 200);
      });
    });
  }

  it('refuses every malformed request with a typed answer and goes on serving', async () => {
    const w = new Witness({ dir: fresh(), key: key() });
    const socket = path.join(root, 'w.sock');
    const l = await listenWitness(w, { socket });
    try {
      const answers = await talk(socket, [
        '{"id":1,"op":"hello"}\n',
        '{"id":2,"op":"sign-anything","what":"x"}\n',
        '{"id":3,"op":"witness","terminal":"T","from":{"seq":-1,"hash":"zz"},"links":[],"to":{"seq":1,"hash":"00"}}\n',
        '{"id":4,"op":"head","terminal":"../../etc/passwd"}\n',
        '{"id":5,"op":"head","terminal":"T","extra":true}\n',
        '{"id":6,"op":"head","terminal":"T"}\n',
      ]);
      assert.deepEqual(
        answers.map((a) => (a.ok ? a.op : a.error)),
        ['hello', 'bad-request', 'bad-request', 'bad-request', 'bad-request', 'head'],
      );
      // Not JSON: refused, and that connection ends; a line longer than the protocol allows: the same.
      assert.deepEqual(
        (await talk(socket, ['not json\n', '{"id":7,"op":"hello"}\n'])).map((a) => (a.ok ? a.op : a.error)),
        ['bad-request'],
      );
      assert.deepEqual(
        (await talk(socket, ['{"id":8,"op":"hello","x":"' + 'a'.repeat(4_300_000)])).map((a) => (a.ok ? a.op : a.error)),
        ['bad-request'],
      );
      // Another client is served as before.
      assert.deepEqual(
        (await talk(socket, ['{"id":9,"op":"head","terminal":"T"}\n'])).map((a) => (a.ok ? a.op : a.error)),
        ['head'],
      );
    } finally {
      await l.close();
      w.close();
    }
  });

  const connect = (socket: string) =>
    new Promise<net.Socket>((resolve, reject) => {
      const s = net.createConnection(socket, () => resolve(s));
      s.on('error', reject);
    });
  const closed = (s: net.Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

  it('serves a new client while many others sit idle; ends a connection that stalls mid-line, then one idle past its limit', async () => {
    const w = new Witness({ dir: fresh(), key: key() });
    const socket = path.join(root, 'idle.sock');
    const l = await listenWitness(w, { socket }, { partialLineMs: 300, idleMs: 3_000, sweepMs: 50 });
    const idle: net.Socket[] = [];
    try {
      // Twenty connections from any local process, doing nothing: the host is still answered.
      for (let i = 0; i < 20; i++) idle.push(await connect(socket));
      assert.deepEqual(
        (await talk(socket, ['{"id":1,"op":"hello"}\n'])).map((a) => (a.ok ? a.op : a.error)),
        ['hello'],
      );
      // Half a line, then nothing: ended once it stalls past partialLineMs; the silent ones later, past idleMs.
      const stalled = await connect(socket);
      stalled.write('{"id":2,"op":"hel');
      const t0 = Date.now();
      await closed(stalled);
      // Before the idle limit (3 s), which the idle ones below are still short of: the stall is what ended it.
      assert.ok(Date.now() - t0 < 3_000, `the stalled line ended in ${Date.now() - t0} ms`);
      assert.ok(
        idle.every((s) => !s.destroyed),
        'the idle ones are not cut yet',
      );
      await Promise.all(idle.map(closed));
    } finally {
      for (const s of idle) s.destroy();
      await l.close();
      w.close();
    }
  });

  it('a wall clock stepped an hour at every reading (NTP, a technician) neither spares a stalled line nor cuts a live client as idle', async () => {
    const w = new Witness({ dir: fresh(), key: key() });
    const socket = path.join(root, 'steps.sock');
    const l = await listenWitness(w, { socket }, { partialLineMs: 300, idleMs: 3_000, sweepMs: 50 });
    const wall = Date.now;
    let readings = 0;
    try {
      for (const direction of [1, -1]) {
        Date.now = () => wall() + direction * 3_600_000 * ++readings;
        const live = await connect(socket);
        live.write('{"id":1,"op":"hello"}\n');
        const stalled = await connect(socket);
        stalled.write('{"id":2,"op":"hel');
        const t0 = performance.now();
        await closed(stalled);
        assert.ok(performance.now() - t0 >= 250 && performance.now() - t0 < 3_000, `the stalled line ended after ${performance.now() - t0} ms`);
        assert.equal(live.destroyed, false, `a client that spoke a moment ago is not idle (step ${direction})`);
        live.destroy();
        Date.now = wall;
      }
    } finally {
      Date.now = wall;
      await l.close();
      w.close();
    }
  });

  it('stops reading from a client that sends requests and never reads the answers', async () => {
    const w = new Witness({ dir: fresh(), key: key() });
    const socket = path.join(root, 'flood.sock');
    const l = await listenWitness(w, { socket }, { stalledMs: 60_000 });
    const s = await connect(socket);
    try {
      s.pause();
      const request = '{"id":1,"op":"head","terminal":"T"}\n';
      const batch = request.repeat(Math.floor((64 * 1024) / request.length));
      // About 21 MB of requests, written without reading an answer (the write buffers what the witness does not take).
      for (let sent = 0; sent < 21_000_000; sent += batch.length) s.write(batch);
      await new Promise((r) => setTimeout(r, 1_500));
      const buffered = l.stats().bufferedBytes;
      assert.ok(buffered < 4 * 1024 * 1024, `the witness holds ${buffered} bytes of answers for it`);
      assert.ok(s.writableLength > 10_000_000, 'the client is the one left holding its requests');
    } finally {
      s.destroy();
      await l.close();
      w.close();
    }
  });
});
