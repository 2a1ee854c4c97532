// V8's code in a page's heap snapshots taken in time order, window by window: the bytes by V8's
// category (TurboFan's machine code, its deoptimization data, bytecode, feedback, allocation sites,
// function infos, regexp code, the rest), and per window the functions TurboFan optimised for the
// first time, those given new TurboFan code after having had some (re-optimised), those whose TurboFan
// code went, and the functions with bytecode (run at least once, not flushed) against those with
// TurboFan code. A function is its SharedFunctionInfo, followed by the snapshot's node id, which V8
// keeps for an object across the snapshots of one session (the long-run bench's).
//
//   tsx bench/heap-code-windows.ts A.heapsnapshot B.heapsnapshot … [--names dist/renderer] [--list N]

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { snapshotIndex } from './heap-graph.js';

/** Where a function is, from its script's URL and its start (a character offset in the script). */
export type LocateStart = (url: string, start: number) => string;

/** A function's source file and line by the build's source maps (a build with RENDERER_SOURCEMAP=1), else its script and offset. */
export function sourceMapStart(dist: string): LocateStart {
  const files = new Map<string, { text: string; lineStarts: number[]; map: SourceMapConsumer } | null>();
  return (url, start) => {
    const file = url.split('/').pop() ?? '';
    if (!files.has(file)) {
      const js = path.join(dist, 'assets', file);
      const map = `${js}.map`;
      if (!file || !existsSync(js) || !existsSync(map)) files.set(file, null);
      else {
        const text = readFileSync(js, 'utf8');
        const lineStarts = [0];
        for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
        files.set(file, { text, lineStarts, map: new SourceMapConsumer(JSON.parse(readFileSync(map, 'utf8'))) });
      }
    }
    const f = files.get(file);
    if (!f) return `${file || '?'}@${start}`;
    let line = 0;
    while (line + 1 < f.lineStarts.length && f.lineStarts[line + 1]! <= start) line++;
    const o = f.map.originalPositionFor({ line: line + 1, column: start - f.lineStarts[line]!, bias: SourceMapConsumer.LEAST_UPPER_BOUND });
    if (!o.source) return `${file}@${start}`;
    const source = o.source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, '');
    return `${source}:${o.line}`;
  };
}

