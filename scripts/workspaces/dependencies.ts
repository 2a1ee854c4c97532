// The workspaces say what they import (issue 35 item 5): each folder that runs somewhere (engine/,
// host/, upstream/…) is an npm workspace whose package.json names exactly the packages, and the
// other workspaces, its files import, so that `npm ci --omit=dev --workspace upstream` installs
// what the upstream runs and nothing of the cabinet's, and the other way round (docs/architecture.md,
// "Workspaces"). This check keeps those package.json files true as the code changes:
//
//   - an import of a package, or of a file of another workspace, is declared by the importing
//     workspace: in `dependencies` (or optional or peer) when it runs, in `devDependencies` when only
//     a test or a type needs it, or when `devOnlyImports` names it with the development-only
//     command that runs it;
//   - nothing is declared that the workspace's files do not import (a `@types/x` only beside an
//     imported `x` that has no types of its own), and nothing is declared to run that only tests use;
//   - a workspace imports no file of the root, which holds development tools only (but the root
//     package.json, read for the product's version);
//   - one package has one version range wherever it is declared.
//
// The root's own folders (tests/, bench/, scripts/, deploy/, bin/) are development: the root's
// package.json declares what they import, in any field, and the root install holds every workspace.
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

export interface Manifest {
  readonly name: string;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  /**
   * Development dependencies that running files import all the same, each with the command that
   * does and why it runs only in development (`etg upstream` from the repository, `etg soak`): a
   * production install leaves them out, and that command says what is missing (cli/workspace-load.ts).
   */
  readonly devOnlyImports?: Readonly<Record<string, string>>;
}

/** A package.json and the folder it describes, relative to the root ('' is the root). */
export interface Package {
  readonly dir: string;
  readonly manifest: Manifest;
}

/** One import of a file: what it names, and whether only types cross (erased at run time). */
export interface Import {
  readonly spec: string;
  readonly typeOnly: boolean;
}

const RUN_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;
const ALL_FIELDS = [...RUN_FIELDS, 'devDependencies'] as const;

function literal(node: ts.Node | undefined): string | undefined {
  return node && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** Every static import, re-export and `import()` of a literal path, with whether only types cross. */
export function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier);
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      // `import { type A, type B } from` erases like `import type`; `import {} from` and a bare `import 'x'` run it.
      const allNamedTypes =
        clause !== undefined &&
        clause.name === undefined &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      if (spec !== undefined) found.push({ spec, typeOnly: clause?.isTypeOnly === true || allNamedTypes });
    } else if (ts.isExportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier);
      const clause = node.exportClause;
      const allNamedTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      if (spec !== undefined) found.push({ spec, typeOnly: node.isTypeOnly || allNamedTypes });
    } else if (ts.isImportTypeNode(node)) {
      const spec = ts.isLiteralTypeNode(node.argument) ? literal(node.argument.literal) : undefined;
      if (spec !== undefined) found.push({ spec, typeOnly: true });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const spec = literal(node.arguments[0]);
      if (spec !== undefined) found.push({ spec, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

const isTest = (rel: string): boolean => /\.test\.[cm]?[jt]s$/.test(rel);

const devOnly = (manifest: Manifest, name: string): boolean => manifest.devOnlyImports !== undefined && Object.hasOwn(manifest.devOnlyImports, name);

/**
 * Whether `manifest` allows an import of `name` from `fields`. A running file may also import what
 * `devOnlyImports` names: a package there must be a devDependency too (a production install leaves
 * it out); a workspace there must be no dependency at all, since npm follows a workspace's edge to
 * another workspace, devDependencies included, into a production install of it (a linked
 * workspace's own dependencies count as production), and the root install links every workspace.
 */
function declaredIn(manifest: Manifest, name: string, fields: readonly (typeof ALL_FIELDS)[number][], workspace = false): boolean {
  if (fields.some((f) => manifest[f] !== undefined && Object.hasOwn(manifest[f], name))) return true;
  if (!devOnly(manifest, name)) return false;
  return workspace || (fields === RUN_FIELDS && declaredIn(manifest, name, ['devDependencies']));
}

export interface CheckInput {
  /** The root package and every workspace (dirs relative to the root, '/'-separated). */
  readonly root: Manifest;
  readonly workspaces: readonly Package[];
  /** Every source file, path relative to the root ('/'-separated) → its text. */
  readonly sources: ReadonlyMap<string, string>;
  /** Whether a relative path names a file that exists (besides the sources: package.json, JSON data). */
  readonly exists: (rel: string) => boolean;
  /** The `@types/…` package an installed package needs for its types, or undefined when it brings its own. */
  readonly typesFor: (name: string) => string | undefined;
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs'];

/** The file a relative specifier names, relative to the root: `./x.js` is `./x.ts` in source. */
function resolveRelative(from: string, spec: string, has: (rel: string) => boolean): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(m?js|cjs|jsx)$/, '');
  const candidates = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => `${base}/index${e}`)];
  return candidates.find(has);
}

