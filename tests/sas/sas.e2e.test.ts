// The machine side of SAS (hardware/sas/) on a socat pty pair and on TCP, driven by the host
// simulator (tests/sas/host/, written from the document with its own codecs): every long poll
// the station answers, checked against the in-memory station; the exception queue's order,
// priorities, NACK and overflow; what a poll must not do (unknown command, bad CRC).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSasLink, type SasLink } from '../../hardware/sas/link.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { MemoryGame, METERS } from './fixture.js';
import { sasCrc } from './host/codec.js';
import { SasHost, type HostIo } from './host/host.js';
import { listenTcpHost, openPtyHost, ptyPair } from './host/io.js';
import * as P from './host/polls.js';

const ADDRESS = 3;

interface Rig {
  host: SasHost;
  game: MemoryGame;
  link: SasLink;
  events: SasLinkEvent[];
  close(): Promise<void>;
}

async function onPty(dir: string): Promise<Rig> {
  const pair = await ptyPair(dir);
  const game = new MemoryGame();
  const link = openSasLink(`serial:${pair.machine}`, { address: ADDRESS, game });
  const io = await openPtyHost(pair.host);
  return rig(io, game, link, async () => {
    await io.close();
    pair.socat.kill();
  });
}

async function onTcp(): Promise<Rig> {
  const listener = await listenTcpHost();
  const game = new MemoryGame();
  const link = openSasLink(`tcp:127.0.0.1:${listener.port}`, { address: ADDRESS, game });
  const io = await listener.connected;
  return rig(io, game, link, () => listener.close());
}

async function rig(io: HostIo, game: MemoryGame, link: SasLink, closeIo: () => Promise<void>): Promise<Rig> {
  const events: SasLinkEvent[] = [];
  link.machine.events.on((e) => events.push(e));
  const host = new SasHost(io, ADDRESS);
  // Before the host has polled another address the machine is not in step and answers nothing (§3.3).
  assert.equal(await host.exchange([0x80 | ADDRESS], 1, 150), null, 'a machine just started answers nothing before it has synchronised');
  return {
    host,
    game,
    link,
    events,
    close: async () => {
      await link.close();
      await closeIo();
    },
  };
}

