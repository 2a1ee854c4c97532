// No god objects (issue 32): how long our files and functions are, measured with TypeScript's own
// parser, so that a long function is found whatever its form (a declaration, a method, an arrow
// function kept in a variable or passed as an argument). `npm run lint` runs scripts/check-sizes.ts.
import path from 'node:path';
import ts from 'typescript';

/**
 * The limits: a file ≤ 600 lines and a function ≤ 80 (issue 32's "about 80"; the check first held
 * 100), in every runtime folder (issue 53: engine, host and renderer first, then the folders
 * nobody measured, with what was over then in the ratchet list).
 */
export const FILE_LIMIT = 600;
export const FUNCTION_LIMIT = 80;
export const RUNTIME_FOLDERS = ['engine', 'host', 'renderer', 'ledger', 'hardware', 'protocol', 'upstream', 'witness', 'cli', 'electron', 'cards', 'terms'];
export const FILE_FOLDERS = RUNTIME_FOLDERS;
export const FUNCTION_FOLDERS = RUNTIME_FOLDERS;

export interface Measured {
  /** `file` or `file: name` (a function's name as its file spells it: `Class.method`, `outer > inner`). */
  readonly what: string;
  readonly lines: number;
}

/** Non-test TypeScript under the folders (paths relative to the root, with forward slashes). */
export function isMeasured(rel: string, folders: readonly string[]): boolean {
  return folders.some((f) => rel.startsWith(`${f}/`)) && /\.tsx?$/.test(rel) && !/\.(test|spec)\.tsx?$/.test(rel) && !rel.endsWith('.d.ts');
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** The name a function goes by: its own, its variable's or property's, else where it starts. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = (n: ts.Node | undefined) => (n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) ? n.text : undefined);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isFunctionExpression(node)) &&
    node.name
  ) {
    const own = named(node.name);
    if (own) return own;
  }
  const p = node.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) {
    const own = named(p.name);
    if (own) return own;
  }
  return `(line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** Every function of one file with its length in lines (its whole span, nested functions included). */
export function functionLengths(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const visit = (node: ts.Node, outer: string[]) => {
    let names = outer;
    if (isFunction(node) && node.body) {
      const klass = node.parent && (ts.isClassDeclaration(node.parent) || ts.isClassExpression(node.parent)) ? node.parent.name?.text : undefined;
      const name = klass ? `${klass}.${nameOf(node, source)}` : nameOf(node, source);
      names = [...outer, name];
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ what: `${file}: ${names.join(' > ')}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, (c) => visit(c, names));
  };
  visit(source, []);
  return out;
}

/** What is over its limit among `sources` (relative path → text). */
export function overLimits(sources: ReadonlyMap<string, string>): Measured[] {
  const over: Measured[] = [];
  for (const [rel, text] of sources) {
    const file = rel.split(path.sep).join('/');
    if (isMeasured(file, FILE_FOLDERS)) {
      const lines = lineCount(text);
      if (lines > FILE_LIMIT) over.push({ what: file, lines });
    }
    if (isMeasured(file, FUNCTION_FOLDERS)) over.push(...functionLengths(file, text).filter((f) => f.lines > FUNCTION_LIMIT));
  }
  return over.sort((a, b) => b.lines - a.lines);
}

export interface SizeVerdict {
  /** Over the limit and not in the list, or longer than the list allows: the check fails. */
  readonly failures: string[];
  /** In the list but now within the limit or shorter: the list may shrink (printed, never a failure, so a split lands alone). */
  readonly shrunk: string[];
}

/**
 * Held against the list of what was already too long when the check came (`allowed`: what →
 * lines). A ratchet: nothing new may be over, nothing listed may grow.
 */
export function judge(
  over: readonly Measured[],
  allowed: Readonly<Record<string, number>>,
  limitOf: (what: string) => number = (what) => (what.includes(': ') ? FUNCTION_LIMIT : FILE_LIMIT),
  unit = 'lines',
): SizeVerdict {
  // An anonymous function goes by its line, which an edit above it moves: it is matched by its place without the line.
  const key = (what: string) => what.replace(/\(line \d+\)/g, '(anonymous)');
  const listedAs = new Map(Object.entries(allowed).map(([w, n]) => [key(w), n]));
  const failures: string[] = [];
  const seen = new Map<string, number>();
  for (const m of over) {
    seen.set(key(m.what), m.lines);
    const limit = limitOf(m.what);
    const listed = listedAs.get(key(m.what));
    if (listed === undefined) failures.push(`${m.what}: ${m.lines} ${unit}, over the limit of ${limit}`);
    else if (m.lines > listed) failures.push(`${m.what}: ${m.lines} ${unit}, more than the ${listed} it had when the limit came (${limit})`);
  }
  const shrunk = Object.keys(allowed).filter((w) => (seen.get(key(w)) ?? 0) < (allowed[w] ?? 0));
  return { failures, shrunk };
}

