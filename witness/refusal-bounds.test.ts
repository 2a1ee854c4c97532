// A refusal quotes what the request said (a body's terminal, a state's keys): from a hostile peer
// that can be megabytes. The answer must stay within the protocol the host's client parses
// (witness/wire.ts `Refusal`: a message of at most 2,000 characters), and the record and the log
// must not take the megabytes (each refusal recorded pushes the archives, and what they hold, out).
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RECORD_FILE } from './record.js';
import { freshDirs, Journal, lines, ok, refused, testKey } from './test-kit.js';
import { Witness } from './witness.js';
import { Answer } from './wire.js';

const fresh = freshDirs('witness-refusal-');

describe('a refusal that quotes a hostile request', () => {
  it('is answered within the protocol, and recorded and logged bounded', () => {
    const dir = fresh();
    const logged: string[] = [];
    const w = new Witness({ dir, key: testKey(), refusalEveryMs: 0, log: (l) => logged.push(JSON.stringify(l)) });
    const j = new Journal('T', 2);
    const from = j.head();
    j.add(1);
    ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from, links: j.links, to: j.head() }));
    const size = () => statSync(path.join(dir, RECORD_FILE)).size;
    const before = size();
    const long = 'x'.repeat(1_000_000);
    // A body naming a terminal a megabyte long: refused `bad-chain`, its message quoting the name.
    const body = JSON.stringify({ v: 1, terminal: long, seq: 1, type: 'door.open', payload: {}, postings: [], meters: [] });
    const a = w.handle({ id: 2, op: 'fold', terminal: 'T', from, bodies: [body], to: j.head() });
    assert.equal(refused(a), 'bad-chain');
    assert.ok(Answer.safeParse(a).success, `the refusal is out of protocol: a message of ${a.ok ? 0 : a.message.length} characters`);
    // A state naming a terminal a megabyte long, at the witness's head and fold: refused `not-derived`.
    ok(w.handle({ id: 3, op: 'fold', terminal: 'T', from, bodies: j.bodies, to: j.head() }));
    const state = JSON.stringify({ ...JSON.parse(j.state()), terminal: long });
    const b = w.handle({ id: 4, op: 'checkpoint', terminal: 'T', ...j.head(), state });
    assert.equal(refused(b), 'not-derived');
    assert.ok(Answer.safeParse(b).success, `the refusal is out of protocol: a message of ${b.ok ? 0 : b.message.length} characters`);
    assert.ok(size() - before < 10_000, `two refusals took ${size() - before} bytes of the record`);
    assert.ok(
      logged.every((l) => l.length < 10_000),
      `a log line of ${Math.max(...logged.map((l) => l.length))} characters`,
    );
    w.close();
  });
});

describe('a flood of one refusal', () => {
  it('does not keep another kind out of the record and the log', () => {
    // Refusals are recorded at most once per allowance, the rest counted. With one allowance for
    // all of them, a peer sending a bad request every second kept a `diverging` refusal (a
    // rewritten journal) out of the record and the log for good: only counted in the next line.
    const dir = fresh();
    const mono = { ms: 0 };
    const logged: Record<string, unknown>[] = [];
    const w = new Witness({ dir, key: testKey(), terminals: ['T'], monotonic: () => mono.ms, refusalEveryMs: 10_000, log: (l) => logged.push(l) });
    const j = new Journal('T', 2);
    j.add(2);
    ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: j.head(0), links: j.links, to: j.head() }));
    const flood = () => refused(w.handle({ id: 2, op: 'head', terminal: 'X' }));
    assert.equal(flood(), 'unknown-terminal');
    mono.ms += 1_000;
    const forged = new Journal('T', 3);
    forged.add(2);
    assert.equal(refused(w.handle({ id: 3, op: 'witness', terminal: 'T', from: forged.head(0), links: forged.links, to: forged.head() })), 'diverging');
    for (let i = 0; i < 30; i++) {
      mono.ms += 1_000;
      flood();
    }
    const errors = lines(path.join(dir, RECORD_FILE)).flatMap((l) => (l.k === 'refused' ? [l.error] : []));
    assert.ok(errors.includes('diverging'), `the record's refusals: ${errors.join(', ')}`);
    assert.ok(
      logged.some((l) => l.error === 'diverging'),
      'the diverging refusal is logged',
    );
    assert.ok(errors.filter((e) => e === 'unknown-terminal').length <= 4, 'the flood is still held to its allowance');
    w.close();
  });
});
