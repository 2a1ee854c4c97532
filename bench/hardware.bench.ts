// Hardware figures: parser throughput, each beside a bare walk over the same bytes in the same
// 64-byte chunks (the floor any parser of that stream pays), and end-to-end rates through driver +
// fake USB bridge + simulator (real timers, poll interval 1 ms; the protocol's exchanges set them,
// so they have no bare counterpart). Prints figures only; nothing is asserted.
import { performance } from 'node:perf_hooks';
import { Id003Parser, encodeId003 } from '../hardware/billacceptor/id003/frame.js';
import { SspParser, encodeSsp } from '../hardware/billacceptor/ssp/frame.js';
import { ShoeFrameParser, encodeShoeFrame } from '../hardware/shoe/framed.js';
import { concatBytes } from '../hardware/bytes.js';
import { EventRecorder, openBillAcceptor, openShoe, type BillAcceptorEvent, type ShoeEvent } from '../hardware/index.js';
import { sink } from './bare-deal.js';
import { figure, QUICK, times } from './report.js';

const E2E_NOTE = 'no bare counterpart: the poll interval and the protocol exchanges per note or card (timers on a 1 ms poll) set this, not the code';

function byteWalk(stream: Uint8Array, chunk: number, reps: number): number {
  let sum = 0;
  for (let rep = 0; rep < reps; rep++)
    for (let i = 0; i < stream.length; i += chunk) {
      const part = stream.subarray(i, i + chunk);
      for (let k = 0; k < part.length; k++) sum += part[k] as number;
    }
  return sum;
}

function parserRate(name: string, frames: Uint8Array[], parse: (b: Uint8Array) => unknown[]): void {
  const stream = concatBytes(...frames);
  const chunk = 64;
  const reps = QUICK ? 2 : 20;
  let n = 0;
  const t0 = performance.now();
  for (let rep = 0; rep < reps; rep++) for (let i = 0; i < stream.length; i += chunk) n += parse(stream.subarray(i, i + chunk)).length;
  const ms = performance.now() - t0;
  // The baseline: the same bytes in the same chunks, each byte read once and added up (warmed up first).
  byteWalk(stream, chunk, 1);
  const b0 = performance.now();
  const sum = byteWalk(stream, chunk, reps);
  const bareMs = performance.now() - b0;
  sink.sum += sum;
  const mb = (stream.length * reps) / 1e6;
  const r = figure({
    name: `${name}, 64-byte chunks`,
    unit: 'MB/s',
    value: mb / (ms / 1000),
    better: 'higher',
    baseline: { name: 'bare byte walk over the same stream and chunks', value: mb / (bareMs / 1000) },
  });
  console.log(
    `${name.padEnd(22)} ${((n / ms) * 1000).toFixed(0).padStart(10)} frames/s  ${((stream.length * reps) / ms / 1000).toFixed(1).padStart(7)} MB/s` +
      `   bare byte walk ${(mb / (bareMs / 1000)).toFixed(1)} MB/s, ratio ${times(r)}`,
  );
}

const N = QUICK ? 2_000 : 20_000;
const id = new Id003Parser();
parserRate(
  'ID-003 parser',
  Array.from({ length: N }, (_, i) => encodeId003(0x13, [0x61 + (i % 6)])),
  (b) => id.push(b),
);
const ssp = new SspParser();
parserRate(
  'SSP parser (stuffed)',
  Array.from({ length: N }, (_, i) => encodeSsp(i % 2 ? 0x80 : 0, [0xf0, 0xee, 0x7f & i, 0xeb])),
  (b) => ssp.push(b),
);
const shoe = new ShoeFrameParser();
parserRate(
  'shoe framed parser',
  Array.from({ length: N }, (_, i) => encodeShoeFrame((i % 0xfffe) + 1, 0x11, [1, 0, 1, 0, 97, 0, 0x41, 0x53])),
  (b) => shoe.push(b),
);

async function notes(protocol: 'id003' | 'ssp', count: number): Promise<void> {
  const dev = openBillAcceptor('sim', { protocol, currency: 'HKD', enabled: true, pollIntervalMs: 1, replyTimeoutMs: 100 });
  const rec = new EventRecorder<BillAcceptorEvent>();
  dev.on(rec.listener);
  await rec.until(() => rec.of('idle').some((e) => e.enabled), 5000);
  const t0 = performance.now();
  for (let i = 0; i < count; i++) dev.simulator!.insertNote(100);
  await rec.untilCount('credit', count, 60_000);
  const ms = performance.now() - t0;
  console.log(`${protocol} e2e (fake USB)    ${(ms / count).toFixed(1).padStart(7)} ms/note  (${count} notes, 1 ms poll)`);
  figure({
    name: `${protocol} note end to end through the fake USB bridge`,
    unit: 'ms/note',
    value: ms / count,
    better: 'lower',
    baseline: null,
    note: E2E_NOTE,
  });
  await dev.close();
}

async function cards(count: number): Promise<void> {
  const dev = openShoe('sim', { protocol: 'framed', sim: { retransmitMs: 200 } });
  const rec = new EventRecorder<ShoeEvent>();
  dev.on(rec.listener);
  await rec.untilCount('connected', 1, 5000);
  dev.simulator!.loadShoe({ decks: 8, seed: 1 });
  const t0 = performance.now();
  for (let i = 0; i < count; i++) dev.simulator!.drawCard();
  await rec.untilCount('card', count, 60_000);
  const ms = performance.now() - t0;
  console.log(`framed shoe e2e          ${(ms / count).toFixed(2).padStart(7)} ms/card  (${count} cards)`);
  figure({
    name: 'framed shoe card end to end through the fake USB bridge',
    unit: 'ms/card',
    value: ms / count,
    better: 'lower',
    baseline: null,
    note: E2E_NOTE,
  });
  await dev.close();
}

await notes('id003', QUICK ? 5 : 50);
await notes('ssp', QUICK ? 5 : 50);
await cards(QUICK ? 40 : 400);
