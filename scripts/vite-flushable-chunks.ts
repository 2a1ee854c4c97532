import type { Plugin } from 'vite';

// A screen's page keeps every ES module's top-level code for its whole life: V8 holds a module's
// evaluation as a generator (the SourceTextModule keeps it), and never flushes the bytecode of a
// resumable function. The bundle's top level is where its classes, schemas, tables and literals are
// built, so its bytecode and constant pool are large: 272 KiB kept by the main script of a table
// page at 1920×1080, 175 KiB by the Portuguese catalogue's chunk (its object literal), 531 KiB in
// all (docs/benchmarks.md, issue 52). Each chunk's top level is therefore run inside an arrow
// function called once: the module's own code is only that call, and the arrow's bytecode is an
// ordinary function's, which V8 drops once it has not run for a while.

/** The ESTree nodes this transform reads (what `parseAst` answers). */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}
interface Specifier extends Node {
  local: Node & { name?: string; value?: string };
  exported: Node & { name?: string; value?: string };
}

/** A parser of ES modules to ESTree (Vite's `parseAst`), typed as far as this file reads it. */
export type Parse = (code: string) => { body: readonly object[] };

/** Why a chunk is left as it was; null when wrapped. */
export type Unwrapped = string | null;

const nameOf = (n: { name?: string; value?: string }) => n.name ?? n.value ?? '';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The names a binding pattern binds (or, on an assignment's left side, writes). */
function patternNames(p: unknown, out: string[] = []): string[] {
  const n = p as (Node & { name?: string }) | null;
  if (!n) return out;
  if (n.type === 'Identifier' && n.name) out.push(n.name);
  else if (n.type === 'ObjectPattern') for (const prop of n.properties as Node[]) patternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out);
  else if (n.type === 'ArrayPattern') for (const el of n.elements as Node[]) patternNames(el, out);
  else if (n.type === 'AssignmentPattern') patternNames(n.left, out);
  else if (n.type === 'RestElement') patternNames(n.argument, out);
  return out;
}

/** What a function declares for its whole body: `var`s anywhere in it (not in functions within), and its body's own top-level declarations. */
function functionScope(fn: Node): string[] {
  const names = (fn.params as Node[]).flatMap((p) => patternNames(p));
  if (fn.type === 'FunctionExpression' && fn.id) names.push(...patternNames(fn.id));
  const body = fn.body as Node;
  if (body.type !== 'BlockStatement') return names;
  for (const st of body.body as Node[]) {
    if (st.type === 'VariableDeclaration') for (const d of st.declarations as Node[]) names.push(...patternNames(d.id));
    else if ((st.type === 'FunctionDeclaration' || st.type === 'ClassDeclaration') && st.id) names.push(...patternNames(st.id));
  }
  const vars = (node: unknown): void => {
    if (Array.isArray(node)) return void node.forEach(vars);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (FUNCTIONS.has(n.type)) return;
    if (n.type === 'VariableDeclaration' && n.kind === 'var') for (const d of n.declarations as Node[]) names.push(...patternNames(d.id));
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && v && typeof v === 'object') vars(v);
  };
  vars(body.body);
  return names;
}

/**
 * The module-level names an assignment or update anywhere in `node` may write: every target not
 * shadowed by a function's parameter, its `var`s, or its body's top-level declarations. A name
 * shadowed only in a nested block or a `catch` still counts (the answer errs towards "assigned").
 */
interface Scope {
  names: ReadonlySet<string>;
  parent: Scope | null;
}
const shadows = (scope: Scope | null, name: string): boolean => scope !== null && (scope.names.has(name) || shadows(scope.parent, name));

function assignedNames(node: unknown, shadow: Scope | null, out: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const n of node) assignedNames(n, shadow, out);
    return out;
  }
  if (!node || typeof node !== 'object') return out;
  const n = node as Node;
  if (FUNCTIONS.has(n.type)) {
    const inner = { names: new Set(functionScope(n)), parent: shadow };
    assignedNames(n.params, inner, out);
    return assignedNames(n.body, inner, out);
  }
  const targets =
    n.type === 'AssignmentExpression'
      ? patternNames(n.left)
      : n.type === 'UpdateExpression'
        ? patternNames(n.argument)
        : (n.type === 'ForInStatement' || n.type === 'ForOfStatement') && (n.left as Node).type !== 'VariableDeclaration'
          ? patternNames(n.left)
          : [];
  for (const t of targets) if (!shadows(shadow, t)) out.add(t);
  for (const [k, v] of Object.entries(n)) if (k !== 'type' && v && typeof v === 'object') assignedNames(v, shadow, out);
  return out;
}

