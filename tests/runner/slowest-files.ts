/**
 * A test reporter beside the spec reporter in `npm run test:node` (docs/toolchain.md): at the end
 * of the run, the test files whose tests took longest (each file's own summary: its tests' time in
 * its process, not the process's start), so that a CI run that grew slower names where the time
 * went (the Node phase of one run of 30 November took 1,673 s against 1,281–1,432 s on the 29th,
 * and nothing said which files).
 */
import path from 'node:path';

/** How many of the slowest files are named. */
const SHOWN = 15;

interface Event {
  type: string;
  data?: { file?: string; message?: string; duration_ms?: number; counts?: { tests?: number } };
}

export default async function* slowestFiles(source: AsyncIterable<Event>): AsyncGenerator<string> {
  const files: { file: string; ms: number; tests: number }[] = [];
  for await (const event of source) {
    const d = event.data;
    if (event.type === 'test:summary' && d?.file !== undefined && d.duration_ms !== undefined)
      files.push({ file: path.relative(process.cwd(), d.file), ms: d.duration_ms, tests: d.counts?.tests ?? 0 });
    // The run's own duration (a diagnostic of no file) is its last event: said then, for under
    // --test-force-exit the runner exits as soon as it has been reported, before the stream ends.
    if (event.type === 'test:diagnostic' && d?.file === undefined && d?.message?.startsWith('duration_ms')) yield* table(files);
  }
}

function* table(files: { file: string; ms: number; tests: number }[]): Generator<string> {
  const sorted = [...files].sort((a, b) => b.ms - a.ms);
  const total = files.reduce((s, f) => s + f.ms, 0) / 1000;
  yield `\nslowest test files (their tests' time; ${files.length} files, ${total.toFixed(0)} s in all, run ${process.env['TEST_CONCURRENCY'] ?? 3} at a time):\n`;
  for (const f of sorted.slice(0, SHOWN)) yield `  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file} (${f.tests} tests)\n`;
}