for (const transport of ['pty', 'tcp'] as const) {
  describe(`SAS machine side over ${transport === 'pty' ? 'a socat pty pair' : 'TCP'}, driven by the host simulator`, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-e2e-'));
    let r: Rig;
    before(async () => {
      r = transport === 'pty' ? await onPty(dir) : await onTcp();
    });
    after(async () => {
      await r?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('meters: 0x1C, 0x0F, 0x19, the single meters 0x10–0x17 and 0x1A, 0x18, in BCD, equal the station’s', async () => {
      const { host } = r;
      const m = METERS;
      assert.deepEqual(await P.meters1C(host), {
        coinIn: m.coinIn,
        coinOut: m.coinOut,
        drop: m.drop,
        jackpot: m.jackpot,
        gamesPlayed: m.gamesPlayed,
        gamesWon: m.gamesWon,
        slotDoorOpened: m.slotDoorOpened,
        powerResets: m.powerResets,
      });
      assert.deepEqual(await P.meters0F(host), {
        cancelledCredits: m.cancelledCredits,
        coinIn: m.coinIn,
        coinOut: m.coinOut,
        drop: m.drop,
        jackpot: m.jackpot,
        gamesPlayed: m.gamesPlayed,
      });
      assert.deepEqual(await P.meters19(host), { coinIn: m.coinIn, coinOut: m.coinOut, drop: m.drop, jackpot: m.jackpot, gamesPlayed: m.gamesPlayed });
      const singles: [number, number | undefined][] = [
        [0x10, m.cancelledCredits],
        [0x11, m.coinIn],
        [0x12, m.coinOut],
        [0x13, m.drop],
        [0x14, m.jackpot],
        [0x15, m.gamesPlayed],
        [0x16, m.gamesWon],
        [0x17, m.gamesLost],
        [0x1a, m.currentCredits],
      ];
      for (const [command, value] of singles) assert.equal(await P.singleMeter(host, command), value, `long poll ${command.toString(16)}`);
      assert.deepEqual(await P.gamesSince18(host), { sincePowerUp: m.gamesSincePowerUp, sinceDoorClosed: m.gamesSinceDoorClosed });
    });

    it('a meter that moves is read anew after the implied ACK, and a meter past 8 digits rolls over in 4-byte BCD', async () => {
      r.game.meterValues = { ...METERS, coinIn: 123_456_789 };
      assert.equal(await P.singleMeter(r.host, 0x11), 23_456_789);
      r.game.meterValues = { ...METERS };
      assert.equal(await P.singleMeter(r.host, 0x11), METERS.coinIn);
    });

    it('0x2F selected meters and 0x6F/0xAF extended meters by code; an untracked meter left out (0x2F) or of size 0 (0x6F)', async () => {
      const sel = await P.selected2F(r.host, [0x00, 0x01, 0x05, 0x24, 0x0c, 0x99]);
      assert.deepEqual(
        [...sel],
        [
          [0x00, METERS.coinIn],
          [0x01, METERS.coinOut],
          [0x05, METERS.gamesPlayed],
          [0x24, METERS.drop],
          [0x0c, METERS.currentCredits],
        ],
      );
      r.game.meterValues = { ...METERS, coinIn: 98_765_432_109 };
      for (const command of [0x6f, 0xaf] as const) {
        const ext = await P.extended(r.host, command, [0x0000, 0x0003, 0x0024, 0x1234]);
        assert.deepEqual(ext.get(0x0000), { size: 6, value: 98_765_432_109 }, 'an 11-digit meter in 6 bytes of BCD');
        assert.deepEqual(ext.get(0x0003), { size: 4, value: METERS.handpaidCancelledCredits });
        assert.deepEqual(ext.get(0x0024), { size: 4, value: METERS.drop });
        assert.deepEqual(ext.get(0x1234), { size: 0, value: null });
      }
      r.game.meterValues = { ...METERS };
    });

    it('0x1F machine information and 0x54 SAS version and serial number', async () => {
      assert.deepEqual(await P.machineInfo1F(r.host), {
        gameId: 'ET',
        additionalId: '001',
        denominationCode: 0x01,
        maxBet: 200,
        progressiveGroup: 0,
        gameOptions: 0,
        paytableId: 'BJ0057',
        basePercent: '9950',
      });
      assert.deepEqual(await P.version54(r.host), { version: '602', serial: 'MO-ETG-0001-S03' });
    });

    it('0x7E reads the clock, 0x7F sets it (ACK), refuses an impossible date (NACK), and a 0x7F broadcast sets it unanswered', async () => {
      assert.deepEqual(await P.dateTime7E(r.host), { month: 11, day: 26, year: 2026, hour: 9, minute: 30, second: 5 });
      assert.equal(await P.setDateTime7F(r.host, { month: 2, day: 28, year: 2027, hour: 23, minute: 59, second: 58 }), 'ack');
      assert.deepEqual(r.game.clockNow, { year: 2027, month: 2, day: 28, hour: 23, minute: 59, second: 58 });
      const calls = r.game.calls.length;
      assert.equal(await P.setDateTime7F(r.host, { month: 2, day: 30, year: 2027, hour: 1, minute: 0, second: 0 }), 'nack');
      assert.equal(r.game.calls.length, calls, 'a NACKed time is not set');
      await r.host.broadcastTime({ month: 12, day: 31, year: 2026, hour: 8, minute: 0, second: 0 });
      assert.deepEqual(await P.dateTime7E(r.host), { month: 12, day: 31, year: 2026, hour: 8, minute: 0, second: 0 });
      assert.deepEqual(r.host.leftover(), [], 'nothing answered the broadcast');
    });

    it('0x01/0x02 disable and enable play, 0x06/0x07 the bill acceptor: each ACKed and done once', async () => {
      const before = r.game.calls.length;
      for (const c of [0x01, 0x02, 0x07, 0x06] as const) assert.equal(await P.control(r.host, c), 'ack');
      assert.deepEqual(r.game.calls.slice(before), [
        { call: 'play', enabled: false },
        { call: 'play', enabled: true },
        { call: 'bills', enabled: false },
        { call: 'bills', enabled: true },
      ]);
    });

    it('a repeated poll (implied NACK) is answered again with the same bytes and not done twice', async () => {
      const before = r.game.calls.length;
      await r.host.pollOther();
      const first = await r.host.exchange([ADDRESS, 0x01, ...crcBytes([ADDRESS, 0x01])], 'ack');
      const again = await r.host.exchange([ADDRESS, 0x01, ...crcBytes([ADDRESS, 0x01])], 'ack');
      assert.deepEqual(first, [ADDRESS]);
      assert.deepEqual(again, [ADDRESS]);
      assert.deepEqual(r.game.calls.slice(before), [{ call: 'play', enabled: false }], 'play disabled once for two polls');
    });

    it('0x1B handpay information (zeros with none pending) and 0x94 remote handpay reset', async () => {
      const none = await P.handpay1B(r.host);
      assert.deepEqual(none, { progressiveGroup: 0, level: 0, amount: 0, partialPay: 0, resetId: 0, unused: new Array(10).fill(0) });
      r.game.pendingHandpay = { progressiveGroup: 0, level: 0x80, amount: 1_250_000, partialPay: 0, resetId: 0 };
      assert.deepEqual(await P.handpay1B(r.host), {
        progressiveGroup: 0,
        level: 0x80,
        amount: 1_250_000,
        partialPay: 0,
        resetId: 0,
        unused: new Array(10).fill(0),
      });
      assert.equal(await P.handpayReset94(r.host), 0x00, 'reset');
      assert.equal(await P.handpayReset94(r.host), 0x02, 'not in a handpay any more');
    });

    it('0x21 ROM signature: ACKed, then reported at a general poll, equal to the seeded CRC of the running program', async () => {
      const seed = 0xbeef;
      const signature = await P.romSignature21(r.host, seed);
      assert.equal(signature, sasCrc(r.game.rom, seed), 'the host’s own CRC of the image with the seed');
      assert.notEqual(signature, sasCrc(r.game.rom, 0), 'the seed matters');
    });

    it('an unknown long poll and a long poll with a bad CRC are ignored: no answer, nothing done, the next poll answered', async () => {
      const before = r.game.calls.length;
      await r.host.pollOther();
      assert.equal(await r.host.exchange([ADDRESS, 0x99, 0x00], 1, 100), null, 'unknown 0x99');
      const bad = [ADDRESS, 0x02, ...crcBytes([ADDRESS, 0x02])];
      bad[3] = (bad[3] ?? 0) ^ 0x01;
      await r.host.pollOther();
      assert.equal(await r.host.exchange(bad, 1, 100), null, 'enable play with a bad CRC');
      assert.equal(r.game.calls.length, before, 'nothing was done');
      assert.equal(await P.singleMeter(r.host, 0x15), METERS.gamesPlayed);
    });

    it('general polls report priority exceptions first in the document’s order, then the queue in order; a repeated poll repeats, an ACK moves on', async () => {
      const m = r.link.machine;
      for (const code of [0x11, 0x7e, 0x51, 0x7f, 0x57, 0x12]) m.raise(code);
      const first = await r.host.generalPoll();
      assert.equal(first, 0x57, 'system validation request first');
      assert.equal(await r.host.generalPollAgain(), 0x57, 'the implied NACK: the same exception again');
      const rest: number[] = [];
      for (let i = 0; i < 6; i++) rest.push(await r.host.generalPoll());
      assert.deepEqual(rest, [0x51, 0x11, 0x7e, 0x7f, 0x12, 0x00]);
    });

    it('the queue overflows by losing its oldest exception and reports 0x70 before the rest', async () => {
      const m = r.link.machine;
      const lost: number[] = [];
      const off = m.events.on((e) => e.type === 'exception-lost' && lost.push(e.code));
      const codes = Array.from({ length: 22 }, (_, i) => 0x11 + (i % 2)); // doors opened and closed, 22 of them
      codes[0] = 0x17;
      codes[1] = 0x18;
      for (const c of codes) m.raise(c);
      off();
      assert.deepEqual(lost, [0x17, 0x18]);
      const seen: number[] = [];
      for (let i = 0; i < 22; i++) seen.push(await r.host.generalPoll());
      assert.deepEqual(seen, [0x70, ...codes.slice(2), 0x00]);
    });

    it('reported the link up once the host polled it', () => {
      assert.deepEqual(
        r.events.filter((e) => e.type === 'link-up'),
        [{ type: 'link-up', again: false }],
      );
      assert.equal(r.host.chirps.length, 0, 'no chirp while the host polls');
    });
  });
}

function crcBytes(bytes: number[]): number[] {
  const crc = sasCrc(bytes);
  return [crc % 256, Math.floor(crc / 256)];
}