/**
 * `code` (an ES module as the bundler wrote it) with its top level run inside `(()=>{…})()`: its
 * static imports stay at the module's top (hoisted: written over with spaces where they were, and
 * again after the wrapper), and each export is of a module-level `var` the wrapper sets as it ends.
 * Every original character keeps its line and column, and one line is added in front (a source map
 * is shifted by one line). Left unchanged, with the reason, when an export could change after the
 * module ran (a `var` or `let` assigned anywhere: a live binding would go stale), when an export
 * is not a local (`export … from`, a declaration), or when the wrapped code does not parse (a
 * top-level `await`).
 */
export function wrapModule(code: string, parse: Parse): { code: string; unwrapped: Unwrapped } {
  const program = parse(code) as { body: readonly Node[] };
  const imports: Node[] = [];
  const exportStatements: Node[] = [];
  const specifiers: Specifier[] = [];
  const kinds = new Map<string, string>();
  for (const st of program.body) {
    if (st.type === 'ImportDeclaration') imports.push(st);
    else if (st.type === 'ExportNamedDeclaration' && !st.declaration && !st.source) {
      exportStatements.push(st);
      specifiers.push(...(st.specifiers as Specifier[]));
    } else if (st.type.startsWith('Export')) return { code, unwrapped: `an export the wrapper cannot carry (${st.type})` };
    else if (st.type === 'VariableDeclaration')
      for (const d of st.declarations as (Node & { id: Node & { name?: string } })[]) {
        if (d.id.type === 'Identifier' && d.id.name) kinds.set(d.id.name, st.kind as string);
      }
    else if ((st.type === 'FunctionDeclaration' || st.type === 'ClassDeclaration') && (st.id as { name?: string } | null)?.name)
      kinds.set((st.id as { name: string }).name, st.type);
  }
  const locals = [...new Set(specifiers.map((s) => nameOf(s.local)))];
  const assigned = locals.some((l) => kinds.get(l) !== 'const') ? assignedNames(program.body, null, new Set()) : new Set<string>();
  for (const l of locals) {
    const kind = kinds.get(l);
    if (!kind) return { code, unwrapped: `export ${l} is not declared at the top level` };
    if (kind !== 'const' && assigned.has(l)) return { code, unwrapped: `export ${l} may be assigned after the module ran` };
  }
  const alias = new Map(locals.map((l, i) => [l, `$flush${i}`]));
  if ([...alias.values()].some((a) => code.includes(a))) return { code, unwrapped: 'the aliases are taken' };
  const blank = (text: string, n: Node) => text.slice(0, n.start) + text.slice(n.start, n.end).replace(/[^\n]/g, ' ') + text.slice(n.end);
  let body = code;
  for (const n of [...imports, ...exportStatements]) body = blank(body, n);
  const importText = imports.map((n) => code.slice(n.start, n.end)).join('');
  const sets = locals.map((l) => `${alias.get(l)}=${l};`).join('');
  const exportText = specifiers.length
    ? `export{${specifiers.map((s) => `${alias.get(nameOf(s.local))} as ${code.slice(s.exported.start, s.exported.end)}`).join(',')}};`
    : '';
  const vars = locals.length ? `var ${[...alias.values()].join(',')};` : '';
  const wrapped = `(()=>{\n${body}\n;${sets}})();${importText}${vars}${exportText}\n`;
  try {
    parse(wrapped);
  } catch (e) {
    return { code, unwrapped: `the wrapped module does not parse: ${(e as Error).message.split('\n')[0]}` };
  }
  return { code: wrapped, unwrapped: null };
}

/**
 * The build's plugin: every chunk wrapped (after minification: on the bundle as written), its source
 * map shifted by the line added in front. A chunk left as it was is named with the reason (at the
 * build's info level: `--logLevel info`).
 */
export function flushableChunks(parse: Parse): Plugin {
  return {
    name: 'etg-flushable-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const { code, unwrapped } = wrapModule(file.code, parse);
        if (unwrapped) {
          this.info(`${file.fileName} keeps its top level: ${unwrapped}`);
          continue;
        }
        file.code = code;
        if (file.map) file.map.mappings = `;${file.map.mappings}`;
      }
    },
  };
}
