// AFT registration killed between its journal entry and its answer (docs/sas.md, "AFT
// registration"): the station's process (./aft-kill/register-child.ts, the real host start on a
// socat pty pair) SIGKILLs itself right after the `aft.register` entry of a 0x73 register
// commits, before the answer is sent. The system (the host simulator, from the document) hears
// nothing; after the station starts again on its data folder, 0x73 FF reports the registration
// the journal holds, the key moves credit through 0x72, another key is 89, and the entry is in the
// journal once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { RunningHost } from '../../host/start-host.js';
import { entryCount } from '../../ledger/index.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as A from './host/aft.js';
import { keyOf, REG, REG_STATUS, register73, register73Bytes } from './host/aft-register.js';
import { ADDRESS, ASSET, STATION, startAftStation } from './aft-kill/setup.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'aft-kill', 'register-child.ts');
const POS = 4242;

describe('AFT registration: killed after its entry commits, before its answer', () => {
  it('the restarted station answers FF with the registration it journalled, once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-reg-kill-'));
    const dataDir = path.join(dir, 'data');
    const pair = await ptyPair(dir);
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, pair.machine], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let io: HostIo | null = null;
    let running: RunningHost | null = null;
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('exit', (code, signal) => reject(new Error(`the station exited before it was ready (${code ?? signal})`)));
        if (!child.stdout) return reject(new Error('no stdout'));
        createInterface({ input: child.stdout }).once('line', () => resolve());
      });
      io = await openPtyHost(pair.host);
      const h = new SasHost(io, ADDRESS);
      const sync = async (): Promise<void> => {
        for (let i = 0; i < 10; i++) {
          await h.pollOther();
          if ((await h.exchange([0x80 | ADDRESS], 1, 2_000)) !== null) return;
        }
        assert.fail('the station never answered');
      };
      await sync();
      assert.equal((await register73(h, REG.initialise, { asset: ASSET, key: new Array<number>(20).fill(0), pos: 0 })).status, REG_STATUS.ready);
      // The register: the station dies after its entry commits; the system hears nothing.
      await h.pollOther();
      const bytes = register73Bytes(ADDRESS, REG.register, { asset: ASSET, key: keyOf(11), pos: POS });
      let dead = false;
      void exited.then(() => (dead = true));
      for (let attempt = 0; !dead && attempt < 4; attempt++) {
        assert.equal(await h.exchange(bytes, 'variable', 2_000), null, 'answered though killed');
        if (!dead) await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      }
      assert.ok(dead, 'the station did not die');
      running = await startAftStation(dataDir, pair.machine);
      await sync();
      assert.deepEqual(await register73(h, REG.read), { status: REG_STATUS.registered, asset: ASSET, key: keyOf(11), pos: POS });
      assert.equal(entryCount(running.ledger, ['aft.register']), 2, 'initialise and register, each once');
      const ask = (id: string, key: number[]): A.TransferAsk => ({ type: 0x00, cashable: 500, asset: ASSET, id, key });
      assert.equal((await A.transfer72(h, ask('KILL-REG-1', keyOf(11)))).status, 0x00);
      assert.equal((await A.transfer72(h, ask('KILL-REG-2', keyOf(12)))).status, 0x89);
      assert.equal(running.ledger.credit(STATION), 500);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await running?.close();
      await io?.close();
      pair.socat.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