export const CATEGORIES = [
  'turbofan code',
  'deopt data',
  'bytecode',
  'feedback vectors',
  'feedback cells',
  'feedback metadata',
  'ic handlers',
  'allocation sites',
  'boilerplates',
  'function infos',
  'regexp code',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** One function (SharedFunctionInfo) in one snapshot. */
export interface FunctionState {
  name: string;
  url: string;
  /** Its start, a character offset in its script (V8's start position). */
  start: number;
  /** Its end, a character offset in its script: where precise coverage's range for it ends too (its start is the name's). */
  end: number;
  /** Where the function is: its source file and line by the build's source maps, else its script and start offset. */
  where: string;
  /** Its bytecode array's size, or null if it has none (never run, or flushed). */
  bytecode: number | null;
  bytecodeBytes: number;
  /** Whether it has a feedback vector: V8 makes one once a function has been called a few times (8 by default, its lazy feedback allocation). */
  feedback: boolean;
  /** A signature of each TurboFan code object it has: machine code bytes × 10⁶ + deoptimization data bytes. */
  turbofan: number[];
  turbofanBytes: number;
}

export interface CodeLedger {
  bytes: Record<Category, number>;
  /** By script and literal id. */
  fns: Map<string, FunctionState>;
  /** TurboFan code objects whose function was not found. */
  unowned: number;
}

const kindOf = (name: string) => name.replace(/^(system \/ \w+).*$/, '$1');

/** A snapshot's nodes and strong edges, read by index. */
function graphOf(json: string) {
  const { E, count, first, type, name, id, size, edgeName, isWeak, target } = snapshotIndex(json);
  const kind = (k: number) => kindOf(name(k));
  const children = function* (k: number) {
    for (let j = first[k]!; j < first[k + 1]!; j += E) if (!isWeak(j)) yield { to: target(j), en: edgeName(j) };
  };
  const edgeTo = (k: number, en: string) => {
    for (const c of children(k)) if (c.en === en) return c.to;
    return -1;
  };
  const parents = new Map<number, number[]>();
  for (let k = 0; k < count; k++) for (const c of children(k)) (parents.get(c.to) ?? parents.set(c.to, []).get(c.to)!).push(k);
  return { count, type, name, kind, size, id, children, edgeTo, parents };
}

type Graph = ReturnType<typeof graphOf>;

/** Each code node's category (bytecode's, TurboFan's, regexp's by what holds them), TurboFan's code objects, and the bytes by category. */
function categorise(g: Graph) {
  const { count, type, name, kind, size, children, edgeTo, parents } = g;
  const category = new Map<number, Category>();
  const claim = (k: number, c: Category) => {
    if (!category.has(k)) category.set(k, c);
  };
  // Bytecode: the array, its constant pool and its tables (source positions, handlers).
  for (let k = 0; k < count; k++)
    if (kind(k) === 'system / BytecodeArray') {
      claim(k, 'bytecode');
      for (const c of children(k))
        if (type(c.to) === 'code' && (name(c.to) === '(constant pool)' || kind(c.to) === 'system / TrustedByteArray')) claim(c.to, 'bytecode');
    }
  // TurboFan's code (a Code object with deoptimization data) and regexp code (held by IrRegExpData).
  const deoptTree = (k: number) => {
    claim(k, 'deopt data');
    for (const c of children(k))
      if (['system / ProtectedFixedArray', 'system / TrustedByteArray', 'system / TrustedWeakFixedArray'].includes(kind(c.to)) && !category.has(c.to))
        deoptTree(c.to);
  };
  const machineCode = (k: number, c: Category) => {
    claim(k, c);
    const is = edgeTo(k, 'instruction_stream');
    if (is >= 0) {
      claim(is, c);
      const reloc = edgeTo(is, 'relocation_info');
      if (reloc >= 0) claim(reloc, c);
    }
    const spt = edgeTo(k, 'source_position_table');
    if (spt >= 0) claim(spt, c);
  };
  const turbofan: number[] = [];
  for (let k = 0; k < count; k++)
    if (name(k) === 'system / Code') {
      const dd = edgeTo(k, 'deoptimization_data');
      if (dd >= 0) {
        turbofan.push(k);
        machineCode(k, 'turbofan code');
        deoptTree(dd);
      } else if ((parents.get(k) ?? []).some((p) => kind(p) === 'system / IrRegExpData')) machineCode(k, 'regexp code');
    }
  const byKind: Record<string, Category> = {
    'system / BytecodeWrapper': 'bytecode',
    'system / FeedbackVector': 'feedback vectors',
    'system / ClosureFeedbackCellArray': 'feedback vectors',
    'system / FeedbackCell': 'feedback cells',
    'system / FeedbackMetadata': 'feedback metadata',
    'system / LoadHandler': 'ic handlers',
    'system / StoreHandler': 'ic handlers',
    'system / AllocationSite': 'allocation sites',
    'system / ObjectBoilerplateDescription': 'boilerplates',
    'system / ArrayBoilerplateDescription': 'boilerplates',
    'system / RegExpBoilerplateDescription': 'boilerplates',
    '(constant elements)': 'boilerplates',
    '(object elements)': 'boilerplates',
    'system / SharedFunctionInfo': 'function infos',
    'system / ScopeInfo': 'function infos',
    'system / UncompiledDataWithoutPreparseData': 'function infos',
    'system / UncompiledDataWithPreparseData': 'function infos',
    'system / PreparseData': 'function infos',
    '(context local names)': 'function infos',
  };
  const bytes = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  for (let k = 0; k < count; k++) {
    if (type(k) !== 'code') continue;
    let c = category.get(k) ?? byKind[kind(k)] ?? byKind[name(k)];
    if (!c && kind(k) === 'system / CodeWrapper') {
      const code = [...children(k)].find((x) => kind(x.to) === 'system / Code');
      c = code ? category.get(code.to) : undefined;
    }
    bytes[c ?? 'other'] += size(k);
  }
  return { category, turbofan, bytes };
}

/** A snapshot's V8 code by category, and its functions' bytecode and TurboFan code. */
export function codeLedger(json: string, locate?: LocateStart): CodeLedger {
  const g = graphOf(json);
  const { count, name, kind, size, id, children, edgeTo, parents, type } = g;
  const { category, turbofan, bytes } = categorise(g);
  // Functions: each SharedFunctionInfo, its bytecode and the TurboFan code its closures or its feedback vector hold.
  const scriptUrl = (sfi: number) => {
    const script = edgeTo(sfi, 'script');
    const n = script < 0 ? -1 : edgeTo(script, 'name');
    return n < 0 ? '' : name(n);
  };
  // A function's key: its script and its literal id in that script (the same in every snapshot of a
  // page; the snapshots' node ids are not, since each snapshot is taken in a session of its own).
  const numberAt = (k: number, en: string) => {
    const n = edgeTo(k, en);
    const v = n < 0 ? -1 : edgeTo(n, 'value');
    return v < 0 ? NaN : Number(name(v));
  };
  const fns = new Map<string, FunctionState>();
  const fnOf = (sfi: number) => {
    const url = scriptUrl(sfi);
    const lit = numberAt(sfi, 'function_literal_id');
    const key = Number.isNaN(lit) ? `#${id(sfi)}` : `${url}#${lit}`;
    let f = fns.get(key);
    if (!f) {
      const start = numberAt(sfi, 'start_position');
      const where = locate && !Number.isNaN(start) ? locate(url, start) : `${url.replace(/^.*\//, '') || '?'}@${Number.isNaN(start) ? '?' : start}`;
      f = {
        name: name(sfi).replace(/^system \/ SharedFunctionInfo( \/ )?/, '') || '(anonymous)',
        url,
        start,
        end: numberAt(sfi, 'end_position'),
        where,
        bytecode: null,
        bytecodeBytes: 0,
        feedback: false,
        turbofan: [],
        turbofanBytes: 0,
      };
      fns.set(key, f);
    }
    return f;
  };
  for (let k = 0; k < count; k++)
    if (kind(k) === 'system / SharedFunctionInfo') {
      const bc = edgeTo(k, 'trusted_function_data');
      if (bc >= 0 && kind(bc) === 'system / BytecodeArray') {
        const f = fnOf(k);
        f.bytecode = size(bc);
        f.bytecodeBytes = size(bc) + [...children(bc)].filter((c) => category.get(c.to) === 'bytecode').reduce((x, c) => x + size(c.to), 0);
      }
    }
  for (let k = 0; k < count; k++)
    if (kind(k) === 'system / FeedbackVector') {
      const sfi = [...children(k)].find((c) => kind(c.to) === 'system / SharedFunctionInfo');
      if (sfi) fnOf(sfi.to).feedback = true;
    }
  // TurboFan code's function: the SharedFunctionInfoWrapper in its deoptimization data, else a closure
  // or feedback vector that holds it. Its signature (its machine code's and deoptimization data's
  // sizes) tells new code from the same code across snapshots, as the node ids cannot.
  let unowned = 0;
  const treeBytes = (k: number, seen = new Set<number>()): number => {
    if (seen.has(k)) return 0;
    seen.add(k);
    let b = size(k);
    for (const c of children(k))
      if (['system / ProtectedFixedArray', 'system / TrustedByteArray', 'system / TrustedWeakFixedArray'].includes(kind(c.to))) b += treeBytes(c.to, seen);
    return b;
  };
  for (const code of turbofan) {
    const dd = edgeTo(code, 'deoptimization_data');
    let sfi = -1;
    const wrapper = [...children(dd)].find((c) => kind(c.to) === 'system / SharedFunctionInfoWrapper');
    if (wrapper) sfi = [...children(wrapper.to)].find((c) => kind(c.to) === 'system / SharedFunctionInfo')?.to ?? -1;
    for (const p of sfi >= 0 ? [] : (parents.get(code) ?? [])) {
      if (type(p) === 'closure') sfi = edgeTo(p, 'shared');
      else if (kind(p) === 'system / FeedbackVector') sfi = [...children(p)].find((c) => kind(c.to) === 'system / SharedFunctionInfo')?.to ?? -1;
      if (sfi >= 0) break;
    }
    if (sfi < 0) {
      unowned++;
      continue;
    }
    const f = fnOf(sfi);
    const is = edgeTo(code, 'instruction_stream');
    const reloc = is >= 0 ? edgeTo(is, 'relocation_info') : -1;
    const spt = edgeTo(code, 'source_position_table');
    const machine = [code, is, reloc, spt].reduce((x, k) => x + (k >= 0 ? size(k) : 0), 0);
    f.turbofan.push(machine * 1_000_000 + treeBytes(dd));
    f.turbofanBytes += machine + treeBytes(dd);
  }
  return { bytes, fns, unowned };
}

/** What changed in the functions from one snapshot to the next. */
export interface Window {
  /** Functions with TurboFan code now that had none in any earlier snapshot. */
  firstOptimised: string[];
  /** Functions with TurboFan code now that had some before, of other sizes than the last they had: new code. */
  reoptimised: string[];
  /** Functions with TurboFan code now, none in the last snapshot, and of the sizes they had before: likely made again. */
  regained: string[];
  /** Functions that had TurboFan code in the last snapshot and have none now. */
  lostTurbofan: string[];
  /** Functions with bytecode now that had none in any earlier snapshot. */
  firstBytecode: number;
  /** Functions that had bytecode in the last snapshot and have none now (flushed). */
  flushed: number;
  /** Functions with bytecode now, none in the last snapshot, some in an earlier one (made again after a flush). */
  remade: number;
}

export function windows(ledgers: CodeLedger[]): Window[] {
  const lastTf = new Map<string, number[]>();
  const everBc = new Set<string>();
  const out: Window[] = [];
  ledgers.forEach((l, i) => {
    const prev = i > 0 ? ledgers[i - 1]! : undefined;
    const w: Window = { firstOptimised: [], reoptimised: [], regained: [], lostTurbofan: [], firstBytecode: 0, flushed: 0, remade: 0 };
    for (const [key, f] of l.fns) {
      const label = `${f.name} @ ${f.where}`;
      const had = (prev?.fns.get(key)?.turbofan.length ?? 0) > 0;
      if (f.turbofan.length > 0) {
        const before = lastTf.get(key);
        if (!before) w.firstOptimised.push(label);
        else if (f.turbofan.some((c) => !before.includes(c))) w.reoptimised.push(label);
        else if (!had) w.regained.push(label);
        lastTf.set(key, f.turbofan);
      }
      if (f.bytecode !== null) {
        if (!everBc.has(key)) w.firstBytecode++;
        else if ((prev?.fns.get(key)?.bytecode ?? null) === null) w.remade++;
        everBc.add(key);
      }
    }
    for (const [key, f] of prev?.fns ?? []) {
      if (f.bytecode !== null && (l.fns.get(key)?.bytecode ?? null) === null) w.flushed++;
      if (f.turbofan.length > 0 && (l.fns.get(key)?.turbofan.length ?? 0) === 0) w.lostTurbofan.push(`${f.name} @ ${f.where}`);
    }
    out.push(w);
  });
  return out;
}

/** Precise coverage with call counts (CDP `Profiler.takePreciseCoverage`, the long-run bench's BENCH_LONG_CALLS): calls by `script file@end`. */
export function callCounts(json: string): Map<string, number> {
  const scripts = JSON.parse(json) as { url: string; functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[];
  const out = new Map<string, number>();
  for (const sc of scripts)
    for (const f of sc.functions) {
      const key = `${sc.url.split('/').pop()}@${f.ranges[0]?.endOffset}`;
      out.set(key, (out.get(key) ?? 0) + (f.ranges[0]?.count ?? 0));
    }
  return out;
}

/**
 * Each function of the ledger with a feedback vector, its calls a round (`calls` over `rounds` rounds)
 * and whether it has TurboFan code; undefined calls where the counts do not name it.
 */
export function callRates(ledger: CodeLedger, calls: Map<string, number>, rounds: number) {
  return [...ledger.fns.values()]
    .filter((f) => f.feedback)
    .map((f) => {
      const n = calls.get(`${f.url.split('/').pop()}@${f.end}`);
      return { f, perRound: n === undefined ? undefined : n / rounds, turbofan: f.turbofan.length > 0 };
    });
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const opt = (flag: string) => {
    const i = args.indexOf(flag);
    return i < 0 ? undefined : args.splice(i, 2)[1];
  };
  const names = opt('--names');
  const callsFile = opt('--calls');
  const callsRounds = Number(opt('--calls-rounds') ?? '250');
  // --calls A.calls.json[,B.calls.json…]: the calls of consecutive windows, summed, over --calls-rounds rounds.
  const list = Number(opt('--list') ?? '0');
  if (args.length === 0) throw new Error('usage: tsx bench/heap-code-windows.ts A.heapsnapshot B.heapsnapshot … [--names dist/renderer] [--list N]');
  const locate = names ? sourceMapStart(names) : undefined;
  const ledgers = args.map((a) => codeLedger(readFileSync(a, 'utf8'), locate));
  const ws = windows(ledgers);
  const kib = (n: number) => (n / 1024).toFixed(0);
  console.log(['snapshot', ...CATEGORIES, 'all'].join('\t'));
  ledgers.forEach((l, i) =>
    console.log([path.basename(args[i]!), ...CATEGORIES.map((c) => kib(l.bytes[c])), kib(Object.values(l.bytes).reduce((x, y) => x + y, 0))].join('\t')),
  );
  console.log(
    [
      'snapshot',
      'with bytecode',
      'with feedback',
      'feedback, no tf',
      'their bytecode KiB',
      'tf KiB a first optimised',
      'with turbofan',
      'tf code objects',
      'unowned tf',
      'first optimised',
      're-optimised',
      'regained',
      'lost tf',
      'first bytecode',
      'flushed',
      'remade',
    ].join('\t'),
  );
  ledgers.forEach((l, i) => {
    const fs = [...l.fns.values()];
    const w = ws[i]!;
    console.log(
      [
        path.basename(args[i]!),
        fs.filter((f) => f.bytecode !== null).length,
        fs.filter((f) => f.feedback).length,
        fs.filter((f) => f.feedback && f.turbofan.length === 0).length,
        kib(fs.filter((f) => f.feedback && f.turbofan.length === 0).reduce((x, f) => x + f.bytecodeBytes, 0)),
        w.firstOptimised.length === 0
          ? '-'
          : (
              fs.filter((f) => w.firstOptimised.includes(`${f.name} @ ${f.where}`)).reduce((x, f) => x + f.turbofanBytes, 0) /
              1024 /
              w.firstOptimised.length
            ).toFixed(1),
        fs.filter((f) => f.turbofan.length > 0).length,
        fs.reduce((x, f) => x + f.turbofan.length, 0),
        l.unowned,
        w.firstOptimised.length,
        w.reoptimised.length,
        w.regained.length,
        w.lostTurbofan.length,
        w.firstBytecode,
        w.flushed,
        w.remade,
      ].join('\t'),
    );
  });
  const last = [...ledgers.at(-1)!.fns.values()];
  const tf = last.filter((f) => f.turbofan.length > 0);
  const warm = last.filter((f) => f.feedback && f.turbofan.length === 0);
  const bc = (fs: FunctionState[]) => fs.reduce((x, f) => x + f.bytecodeBytes, 0);
  const ratio = tf.reduce((x, f) => x + f.turbofanBytes, 0) / bc(tf);
  console.log(
    `last snapshot: ${tf.length} functions with TurboFan code, ${kib(tf.reduce((x, f) => x + f.turbofanBytes, 0))} KiB of it (with its deoptimization data) ` +
      `for ${kib(bc(tf))} KiB of their bytecode (${ratio.toFixed(1)}×); ${warm.length} with a feedback vector and no TurboFan code, ${kib(bc(warm))} KiB of bytecode: ` +
      `at the same ratio ${kib(ratio * bc(warm))} KiB more if TurboFan took them all`,
  );
  if (callsFile) {
    // TurboFan takes a function once its own bytecode run in the interpreter has spent about 3,000
    // times its length (V8's --invocation-count-for-turbofan): about 3,000 calls of one with no loop.
    const calls = new Map<string, number>();
    for (const file of callsFile.split(',')) for (const [k, n] of callCounts(readFileSync(file, 'utf8'))) calls.set(k, (calls.get(k) ?? 0) + n);
    const rates = callRates(ledgers.at(-1)!, calls, callsRounds);
    const rateOf = new Map(rates.map((x) => [`${x.f.name} @ ${x.f.where}`, x.perRound]));
    const q = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return [0.1, 0.25, 0.5, 0.75, 0.9].map((p) => (sorted[Math.floor(p * (sorted.length - 1))] ?? NaN).toFixed(2)).join(' / ');
    };
    console.log(`calls a round (${callsFile}, over ${callsRounds} rounds) of the functions first optimised in each window, p10 / p25 / median / p75 / p90:`);
    ws.forEach((w, i) => {
      const rs = w.firstOptimised.map((n) => rateOf.get(n)).filter((r): r is number => r !== undefined);
      if (w.firstOptimised.length > 0) console.log(`  ${path.basename(args[i]!)}: ${w.firstOptimised.length} (${rs.length} counted)  ${q(rs)}`);
    });
    const interp = rates.filter((x) => !x.turbofan);
    const bands: [string, (r: number | undefined) => boolean][] = [
      ['not called (no count, or 0)', (r) => !r],
      ['(0, 0.0375]', (r) => !!r && r <= 0.0375],
      ...[0.0375, 0.075, 0.15, 0.3, 0.6].map((t): [string, (r: number | undefined) => boolean] => [`(${t}, ${t * 2}]`, (r) => !!r && r > t && r <= t * 2]),
      ['over 1.2', (r) => !!r && r > 1.2],
    ];
    console.log(`the ${interp.length} functions with a feedback vector and no TurboFan code in the last snapshot, by calls a round:`);
    for (const [label, inBand] of bands) {
      const fs = interp.filter((x) => inBand(x.perRound)).map((x) => x.f);
      console.log(`  ${label}: ${fs.length} functions, ${kib(bc(fs))} KiB of bytecode, ~${kib(ratio * bc(fs))} KiB of TurboFan code at ${ratio.toFixed(1)}×`);
    }
  }
  if (list > 0)
    ws.forEach((w, i) => {
      if (i === 0) return;
      console.log(`\n${path.basename(args[i]!)}:`);
      for (const [what, xs] of [
        ['first optimised', w.firstOptimised],
        ['re-optimised', w.reoptimised],
        ['regained', w.regained],
        ['lost turbofan', w.lostTurbofan],
      ] as const)
        if (xs.length > 0) console.log(`  ${what} (${xs.length}): ${xs.slice(0, list).join('; ')}`);
    });
}
