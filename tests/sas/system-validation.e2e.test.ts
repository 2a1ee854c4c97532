// System validation (SAS 6.02 §15.7–15.9; docs/sas.md, "System validation") over a socat pty pair:
// the machine side's 0x57/0x58 and exception 57, driven by the host simulator's own layouts
// (tests/sas/host/system-validation.ts). The station here is the cycle alone with a record of its
// ends; the host's journalling of them is tested with the real host (system-validation-host).
// The system lies in every way the two polls allow: a number with no cash-out waiting, a number
// that is not BCD, a number already on the floor, the number twice, a poll to another address;
// each is refused as the document says and ends nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSasLink, type SasLink } from '../../hardware/sas/link.js';
import { SystemValidationCycle, type SystemValidationEnd } from '../../hardware/sas/system-validation.js';
import { MemoryGame } from './fixture.js';
import { SasHost } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import { SV, awaitException, pendingCashout57, receive58, receive58Bytes } from './host/system-validation.js';

const ADDRESS = 6;
const TIMEOUT_MS = 1_500;

interface Rig {
  host: SasHost;
  cycle: SystemValidationCycle;
  ends: SystemValidationEnd[];
  floor: Set<string>;
  close(): Promise<void>;
}

async function rig(dir: string): Promise<Rig> {
  const pair = await ptyPair(dir);
  const ends: SystemValidationEnd[] = [];
  const floor = new Set<string>();
  const game = new MemoryGame();
  let link: SasLink | null = null;
  const cycle = new SystemValidationCycle({
    clock: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
    timeoutMs: TIMEOUT_MS,
    raise: () => link?.machine.raise(0x57),
    known: (v) => floor.has(v),
    ended: (e) => {
      ends.push(e);
      if (e.kind === 'number') floor.add(e.validation);
    },
  });
  game.systemValidation = cycle;
  link = openSasLink(`serial:${pair.machine}`, { address: ADDRESS, game });
  const io = await openPtyHost(pair.host);
  const host = new SasHost(io, ADDRESS);
  await host.pollOther();
  return {
    host,
    cycle,
    ends,
    floor,
    close: async () => {
      cycle.cancel();
      await link?.close();
      await io.close();
      pair.socat.kill();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('system validation: exception 57, long polls 0x57 and 0x58 over a socat pty pair', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-sysval-'));
  let r: Rig;
  before(async () => {
    r = await rig(dir);
  });
  after(async () => {
    await r?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('nothing waiting: 0x57 says not waiting (80, amount 0), 0x58 says not in cash-out (80) and ends nothing', async () => {
    assert.deepEqual(await pendingCashout57(r.host), { type: SV.notWaiting, amount: 0 });
    assert.equal(await receive58(r.host, 1, '1234567890123456'), SV.notInCashout);
    assert.deepEqual(r.ends, []);
  });

  it('an honest system: 57 raised, 0x57 reads the cash-out, 0x58 gives the number, acknowledged once; a second 0x58 finds no cash-out', async () => {
    r.ends.length = 0;
    assert.equal(r.cycle.begin(12_345), true);
    assert.equal(r.cycle.begin(1), false, 'one cash-out at a time');
    await awaitException(r.host, 0x57);
    assert.deepEqual(await pendingCashout57(r.host), { type: SV.cashable, amount: 12_345 });
    assert.equal(await receive58(r.host, 42, '0000000000001234'), SV.acknowledged);
    assert.deepEqual(r.ends, [{ kind: 'number', validation: '420000000000001234' }]);
    assert.equal(await receive58(r.host, 42, '0000000000009999'), SV.notInCashout, 'another number after it: not in cash-out');
    assert.deepEqual(await pendingCashout57(r.host), { type: SV.notWaiting, amount: 0 });
    assert.equal(r.ends.length, 1);
  });

  it('the same 0x58 sent again (a NACK by repetition, §3.2) is answered with the same bytes and taken once', async () => {
    r.ends.length = 0;
    r.cycle.begin(500);
    await awaitException(r.host, 0x57);
    const bytes = receive58Bytes(r.host.address, 7, '1111222233334444');
    await r.host.pollOther();
    const first = await r.host.exchange(bytes, 5);
    const again = await r.host.exchange(bytes, 5);
    assert.deepEqual(first?.[2], SV.acknowledged);
    assert.deepEqual(again, first);
    assert.deepEqual(r.ends, [{ kind: 'number', validation: '071111222233334444' }]);
  });

  it('a lying system: not BCD (system id or number), a number already on the floor → 81; the cash-out still waits and the right number is taken', async () => {
    r.ends.length = 0;
    r.cycle.begin(700);
    await awaitException(r.host, 0x57);
    assert.equal(await receive58(r.host, 0, '', [0x1a, ...Array<number>(8).fill(0x11)]), SV.rejected, 'system id not BCD');
    assert.equal(await receive58(r.host, 0, '', [0x12, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0xf1]), SV.rejected, 'number not BCD');
    assert.equal(await receive58(r.host, 7, '1111222233334444'), SV.rejected, 'a number already on the floor');
    assert.deepEqual(r.ends, []);
    assert.deepEqual(await pendingCashout57(r.host), { type: SV.cashable, amount: 700 }, 'still waiting');
    assert.equal(await receive58(r.host, 7, '5555666677778888'), SV.acknowledged);
    assert.deepEqual(r.ends, [{ kind: 'number', validation: '075555666677778888' }]);
  });

  it('a 0x57 or 0x58 to another address is not answered and changes nothing here', async () => {
    r.ends.length = 0;
    r.cycle.begin(800);
    await awaitException(r.host, 0x57);
    await r.host.pollOther();
    assert.equal(await r.host.exchange([ADDRESS + 1, 0x57], 10, 300), null);
    assert.equal(await r.host.exchange(receive58Bytes(ADDRESS + 1, 3, '0000000000000003'), 5, 300), null);
    assert.deepEqual(r.ends, []);
    assert.equal(await receive58(r.host, 0, '0000000000000000'), SV.acknowledged, 'system id 00: denied');
    assert.deepEqual(r.ends, [{ kind: 'denied' }]);
    assert.equal(await receive58(r.host, 9, '0000000000000009'), SV.notInCashout, 'a number after the denial moves nothing');
  });

  it('no answer within the timeout is a denial (§15.8); a 0x58 after it finds no cash-out', async () => {
    r.ends.length = 0;
    r.cycle.begin(900);
    await awaitException(r.host, 0x57);
    await sleep(TIMEOUT_MS + 300);
    assert.deepEqual(r.ends, [{ kind: 'timeout' }]);
    assert.equal(await receive58(r.host, 8, '0000000000000008'), SV.notInCashout);
    assert.equal(r.ends.length, 1);
  });

  it('a journal that cannot take the end leaves 0x58 unanswered and the cash-out waiting', async () => {
    const broken = new SystemValidationCycle({
      clock: { setTimeout: () => 0, clearTimeout: () => {} },
      raise: () => {},
      known: () => false,
      ended: () => {
        throw new Error('disk full');
      },
    });
    broken.begin(100);
    assert.throws(() => broken.receive(5, '0000000000000005'));
    assert.deepEqual(broken.pending(), { type: SV.cashable, amount: 100 });
  });
});
