// Machine code by function and tier in a V8 heap snapshot, or what grew between two snapshots of
// the same page: each `system / Code` node whose owner is a function (Sparkplug's baseline code
// hangs from its SharedFunctionInfo's `trusted_function_data`, Maglev's and TurboFan's from a
// closure's `code`), with what it alone holds (its InstructionStream and trusted byte arrays),
// named by its function and the module its source map names (a build with RENDERER_SOURCEMAP=1).
//
//   tsx bench/heap-code-by-function.ts FIRST.heapsnapshot [LAST.heapsnapshot] [dist/renderer] [top]

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceMapLocate, type Locate } from './heap-attribution.js';
import { snapshotIndex } from './heap-graph.js';

/** One function's machine code: its tier (baseline: Sparkplug; optimized: Maglev or TurboFan), code objects and bytes. */
export interface FunctionCode {
  fn: string;
  tier: 'baseline' | 'optimized';
  count: number;
  bytes: number;
}

/** Every function's machine code in the snapshot, keyed by `name @ module (tier)`. */
export function codeByFunction(json: string, locate: Locate): Map<string, FunctionCode> {
  const { s, N, E, count, first, type, name, size, edgeName, isWeak, target } = snapshotIndex(json);
  const m = s.snapshot.meta;
  const strongIn = new Int32Array(count);
  const owner = new Map<number, { via: string; from: number }>();
  for (let k = 0; k < count; k++)
    for (let j = first[k]!; j < first[k + 1]!; j += E) {
      const to = target(j);
      if (!isWeak(j)) strongIn[to]!++;
      const en = edgeName(j);
      if ((en === 'trusted_function_data' || (en === 'code' && type(k) === 'closure')) && !owner.has(to)) owner.set(to, { via: en, from: k });
    }
  const location = new Map<number, [number, number]>();
  const lf = m.location_fields ?? [];
  const [lo, ll, lc] = ['object_index', 'line', 'column'].map((f) => lf.indexOf(f)) as [number, number, number];
  for (let i = 0; lf.length > 0 && i < (s.locations?.length ?? 0); i += lf.length)
    location.set(s.locations![i + lo]! / N, [s.locations![i + ll]!, s.locations![i + lc]!]);
  const edgeTo = (k: number, en: string) => {
    for (let j = first[k]!; j < first[k + 1]!; j += E) if (edgeName(j) === en) return target(j);
    return -1;
  };
  const scriptUrl = (sfi: number) => {
    const script = edgeTo(sfi, 'script');
    if (script < 0) return '';
    const n = edgeTo(script, 'name');
    return n < 0 ? '' : name(n);
  };
  // A closure for each SharedFunctionInfo: V8 records a location for closures only.
  const closureOf = new Map<number, number>();
  for (let k = 0; k < count; k++)
    if (type(k) === 'closure') {
      const sfi = edgeTo(k, 'shared');
      if (sfi >= 0 && !closureOf.has(sfi)) closureOf.set(sfi, k);
    }
  const out = new Map<string, FunctionCode>();
  for (let k = 0; k < count; k++) {
    if (name(k) !== 'system / Code') continue;
    const o = owner.get(k);
    if (!o) continue;
    const closure = o.via === 'code' ? o.from : closureOf.get(o.from);
    const sfi = o.via === 'code' ? edgeTo(o.from, 'shared') : o.from;
    const loc = closure === undefined ? undefined : location.get(closure);
    const fnName = name(sfi).replace(/^system \/ SharedFunctionInfo( \/ )?/, '') || '(anonymous)';
    const where = loc ? locate(scriptUrl(sfi), loc[0], loc[1]) : '?';
    const tier = edgeTo(k, 'bytecode_offset_table') >= 0 ? 'baseline' : 'optimized';
    let bytes = size(k);
    for (let j = first[k]!; j < first[k + 1]!; j += E) {
      const to = target(j);
      if (!isWeak(j) && strongIn[to] === 1 && type(to) === 'code' && edgeName(j) !== 'interpreter_data') bytes += size(to);
    }
    const key = `${fnName} @ ${where} (${tier})`;
    const f = out.get(key) ?? { fn: `${fnName} @ ${where}`, tier, count: 0, bytes: 0 };
    f.count++;
    f.bytes += bytes;
    out.set(key, f);
  }
  return out;
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const [a, b, dist = 'dist/renderer', top = '40'] = process.argv.slice(2);
  if (!a) throw new Error('usage: tsx bench/heap-code-by-function.ts FIRST.heapsnapshot [LAST.heapsnapshot] [dist/renderer] [top]');
  const locate = sourceMapLocate(dist);
  const kib = (n: number) => `${(n / 1024).toFixed(1).padStart(8)} KiB`;
  const tiers = (m: Map<string, FunctionCode>) =>
    (['baseline', 'optimized'] as const)
      .map((t) => {
        const fs = [...m.values()].filter((f) => f.tier === t);
        return `${t} ${fs.reduce((x, f) => x + f.count, 0)} code objects, ${kib(fs.reduce((x, f) => x + f.bytes, 0))}`;
      })
      .join('; ');
  const first = codeByFunction(readFileSync(a, 'utf8'), locate);
  console.log(`${path.basename(a)}: ${tiers(first)}`);
  if (!b || b === '-') {
    for (const [k, f] of [...first].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, Number(top)))
      console.log(`${kib(f.bytes)} ${String(f.count).padStart(3)}  ${k}`);
  } else {
    const last = codeByFunction(readFileSync(b, 'utf8'), locate);
    console.log(`${path.basename(b)}: ${tiers(last)}`);
    const keys = new Set([...first.keys(), ...last.keys()]);
    const rows = [...keys].map((k) => ({
      k,
      d: (last.get(k)?.bytes ?? 0) - (first.get(k)?.bytes ?? 0),
      a: first.get(k)?.count ?? 0,
      z: last.get(k)?.count ?? 0,
    }));
    rows.sort((x, y) => y.d - x.d);
    const byModule = new Map<string, number>();
    for (const r of rows) {
      const mod = r.k.replace(/^.* @ /, '').replace(/ \((baseline|optimized)\)$/, '');
      byModule.set(mod, (byModule.get(mod) ?? 0) + r.d);
    }
    console.log('grew, by module:');
    for (const [mod, d] of [...byModule].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`${kib(d)}  ${mod}`);
    console.log('grew, by function:');
    for (const r of rows.slice(0, Number(top))) console.log(`${kib(r.d)} ${r.a}→${r.z}  ${r.k}`);
  }
}
