// Long poll 0x21 (ROM signature, SAS §6.1) flooded with new seeds (a review: F5). Each poll started
// a new read of the program (host/start/program-image.ts, a read stream per file), and a superseded
// computation noticed it was stale only once its first 64 KiB part had been read: 20,000 polls with
// different seeds held ~20,000 files open and +1.6 GiB. At most one computation runs per machine;
// a new seed supersedes the one running, which closes its read before the newest opens its own.
// The signature reported is the newest seed's.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { realClock } from '../../hardware/clock.js';
import { crc16Kermit } from '../../hardware/crc.js';
import { SasMachine } from '../../hardware/sas/machine.js';
import { programImage } from '../../host/start/program-image.js';
import { MemoryGame } from './fixture.js';
import { appendCrc } from './host/codec.js';

const A = 7;
const POLLS = 20_000;
const openFiles = (): number => readdirSync('/proc/self/fd').length;

describe('SAS 0x21 flooded with new seeds', () => {
  it('holds at most one read of the program open, memory bounded, and reports the newest seed’s signature', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sas-rom-flood-'));
    try {
      const program = new Uint8Array(2 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
      writeFileSync(path.join(root, 'main.js'), program);
      const game = new MemoryGame();
      game.romImage = () => programImage(root, ['main.js']);
      const out: number[][] = [];
      const failed: unknown[] = [];
      const machine = new SasMachine({ address: A, game, clock: realClock, write: (b) => out.push([...b]) });
      machine.events.on((e) => {
        if (e.type === 'poll-failed') failed.push(e.error);
      });
      const send = (bytes: number[]): void => bytes.forEach((b, i) => machine.char(b, i === 0));
      send([0x80 | 9]);
      const files0 = openFiles();
      const rss0 = process.memoryUsage().rss;
      let seed = 0;
      for (let i = 0; i < POLLS; i++) {
        seed = (i * 7919) & 0xffff;
        send(appendCrc([A, 0x21, seed & 0xff, seed >>> 8]));
        send([0x80 | 9]); // another address: the implied ACK of the 0x21's ACK
      }
      let peakFiles = 0;
      let peakRss = 0;
      let signature: number[] | undefined;
      const deadline = Date.now() + 30_000;
      while (signature === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        peakFiles = Math.max(peakFiles, openFiles() - files0);
        peakRss = Math.max(peakRss, process.memoryUsage().rss - rss0);
        out.length = 0;
        send([0x80 | A]); // a general poll: the signature once computed
        signature = out.find((r) => r[1] === 0x21);
        send([0x80 | 9]);
      }
      console.log(`${POLLS} 0x21 polls: peak extra open files ${peakFiles}, peak extra RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
      assert.deepEqual(failed, []);
      assert.ok(signature, 'a signature is reported');
      const crc = crc16Kermit(program, 0, program.length, seed);
      assert.deepEqual(signature.slice(2, 4), [crc & 0xff, crc >>> 8], 'the newest seed’s');
      assert.ok(peakFiles <= 4, `at most one read open (peak ${peakFiles} extra files)`);
      assert.ok(peakRss < 256 * 2 ** 20, `memory bounded (peak +${(peakRss / 2 ** 20).toFixed(0)} MiB)`);
      machine.stop();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
