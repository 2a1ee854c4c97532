// The SAS link lost and found: a host that drops its TCP connection after reading an exception
// and comes back gets that exception again (it was never acknowledged) and then the rest, once
// each; a machine left without polls on a pty chirps its address with the wake-up bit and
// reports the link down, then up again when the host polls (SAS 6.02 §3.2, §4.2).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openSasLink } from '../../hardware/sas/link.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { MemoryGame } from './fixture.js';
import { SasHost } from './host/host.js';
import { listenTcpHost, openPtyHost, ptyPair } from './host/io.js';

const ADDRESS = 9;

async function until(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SAS link lost and found', () => {
  it('TCP: an exception read but not acknowledged before the host dropped is reported again to the host that reconnects, then the rest once each', async () => {
    const listener = await listenTcpHost();
    const link = openSasLink(`tcp:127.0.0.1:${listener.port}`, { address: ADDRESS, game: new MemoryGame(), reconnectBaseMs: 20, reconnectMaxMs: 100 });
    try {
      const first = new SasHost(await listener.connected, ADDRESS);
      for (const code of [0x11, 0x7e, 0x7f]) link.machine.raise(code);
      assert.equal(await first.generalPoll(), 0x11);
      (await listener.connected).close();
      const second = new SasHost(await listener.next(), ADDRESS);
      const seen: number[] = [];
      // The same general poll again (no poll to another address between): the implied NACK.
      const again = await second.generalPollAgain();
      if (again !== null) seen.push(again);
      for (let i = 0; i < 3; i++) seen.push(await second.generalPoll());
      assert.deepEqual(seen, [0x11, 0x7e, 0x7f, 0x00]);
    } finally {
      await link.close();
      await listener.close();
    }
  });

  it('pty: silent past the silence limit it chirps its address with the wake-up bit and reports the link down, then up when polled', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-chirp-'));
    const pair = await ptyPair(dir);
    // The silence limit shortened from SAS's 5 s so the test takes a second; the rule is the same.
    const link = openSasLink(`serial:${pair.machine}`, { address: ADDRESS, game: new MemoryGame(), silenceMs: 400, chirpMs: 100 });
    const events: SasLinkEvent[] = [];
    link.machine.events.on((e) => events.push(e));
    const io = await openPtyHost(pair.host);
    try {
      const host = new SasHost(io, ADDRESS);
      assert.equal(await host.generalPoll(), 0x00);
      await until('chirps', () => host.chirps.length >= 3);
      assert.ok(
        host.chirps.every((c) => c === ADDRESS),
        `chirps: ${host.chirps.join(' ')}`,
      );
      assert.deepEqual(events, [
        { type: 'link-up', again: false },
        { type: 'link-down', reason: 'no-address' },
      ]);
      assert.equal(await host.generalPoll(), 0x00);
      const chirped = host.chirps.length;
      await new Promise((r) => setTimeout(r, 250));
      assert.equal(host.chirps.length, chirped, 'no chirp while polled');
      assert.deepEqual(events.at(-1), { type: 'link-up', again: true });
    } finally {
      await link.close();
      await io.close();
      pair.socat.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