/**
 * No god objects, by their surface (issue 53): an exported class, interface or object type alias
 * (`type X = { … }`) of a runtime folder has at most this many public members (a method, a
 * property, an accessor pair counted once, a constructor parameter declared `readonly` or `public`;
 * a class's private, protected and `#` members and its constructor aside). A type that needs more
 * hands out objects of its own (`TableRuntime`'s reads, shoe, countdowns…).
 */
export const MEMBER_LIMIT = 20;
export const MEMBER_FOLDERS = RUNTIME_FOLDERS;

const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const hidden = (m: ts.Node) =>
  (ts.canHaveModifiers(m) && (ts.getModifiers(m) ?? []).some((k) => k.kind === ts.SyntaxKind.PrivateKeyword || k.kind === ts.SyntaxKind.ProtectedKeyword)) ||
  ('name' in m && m.name !== undefined && ts.isPrivateIdentifier(m.name as ts.Node));

/** Whether a member is behaviour: a method, an accessor, or a property holding a function. */
const behaves = (m: ts.Node) =>
  ts.isMethodDeclaration(m) ||
  ts.isMethodSignature(m) ||
  ts.isGetAccessor(m) ||
  ts.isSetAccessor(m) ||
  ((ts.isPropertySignature(m) || ts.isPropertyDeclaration(m)) && m.type !== undefined && ts.isFunctionTypeNode(m.type));

/** A class's constructor parameters declared as members (`constructor(readonly rules: Rules)`): public unless private or protected. */
function parameterProperties(klass: ts.ClassDeclaration): ts.Node[] {
  const ctor = klass.members.find(ts.isConstructorDeclaration);
  return (ctor?.parameters ?? []).filter((p) =>
    ts.getModifiers(p)?.some((m) => m.kind === ts.SyntaxKind.PublicKeyword || m.kind === ts.SyntaxKind.ReadonlyKeyword),
  );
}

/**
 * Every exported class's, interface's and object type alias's count of public members, by `file: Name`: those with
 * behaviour (a plain record of data, a row or a state, is not an object that grows into a hub).
 */
export function publicMembers(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const count = (name: string, members: readonly ts.Node[]) => {
    if (!members.some(behaves)) return;
    const names = new Set<string>();
    for (const m of members) {
      if (ts.isConstructorDeclaration(m) || ts.isIndexSignatureDeclaration(m) || ts.isClassStaticBlockDeclaration(m) || ts.isSemicolonClassElement(m)) continue;
      if (ts.isCallSignatureDeclaration(m) || ts.isConstructSignatureDeclaration(m) || hidden(m)) continue;
      const n =
        'name' in m && m.name ? (m.name as ts.PropertyName).getText(source) : `(line ${source.getLineAndCharacterOfPosition(m.getStart(source)).line + 1})`;
      names.add(n);
    }
    out.push({ what: `${file}: ${name}`, lines: names.size });
  };
  for (const s of source.statements) {
    if (!exported(s)) continue;
    if (ts.isClassDeclaration(s) && s.name) count(s.name.text, [...s.members, ...parameterProperties(s)]);
    else if (ts.isInterfaceDeclaration(s)) count(s.name.text, s.members);
    // `export type Hub = { … }`: an interface by another name.
    else if (ts.isTypeAliasDeclaration(s) && ts.isTypeLiteralNode(s.type)) count(s.name.text, s.type.members);
  }
  return out;
}

/** Exported classes, interfaces and object type aliases of `sources` with more public members than MEMBER_LIMIT. */
export function overMembers(sources: ReadonlyMap<string, string>): Measured[] {
  const over: Measured[] = [];
  for (const [rel, text] of sources) {
    const file = rel.split(path.sep).join('/');
    if (isMeasured(file, MEMBER_FOLDERS)) over.push(...publicMembers(file, text).filter((m) => m.lines > MEMBER_LIMIT));
  }
  return over.sort((a, b) => b.lines - a.lines);
}
