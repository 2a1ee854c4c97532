// V8's `--trace-opt --trace-deopt` lines, read and counted: which functions were optimized (to which
// tier) and which deoptimized (eager, soft or lazy, and why). For bench/host-heap.ts (issue 52): V8's
// code in the table host grew through 5,000 rounds, and a function that deoptimizes and is optimized
// again at a steady rate round after round would be a loop making new code.

/** One line of V8's trace, read: an optimization finished, or a deoptimization. */
export type TraceEvent = { kind: 'optimized'; fn: string; tier: string; osr: boolean } | { kind: 'deopt'; fn: string; how: string; reason: string };

/** A function as the trace names it: its name, or `(anonymous sfi)` by its SharedFunctionInfo's address. */
function fnName(name: string | undefined, sfi: string | undefined): string {
  const n = name?.trim();
  return n ? n : `(anonymous ${sfi ?? '?'})`;
}

/**
 * The event of one trace line, or null for every other line (marking, compiling, the program's own
 * output). `completed compiling` counts an optimization (the code made); `completed optimizing` that
 * follows a TurboFan compile is the same code installed and is not counted again. A `marking
 * dependent code … for deoptimization` is a lazy deopt of code whose assumption (a map, a prototype
 * chain, a constant field) broke; a `bailout` is the code leaving at a check that failed.
 */
export function readTraceLine(line: string): TraceEvent | null {
  const done = /^\[completed compiling 0x[0-9a-f]+ <JSFunction ?([^>(]*?)(?: \(sfi = (0x[0-9a-f]+)\))?> \(target (\w+)\)( OSR)?/.exec(line);
  if (done) return { kind: 'optimized', fn: fnName(done[1], done[2]), tier: done[3]!, osr: Boolean(done[4]) };
  const bail = /^\[bailout \(kind: ([\w-]+), reason: (.*?)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ?([^>(]*?)(?: \(sfi = (0x[0-9a-f]+)\))?>/.exec(line);
  if (bail) return { kind: 'deopt', fn: fnName(bail[3], bail[4]), how: bail[1]!, reason: bail[2]! };
  const lazy = /^\[marking dependent code 0x[0-9a-f]+ <Code \w+> \((0x[0-9a-f]+) <SharedFunctionInfo ?([^>]*)>\).*? for deoptimization, reason: (.*)\]$/.exec(
    line,
  );
  if (lazy) return { kind: 'deopt', fn: fnName(lazy[2], lazy[1]), how: 'lazy', reason: lazy[3]! };
  return null;
}

/** Counts of a window of rounds: optimizations by tier, deopts, and each by function. */
export interface TraceWindow {
  optimized: Record<string, number>;
  deopts: number;
  /** `fn` → count of its optimizations in the window. */
  optimizedFns: Record<string, number>;
  /** `fn (how: reason)` → count of its deopts in the window. */
  deoptFns: Record<string, number>;
  /**
   * With `--print-opt-source`: TurboFan's compiles by the function's source (`sourceKey`), each
   * compile's own function only (not those inlined into it). An anonymous closure is named by its
   * file, offset and first line, where `optimizedFns` has only its SharedFunctionInfo's address.
   */
  compiledSources: Record<string, number>;
}

/**
 * The header V8 prints before a compile's source with `--print-opt-source`:
 * `--- FUNCTION SOURCE (file:name) id{compile,inlining} start{offset} ---`; inlining -1 is the
 * function compiled, 0 and up the functions inlined into it.
 */
const SOURCE_HEADER = /^--- FUNCTION SOURCE \((.*):([^:()]*)\) id\{\d+,(-?\d+)\} start\{(\d+)\} ---$/;

/** A compiled function named by its source: the file's last two path parts, its offset, its name or its first line. */
export function sourceKey(file: string, name: string, start: number, firstLine: string): string {
  const short = file
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
  const text = firstLine.trim().replace(/\s+/g, ' ');
  return `${short}@${start} ${name ? `${name}: ` : ''}${text.length > 70 ? `${text.slice(0, 70)}…` : text}`;
}

/** Reads a stream of trace text in windows: `push` any chunk, `cut` ends a window and starts the next. */
export class TraceCounter {
  private rest = '';
  private now: TraceWindow = TraceCounter.empty();
  readonly windows: TraceWindow[] = [];

  static empty(): TraceWindow {
    return { optimized: {}, deopts: 0, optimizedFns: {}, deoptFns: {}, compiledSources: {} };
  }

  push(chunk: string): void {
    const lines = (this.rest + chunk).split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) this.count(line);
  }

  /** The compile whose source's first line comes next (`--print-opt-source`). */
  private header: { file: string; name: string; start: number } | null = null;

  private count(line: string): void {
    if (this.header) {
      const key = sourceKey(this.header.file, this.header.name, this.header.start, line);
      this.now.compiledSources[key] = (this.now.compiledSources[key] ?? 0) + 1;
      this.header = null;
      return;
    }
    const h = SOURCE_HEADER.exec(line);
    if (h) {
      if (h[3] === '-1') this.header = { file: h[1]!, name: h[2]!, start: Number(h[4]) };
      return;
    }
    const e = readTraceLine(line);
    if (!e) return;
    const w = this.now;
    if (e.kind === 'optimized') {
      const tier = e.osr ? `${e.tier} OSR` : e.tier;
      w.optimized[tier] = (w.optimized[tier] ?? 0) + 1;
      w.optimizedFns[e.fn] = (w.optimizedFns[e.fn] ?? 0) + 1;
    } else {
      w.deopts++;
      const key = `${e.fn} (${e.how}: ${e.reason})`;
      w.deoptFns[key] = (w.deoptFns[key] ?? 0) + 1;
    }
  }

  /** Ends the window (what was read so far, a line cut in two excepted) and returns it. */
  cut(): TraceWindow {
    const w = this.now;
    this.windows.push(w);
    this.now = TraceCounter.empty();
    return w;
  }
}

/**
 * The functions TurboFan compiled again and again (`compiledSources`, with `--print-opt-source`):
 * for each, its compiles in each window from `from` on, those compiled more than once in at least
 * `share` of them, most compiles first.
 */
export function recompiled(windows: TraceWindow[], from: number, share = 0.5): { key: string; perWindow: number[] }[] {
  const tail = windows.slice(from);
  const keys = new Set(tail.flatMap((w) => Object.keys(w.compiledSources)));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return [...keys]
    .map((key) => ({ key, perWindow: tail.map((w) => w.compiledSources[key] ?? 0) }))
    .filter((r) => tail.length > 0 && r.perWindow.filter((n) => n > 1).length >= share * tail.length)
    .sort((a, b) => sum(b.perWindow) - sum(a.perWindow));
}

/**
 * The functions whose deopts come back: for each deopt key, its count in each window from `from` on,
 * and those seen in at least `share` of them (a steady rate, the sign of a loop), most windows first.
 */
export function recurring(windows: TraceWindow[], from: number, share = 0.5): { key: string; perWindow: number[] }[] {
  const tail = windows.slice(from);
  const keys = new Set(tail.flatMap((w) => Object.keys(w.deoptFns)));
  return [...keys]
    .map((key) => ({ key, perWindow: tail.map((w) => w.deoptFns[key] ?? 0) }))
    .filter((r) => tail.length > 0 && r.perWindow.filter((n) => n > 0).length >= share * tail.length)
    .sort((a, b) => b.perWindow.filter((n) => n > 0).length - a.perWindow.filter((n) => n > 0).length);
}