/** Every way the workspaces' package.json files disagree with their imports, as lines to print. */
export function checkWorkspaces(input: CheckInput): string[] {
  const problems: string[] = [];
  // Longest folder first, so that a workspace nested in another owns its own files.
  const byDepth = [...input.workspaces].sort((a, b) => b.dir.length - a.dir.length);
  const ownerOf = (rel: string): Package | undefined => byDepth.find((w) => rel.startsWith(`${w.dir}/`));
  const manifestPath = (w: Package | undefined) => (w ? `${w.dir}/package.json` : 'package.json');
  // What each workspace's files use: name → used when running (a non-test file, a value import).
  const used = new Map<Package, Map<string, boolean>>(input.workspaces.map((w) => [w, new Map()]));
  const note = (w: Package, name: string, runs: boolean) => {
    const seen = used.get(w)!;
    seen.set(name, (seen.get(name) ?? false) || runs);
  };

  for (const [rel, text] of input.sources) {
    const owner = ownerOf(rel);
    const where = owner?.manifest ?? input.root;
    for (const { spec, typeOnly } of importsOf(rel, text)) {
      const runs = !typeOnly && !isTest(rel);
      const fields = owner && runs ? RUN_FIELDS : ALL_FIELDS;
      const want = runs ? 'dependencies' : 'devDependencies';
      if (spec.startsWith('.')) {
        const target = resolveRelative(rel, spec, (f) => input.sources.has(f) || input.exists(f));
        if (target === undefined || owner === undefined) continue;
        const targetOwner = ownerOf(target);
        if (targetOwner === owner) continue;
        if (targetOwner === undefined) {
          if (target !== 'package.json')
            problems.push(`${rel}: imports ${target}, a file of the root, which holds development tools only: no workspace may need it`);
          continue;
        }
        note(owner, targetOwner.manifest.name, runs);
        if (!declaredIn(where, targetOwner.manifest.name, fields, true))
          problems.push(`${rel}: imports ${target} of ${targetOwner.manifest.name}, which ${manifestPath(owner)} does not declare in ${want}`);
        continue;
      }
      if (spec.startsWith('node:') || isBuiltin(spec) || spec.startsWith('/')) continue;
      // A subpath import (`#catalogue-files`) is the workspace's own package.json `imports`: its own files, no dependency.
      if (spec.startsWith('#')) continue;
      const name = packageName(spec);
      const types = input.typesFor(name);
      if (owner) note(owner, name, runs);
      if (owner && types !== undefined) note(owner, types, false);
      if (!declaredIn(where, name, fields))
        problems.push(`${rel}: imports "${name}", which ${manifestPath(owner)} does not declare in ${owner ? want : 'any of its fields'}`);
      else if (types !== undefined && !declaredIn(where, types, ALL_FIELDS))
        problems.push(`${rel}: imports "${name}", whose types are ${types}, which ${manifestPath(owner)} does not declare in devDependencies`);
    }
  }

  for (const w of input.workspaces) {
    const seen = used.get(w)!;
    for (const field of ALL_FIELDS) {
      for (const name of Object.keys(w.manifest[field] ?? {})) {
        if (!seen.has(name)) problems.push(`${w.dir}/package.json: declares "${name}" in ${field}, which none of its files imports`);
        else if (field !== 'devDependencies' && seen.get(name) === false)
          problems.push(`${w.dir}/package.json: declares "${name}" in ${field}, which only its tests or types import: devDependencies`);
      }
    }
    for (const name of Object.keys(w.manifest.devOnlyImports ?? {})) {
      const workspace = input.workspaces.some((o) => o.manifest.name === name);
      if (workspace && declaredIn(w.manifest, name, ALL_FIELDS))
        problems.push(
          `${w.dir}/package.json: lists the workspace "${name}" in devOnlyImports and as a dependency, which npm installs with it even with --omit=dev`,
        );
      else if (!workspace && !declaredIn(w.manifest, name, ['devDependencies']))
        problems.push(`${w.dir}/package.json: lists "${name}" in devOnlyImports, which it does not declare in devDependencies`);
      else if (seen.get(name) !== true) problems.push(`${w.dir}/package.json: lists "${name}" in devOnlyImports, which no running file of it imports`);
    }
  }

  // One range per package: two ranges could install two copies, and the workspaces would disagree on which runs.
  const ranges = new Map<string, Map<string, string>>();
  for (const p of [{ dir: '', manifest: input.root }, ...input.workspaces]) {
    for (const field of ALL_FIELDS) {
      for (const [name, range] of Object.entries(p.manifest[field] ?? {})) {
        if (input.workspaces.some((w) => w.manifest.name === name)) continue;
        const at = ranges.get(name) ?? new Map<string, string>();
        at.set(manifestPath(p.dir === '' ? undefined : p), range);
        ranges.set(name, at);
      }
    }
  }
  for (const [name, at] of ranges) {
    if (new Set(at.values()).size > 1)
      problems.push(`"${name}" is declared with different ranges: ${[...at].map(([file, range]) => `${range} in ${file}`).join(', ')}`);
  }

  const listed = new Set(input.root.workspaces ?? []);
  for (const w of input.workspaces) if (!listed.has(w.dir)) problems.push(`${w.dir}/package.json: not in the root package.json's workspaces`);
  return problems;
}
