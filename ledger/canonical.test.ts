import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { canonicalJson as engineCanonicalJson } from '../engine/canonical-json.js';
import { canonicalJson, chainHash, sha256Hex } from './canonical.js';

/** The canonical JSON as first written (map/filter/sort/join): the fast one must give the same bytes. */
function reference(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError('not a safe integer');
      return Object.is(value, -0) ? '0' : String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => reference(v === undefined ? null : v)).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`cannot hold a ${typeof value}`);
  }
}

const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant(-0)),
    fc.string({ unit: 'binary' }),
    fc.array(fc.oneof(tie('any'), fc.constant(undefined))),
    fc.dictionary(fc.string({ unit: 'binary' }), fc.oneof(tie('any'), fc.constant(undefined))),
  ),
})).any;

describe('canonical JSON and hashes', () => {
  it('property: the same bytes as the reference writer, for any JSON value (keys in any order, undefined members, -0, any string)', () => {
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(canonicalJson(v), reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts keys only when they are out of order, by UTF-16 code units, and refuses what it cannot hold', () => {
    assert.equal(canonicalJson({ b: 1, a: [2, undefined], c: undefined, é: -0, Z: 'x' }), '{"Z":"x","a":[2,null],"b":1,"é":0}');
    assert.equal(canonicalJson({ '\u{1F600}': 1, '\uFFFF': 2 }), reference({ '\u{1F600}': 1, '\uFFFF': 2 }));
    assert.throws(() => canonicalJson({ a: 0.5 }), /safe integers/);
    assert.throws(() => canonicalJson({ a: 2 ** 53 }), /safe integers/);
    assert.throws(() => canonicalJson({ a: () => 1 }), /cannot hold a function/);
  });

  it("is the one canonical JSON of the project: the engine's, which the table fold compares payloads with", () => {
    assert.equal(canonicalJson, engineCanonicalJson);
  });

  it('writes every body that journals on disk hold again byte for byte, and it hashes to its stored content hash', () => {
    // Journals recorded by build d7a140c, before the canonical JSON moved from the ledger to the
    // engine (tests/fixtures/upgrade/): a body the move changed would no longer match its hash.
    const fixtures = path.resolve(import.meta.dirname, '../tests/fixtures/upgrade');
    let bodies = 0;
    for (const dir of readdirSync(fixtures, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      // A copy: even read-only, SQLite leaves its WAL's side files beside a database it opens.
      const copy = mkdtempSync(path.join(os.tmpdir(), 'canonical-'));
      copyFileSync(path.join(fixtures, dir.name, 'ledger.sqlite'), path.join(copy, 'ledger.sqlite'));
      const db = new Database(path.join(copy, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
      try {
        const rows = db.prepare('SELECT seq, body, content_hash FROM journal ORDER BY seq').all() as { seq: number; body: string; content_hash: string }[];
        for (const row of rows) {
          assert.equal(canonicalJson(JSON.parse(row.body)), row.body, `${dir.name} entry ${row.seq}`);
          assert.equal(sha256Hex(row.body), row.content_hash, `${dir.name} entry ${row.seq}`);
        }
        bodies += rows.length;
      } finally {
        db.close();
        rmSync(copy, { recursive: true, force: true });
      }
    }
    assert.ok(bodies > 100, `only ${bodies} bodies on disk`);
  });

  it('hashes as SHA-256 of the body, and links as SHA-256 of the two hashes’ bytes', () => {
    const body = '{"a":"澳門"}';
    assert.equal(sha256Hex(body), createHash('sha256').update(body).digest('hex'));
    const a = sha256Hex('a');
    const b = sha256Hex('b');
    assert.equal(chainHash(a, b), createHash('sha256').update(Buffer.from(a, 'hex')).update(Buffer.from(b, 'hex')).digest('hex'));
    // Each half decoded on its own: a malformed half does not shift the other.
    assert.equal(chainHash('abc', b), createHash('sha256').update(Buffer.from('abc', 'hex')).update(Buffer.from(b, 'hex')).digest('hex'));
  });
});
