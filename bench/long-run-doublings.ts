// Does a figure of the long run level off? (issue 52: the pages' and the host's V8 code.) The run's
// judgement fits one line from round 250 to the end; code that V8 compiles as ever rarer functions
// turn hot grows by about as much each time the rounds double, which one line over 5,000 rounds
// cannot tell from growth that stops. This reads a run's samples (BENCH_LONG_OUT) and prints each
// figure's growth in windows that double in rounds (250–500, 500–1,000, …), each by the slope of the
// samples inside it, as growth a doubling. Steady growth a doubling: logarithmic, no plateau in
// sight; shrinking: levelling off.
//
//   npx tsx bench/long-run-doublings.ts RUN.json [figure…]   (default: the heaps and their split)
import { readFileSync } from 'node:fs';
import { trend } from './trend.js';

export interface Window {
  from: number;
  to: number;
  samples: number;
  /** Growth over the window by the slope of its samples (figure's units), with the 95% half-width. */
  growth: number;
  halfWidth: number;
  /** The same a doubling of rounds: growth / log2(to / from) (a partial last window is scaled). */
  perDoubling: number;
}

type Sample = { rounds: number } & Record<string, number | undefined>;

/** The doubling windows from `start` over the samples that have `key`; a sample on a boundary is in both windows. */
export function doublings(samples: readonly Sample[], key: string, start = 250): Window[] {
  const points = samples.filter((s) => typeof s[key] === 'number' && Number.isFinite(s[key]) && s.rounds >= start * 0.9);
  const last = points.at(-1)?.rounds ?? 0;
  const windows: Window[] = [];
  for (let from = start; from < last * 0.95; from *= 2) {
    // Samples land a few rounds past the boundaries (a sample is taken as a round closes): 2% slack.
    const inside = points.filter((p) => p.rounds >= from * 0.98 && p.rounds <= from * 2 * 1.02);
    if (inside.length < 2) continue;
    const to = Math.min(from * 2, inside.at(-1)!.rounds);
    const t = trend(
      inside.map((p) => p.rounds),
      inside.map((p) => p[key]!),
    );
    const span = inside.at(-1)!.rounds - inside[0]!.rounds;
    const growth = t.slope * span;
    const halfWidth = t.halfWidth * span;
    windows.push({
      from: inside[0]!.rounds,
      to,
      samples: inside.length,
      growth,
      halfWidth,
      perDoubling: growth / Math.log2(inside.at(-1)!.rounds / inside[0]!.rounds),
    });
  }
  return windows;
}

const DEFAULT = [
  'stationHeap',
  'stationHeapObjects',
  'stationHeapCode',
  'tableHeap',
  'tableHeapObjects',
  'tableHeapCode',
  'hostHeap',
  'hostHeapObjects',
  'hostHeapCode',
];
const MB = 1024 * 1024;

/** The windows of each figure in `keys` the samples have, as lines to print (heaps in MB, 2^20, as the bench prints them). */
export function doublingLines(samples: readonly Sample[], keys: readonly string[] = DEFAULT): string[] {
  const lines: string[] = [];
  for (const key of keys) {
    const ws = doublings(samples, key);
    if (!ws.length) continue;
    const bytes = /Heap|Bytes|Rss/.test(key);
    const f = (v: number) => (bytes ? (v / MB).toFixed(3) : v.toFixed(1));
    lines.push(`${key}${bytes ? ' (MB)' : ''}: rounds, samples, growth ±95%, growth a doubling`);
    for (const w of ws)
      lines.push(
        `  ${String(w.from).padStart(6)}–${String(w.to).padEnd(6)} ${String(w.samples).padStart(3)}  ${f(w.growth).padStart(8)} ± ${Number.isFinite(w.halfWidth) ? f(w.halfWidth) : '∞'}  ${f(w.perDoubling).padStart(8)}`,
      );
  }
  return lines;
}

function print(file: string, keys: readonly string[]): void {
  const run = JSON.parse(readFileSync(file, 'utf8')) as { samples: Sample[] };
  const samples = run.samples;
  console.log(`${file}: ${samples.length} samples, rounds ${samples[0]?.rounds ?? '?'}–${samples.at(-1)?.rounds ?? '?'}`);
  for (const line of doublingLines(samples, keys)) console.log(line.startsWith(' ') ? line : `\n${line}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, ...keys] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx bench/long-run-doublings.ts RUN.json [figure…]');
  print(file, keys.length ? keys : DEFAULT);
}
