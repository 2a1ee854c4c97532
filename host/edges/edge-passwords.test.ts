// The NATS users' passwords kept in `<data>/edges/` (users.json, one `<edge>.password` each).
// Before: both were written in place (truncated, then written) at every start, so a power cut in
// between left users.json empty or cut short, and the next start stopped on a bare
// `SyntaxError: Unexpected end of JSON input` naming no file (deleting the file, the one way out,
// makes every edge's password anew). Now each file is replaced whole (a temporary file, flushed,
// renamed), only when its content changes, and a users.json that cannot be read stops the start
// naming the file and what to do.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { edgePasswords } from './table-edges.js';

describe("the edges' NATS passwords on disk", () => {
  it('replaces each file whole (a new inode, no temporary file left), and leaves unchanged files alone', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-passwords-'));
    try {
      const first = edgePasswords(dir, ['north']);
      const users = path.join(dir, 'users.json');
      const inode = (f: string) => statSync(path.join(dir, f)).ino;
      const before = { users: inode('users.json'), north: inode('north.password') };
      // A start with an edge added: users.json changes (replaced whole), north's file does not (left alone).
      const second = edgePasswords(dir, ['north', 'south']);
      assert.equal(second.get('north'), first.get('north'));
      assert.deepEqual(
        { usersReplaced: inode('users.json') !== before.users, northKept: inode('north.password') === before.north },
        { usersReplaced: true, northKept: true },
      );
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.includes('.tmp')),
        [],
        'no temporary file left',
      );
      assert.equal(readFileSync(path.join(dir, 'south.password'), 'utf8').trim(), second.get('south'));
      assert.equal(statSync(users).mode & 0o077, 0, 'owner-only');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a users.json left empty, cut short or not ours stops the start naming the file and what to do, and is left as found', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-passwords-'));
    try {
      edgePasswords(dir, ['north']);
      const file = path.join(dir, 'users.json');
      for (const damaged of ['', '{"host":"abcdefghijklmnopqrstuvwxyz0123456789', '{"host":7}']) {
        writeFileSync(file, damaged);
        let message = '';
        try {
          edgePasswords(dir, ['north']);
        } catch (e) {
          message = e instanceof Error ? e.message : String(e);
        }
        assert.ok(message.includes(file), `names the file: ${message}`);
        assert.match(message, /restore it from a backup/i, 'says what to do');
        assert.match(message, /\.password/, 'says what deleting it costs: every edge’s password made anew');
        assert.equal(readFileSync(file, 'utf8'), damaged, 'left as found, for the operator');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an edge named 'host', whose file would carry the host's own password to an edge's machine", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-passwords-'));
    try {
      assert.throws(() => edgePasswords(dir, ['edge-1', 'host']), /host/);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.password')),
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
