// The witness's rules, alone (no kiosk code): it signs a head only when the links it is given lead
// from the head it signed before (or from genesis), refuses a lower or diverging head, survives a
// restart and a torn slot, signs a checkpoint only at its head and one state per entry, and answers
// a hostile client on its socket with refusals, never a crash.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { chainHash, genesisHash } from './chain.js';
import { forgetTerminal } from './forget.js';
import { readKeyFile, writeNewKeyFile, type WitnessKey } from './keys.js';
import { listenWitness } from './server.js';
import { headStatement, statementSigned } from './statement.js';
import { Witness } from './witness.js';
import type { Answer, SignedHead } from './wire.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => path.join(root, `w${++n}`);

function key(): WitnessKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, store: 'file' };
}

/** A chain of `count` entries for terminal T: content hashes and the hash after each. */
function chain(count: number, salt = ''): { links: string[]; hashes: string[] } {
  const links: string[] = [];
  const hashes: string[] = [];
  let h = genesisHash('T');
  for (let i = 1; i <= count; i++) {
    const c = createHash('sha256').update(`entry ${i}${salt}`).digest('hex');
    h = chainHash(h, c);
    links.push(c);
    hashes.push(h);
  }
  return { links, hashes };
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
    // A slot whose signature is not the witness's (someone wrote it) is not believed either.
    w.close();
    w = new Witness({ dir, key: key() });
    assert.equal(w.headOf('T'), null);
    w.close();
  });

  it('signs a checkpoint at its head only, one state per entry; a forgotten terminal starts again from genesis', () => {
    const dir = fresh();
    const k = key();
    const c = chain(12);
    const state = createHash('sha256').update('state').digest('hex');
    const other = createHash('sha256').update('other').digest('hex');
    let w = new Witness({ dir, key: k });
    assert.ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: G, links: c.links.slice(0, 10), to: at(c, 10) }).ok);
    assert.equal(refused(w.handle({ id: 2, op: 'checkpoint', terminal: 'T', ...at(c, 9), stateSha256: state })), 'not-at-head');
    assert.equal(refused(w.handle({ id: 3, op: 'checkpoint', terminal: 'T', seq: 10, hash: c.hashes[8] as string, stateSha256: state })), 'not-at-head');
    const a = w.handle({ id: 4, op: 'checkpoint', terminal: 'T', ...at(c, 10), stateSha256: state });
    assert.ok(a.ok);
    assert.deepEqual(w.handle({ id: 4, op: 'checkpoint', terminal: 'T', ...at(c, 10), stateSha256: state }), a);
    w.close();
    // After a restart too: another state at entry 10 is refused (the record holds the one signed).
    w = new Witness({ dir, key: k });
    assert.equal(refused(w.handle({ id: 5, op: 'checkpoint', terminal: 'T', ...at(c, 10), stateSha256: other })), 'checkpoint-conflict');
    w.close();
    const forgotten = forgetTerminal(dir, 'T', 'test');
    assert.equal(forgotten?.seq, 10);
    w = new Witness({ dir, key: k });
    assert.equal(w.headOf('T'), null);
    const forged = chain(12, '-restored');
    assert.ok(w.handle({ id: 6, op: 'witness', terminal: 'T', from: G, links: forged.links.slice(0, 10), to: at(forged, 10) }).ok);
    assert.ok(w.handle({ id: 7, op: 'checkpoint', terminal: 'T', ...at(forged, 10), stateSha256: other }).ok);
    w.close();
    const record = readFileSync(path.join(dir, 'record.jsonl'), 'utf8');
    assert.match(record, /"k":"forget".*"by":"test"/);
  });

  it('serves only the terminals it is given', () => {
    const w = new Witness({ dir: fresh(), key: key(), terminals: ['A'] });
    const c = chain(1);
    assert.equal(refused(w.handle({ id: 1, op: 'head', terminal: 'T' })), 'unknown-terminal');
    assert.equal(refused(w.handle({ id: 2, op: 'witness', terminal: 'T', from: G, links: c.links, to: at(c, 1) })), 'unknown-terminal');
    w.close();
  });

  it('refuses a key file others can read, and never replaces one', () => {
    const file = path.join(root, 'k.pem');
    const made = writeNewKeyFile(file);
    assert.deepEqual(createPublicKey(readKeyFile(file)).export({ format: 'jwk' }), createPublicKey(made).export({ format: 'jwk' }));
    assert.throws(() => writeNewKeyFile(file), /never replaced/);
    chmodSync(file, 0o640);
    assert.throws(() => readKeyFile(file), /readable by others/);
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
        (await talk(socket, ['{"id":8,"op":"hello","x":"' + 'a'.repeat(1_100_000)])).map((a) => (a.ok ? a.op : a.error)),
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
});
