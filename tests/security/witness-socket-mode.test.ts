// A review of 7 December: `listenWitness` (witness/server.ts) made its socket with the process's
// default mode and set the restrictive one only once listening had resolved, so for that moment a
// local user outside the kiosk's group could connect to it (a connection, once made, outlives a
// later chmod). The socket must have its mode from the moment it exists.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { listenWitness, Witness } from '../../witness/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-socket-mode-'));
after(() => rmSync(root, { recursive: true, force: true }));

function witness(name: string): Witness {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return new Witness({ dir: path.join(root, name), key: { privateKey, publicKey, store: 'file' } });
}

const modeOf = (file: string) => lstatSync(file).mode & 0o777;

describe("the witness's socket mode", () => {
  for (const mode of [undefined, 0o600]) {
    const want = mode ?? 0o660;
    it(`has mode ${want.toString(8)} from the moment the socket file exists, not only once listening resolved`, async () => {
      const w = witness(`m${want.toString(8)}`);
      const socket = path.join(root, `m${want.toString(8)}.sock`);
      const umask = process.umask(0o022);
      try {
        const listening = listenWitness(w, mode === undefined ? { socket } : { socket, mode });
        // The socket is bound within the call (Node binds a path synchronously): this is its first mode.
        const first = modeOf(socket);
        const l = await listening;
        try {
          assert.equal(first.toString(8), want.toString(8), 'the mode the socket was made with');
          assert.equal(modeOf(socket).toString(8), want.toString(8), 'the mode once listening');
          assert.equal(process.umask(), 0o022, "the process's umask is given back");
        } finally {
          await l.close();
        }
      } finally {
        process.umask(umask);
        w.close();
      }
    });
  }

  it("gives the process's umask back when listening fails", async () => {
    const w = witness('fails');
    const umask = process.umask(0o022);
    try {
      await assert.rejects(listenWitness(w, { socket: path.join(root, 'no-such-folder', 'w.sock') }));
      assert.equal(process.umask(), 0o022);
    } finally {
      process.umask(umask);
      w.close();
    }
  });
});
