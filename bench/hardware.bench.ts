// Hardware figures: parser throughput, and end-to-end rates through driver + fake USB bridge +
// simulator (real timers, poll interval 1 ms). Prints figures only; nothing is asserted.
import { performance } from 'node:perf_hooks';
import { Id003Parser, encodeId003 } from '../hardware/billacceptor/id003/frame.js';
import { SspParser, encodeSsp } from '../hardware/billacceptor/ssp/frame.js';
import { ShoeFrameParser, encodeShoeFrame } from '../hardware/shoe/framed.js';
import { concatBytes } from '../hardware/bytes.js';
import { EventRecorder, openBillAcceptor, openShoe, type BillAcceptorEvent, type ShoeEvent } from '../hardware/index.js';

function parserRate(name: string, frames: Uint8Array[], parse: (b: Uint8Array) => unknown[]): void {
  const stream = concatBytes(...frames);
  const chunk = 64;
  let n = 0;
  const t0 = performance.now();
  for (let rep = 0; rep < 20; rep++) for (let i = 0; i < stream.length; i += chunk) n += parse(stream.subarray(i, i + chunk)).length;
  const ms = performance.now() - t0;
  console.log(`${name.padEnd(22)} ${((n / ms) * 1000).toFixed(0).padStart(10)} frames/s  ${((stream.length * 20) / ms / 1000).toFixed(1).padStart(7)} MB/s`);
}

const N = 20_000;
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
  await dev.close();
}

await notes('id003', 50);
await notes('ssp', 50);
await cards(400);
