// SAS poll-answer latency over a pty (issue 48): a host loop on one end of a socat pty pair polls
// the machine side (hardware/sas/, on the other end, in this process) for coin in (long poll 0x11,
// 8-byte answer) after an implied ACK, and times each poll from its write to the whole answer read.
// The baseline, in the same run and process: a bare echo over another socat pty pair, 8 bytes
// written and the same 8 read back. The ratio says what the protocol code costs beyond the pty's
// own round trip. The two are probed in turn (one echo, one poll) so a loaded machine weighs on
// both alike. SAS allows the machine 20 ms to start answering (§2.3.1). Nothing is asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSasLink } from '../hardware/sas/link.js';
import type { SasGameSide } from '../hardware/sas/types.js';
import { WakeupDecoder } from '../hardware/sas/wire.js';
import type { BytePort } from '../hardware/transport/byte-port.js';
import { SerialBytePort } from '../hardware/transport/serial.js';
import { figure, QUICK, times } from './report.js';

const N = QUICK ? 200 : 3_000;
const ADDRESS = 1;
const LINE = { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 } as const;

async function ptyPair(dir: string, name: string): Promise<{ a: string; b: string; socat: ChildProcess }> {
  const a = path.join(dir, `${name}-a`);
  const b = path.join(dir, `${name}-b`);
  const socat = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  const t0 = Date.now();
  while (!(existsSync(a) && existsSync(b))) {
    if (Date.now() - t0 > 5000) throw new Error('socat made no pty pair (is socat installed? tsx scripts/check-system.ts)');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { a, b, socat };
}

/** Writes `request`, resolves when `answered(chunk)` says the answer is whole: the milliseconds, or null after `timeoutMs`. */
function roundTrip(port: BytePort, request: Uint8Array, answered: (chunk: Uint8Array) => boolean, timeoutMs = 2_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const timer = setTimeout(() => {
      off();
      resolve(null);
    }, timeoutMs);
    const off = port.onData((chunk) => {
      if (answered(chunk)) {
        off();
        clearTimeout(timer);
        resolve(performance.now() - t0);
      }
    });
    port.write(request).catch(reject);
  });
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const game: SasGameSide = {
  info: {
    gameId: 'ET',
    additionalId: '001',
    denominationMinor: 1,
    maxBet: 200,
    progressiveGroup: 0,
    gameOptions: 0,
    paytableId: 'BJ0057',
    basePercent: '9950',
    serialNumber: 'BENCH',
  },
  meters: () => ({ coinIn: 12_345_678 }),
  setPlay: () => true,
  setBillAcceptor: () => true,
  now: () => ({ year: 2026, month: 11, day: 26, hour: 9, minute: 0, second: 0 }),
  setTime: () => true,
  handpay: () => null,
  resetHandpay: () => 'none',
  romImage: () => new Uint8Array(0),
};

interface Prober {
  /** One timed round trip, or null when nothing came back in time. */
  probe(timeoutMs: number): Promise<number | null>;
  close(): Promise<void>;
}

async function sasProber(dir: string): Promise<Prober> {
  const pair = await ptyPair(dir, 'sas');
  const link = openSasLink(`serial:${pair.b}`, { address: ADDRESS, game });
  const host = await SerialBytePort.open(pair.a, LINE);
  // A general poll to another address (the implied ACK and the cycle the machine synchronises on), then 0x11 to ours.
  const poll = Uint8Array.of(0xff, 0x00, 0x80 | 0x7f, 0xff, 0x00, ADDRESS, 0x11);
  return {
    probe: (timeoutMs) => {
      const decoder = new WakeupDecoder();
      let chars = 0;
      return roundTrip(
        host,
        poll,
        (chunk) => {
          decoder.push(chunk, () => chars++);
          return chars >= 8;
        },
        timeoutMs,
      );
    },
    close: async () => {
      await host.close();
      await link.close();
      pair.socat.kill();
    },
  };
}

async function echoProber(dir: string): Promise<Prober> {
  const pair = await ptyPair(dir, 'echo');
  const far = await SerialBytePort.open(pair.b, LINE);
  far.onData((chunk) => void far.write(chunk).catch(() => undefined));
  const near = await SerialBytePort.open(pair.a, LINE);
  const request = Uint8Array.of(0x01, 0x11, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc);
  return {
    probe: (timeoutMs) => {
      let got = 0;
      return roundTrip(near, request, (chunk) => (got += chunk.length) >= request.length, timeoutMs);
    },
    close: async () => {
      await near.close();
      await far.close();
      pair.socat.kill();
    },
  };
}

/** Both links open at once and probed in turn, so the machine's load falls on both alike; the first 20 of each warm up. */
async function measure(dir: string): Promise<{ sas: number[]; echo: number[] }> {
  const sasLink = await sasProber(dir);
  const echoLink = await echoProber(dir);
  const sas: number[] = [];
  const echo: number[] = [];
  try {
    // Until the machine's port is open its polls go unanswered.
    for (let t0 = Date.now(); (await sasLink.probe(200)) === null;) if (Date.now() - t0 > 10_000) throw new Error('the SAS machine never answered');
    for (let i = 0; i < N + 20; i++) {
      const e = await echoLink.probe(2_000);
      const m = await sasLink.probe(2_000);
      if (e === null || m === null) throw new Error(e === null ? 'the echo stopped' : 'the machine stopped answering');
      if (i >= 20) {
        echo.push(e);
        sas.push(m);
      }
    }
  } finally {
    await sasLink.close();
    await echoLink.close();
  }
  return { sas, echo };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-bench-'));
try {
  const { sas, echo } = await measure(dir);
  figure({
    name: 'SAS long poll 0x11 answered over a pty, p50',
    unit: 'ms',
    value: pct(sas, 50),
    better: 'lower',
    baseline: { name: 'bare pty echo of 8 bytes, p50', value: pct(echo, 50) },
    note: `n=${N} each`,
  });
  const r = figure({
    name: 'SAS long poll 0x11 answered over a pty, p99',
    unit: 'ms',
    value: pct(sas, 99),
    better: 'lower',
    baseline: { name: 'bare pty echo of 8 bytes, p99', value: pct(echo, 99) },
    note: `n=${N} each; SAS allows 20 ms to start answering`,
  });
  console.log(`SAS poll 0x11 over a pty  p50 ${pct(sas, 50).toFixed(3)} ms  p99 ${pct(sas, 99).toFixed(3)} ms  max ${pct(sas, 100).toFixed(3)} ms  (n=${N})`);
  console.log(
    `bare pty echo (8 bytes)   p50 ${pct(echo, 50).toFixed(3)} ms  p99 ${pct(echo, 99).toFixed(3)} ms  max ${pct(echo, 100).toFixed(3)} ms  (n=${N})`,
  );
  console.log(`p99 ratio ${times(r)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
