// A station's decoder and composer over several shoes' frames (issue 52: does a station keep
// anything of the shoes before?). The frames station 101 is sent over COUPS coups of baccarat are
// recorded with the table's real hub (bench/station-decode/record.ts), then taken one by one as the
// station's screen takes them (`decodeHostMessage` for its view, `ViewComposer.take`), and the
// heap after full GCs printed every 400 frames with the shoe the roads show. Run with the GC exposed:
//
//   node --expose-gc --import tsx bench/station-decode-shoes.ts [COUPS=240]
import v8 from 'node:v8';
import { decodeHostMessage, ViewComposer } from '../protocol/index.js';
import { recordCoups } from './station-decode/record.js';

const COUPS = Number(process.argv[2] ?? 240);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heapAfterGc = (): number => {
  for (let i = 0; i < 4; i++) gc();
  return v8.getHeapStatistics().used_heap_size;
};

const t0 = Date.now();
const { view, frames } = recordCoups(COUPS, 3);
console.log(`recorded ${frames.length} frames of ${COUPS} coups in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const composer = new ViewComposer(view, {
  resync: () => {
    throw new Error('a frame did not follow the one before');
  },
});
const start = heapAfterGc();
for (const [i, frame] of frames.entries()) {
  const d = decodeHostMessage(frame, view);
  if (!d.ok) throw new Error(d.error.detail);
  const v = composer.take(d.message);
  if (i % 400 !== 0 && i !== frames.length - 1) continue;
  const roads = v?.state.kind === 'station' ? v.state.roads : undefined;
  const shown = roads ? `${roads.shoe}, ${roads.stats.coups} coups` : 'no roads yet';
  console.log(`frame ${i}: ${shown}; heap after GC ${((heapAfterGc() - start) / 1024).toFixed(1)} KiB over the start`);
}
