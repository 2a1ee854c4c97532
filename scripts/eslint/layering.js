// Local ESLint rule: the dependency directions of docs/architecture.md, written as data.
//
// Every file belongs to the layer named by its first folder under the repository root. Each
// layer says which of our folders it may import (`any` import, or `types` for `import type`
// only), which npm packages it may import, and whether Node built-ins are allowed. An import
// that is not allowed is an error; so is a package nobody categorised, which forces a decision
// about where a new dependency may run (Signal's "uncategorised dependency" habit). A package a
// layer owns (`owners`) is refused everywhere else, even where any package is allowed.
import { builtinModules } from 'node:module';
import path from 'node:path';

const BUILTINS = new Set(builtinModules);

/** @param {string} spec */
function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

/** @param {string} spec */
function isBuiltin(spec) {
  return spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(packageName(spec));
}

/**
 * @param {string} pattern  a package name, or a scope wildcard such as `@fastify/*`
 * @param {string} name
 */
function packageMatches(pattern, name) {
  return pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/**
 * What a layer may import of `target` (a path from the repository root, `/`-separated): the grant
 * of the most specific key that is the target or a folder holding it, so a layer can be given one
 * file of another (the protocol is given the engine's vocabulary, nothing else of the engine).
 * @param {Record<string, 'any' | 'types'>} folders
 * @param {string} target
 */
function grant(folders, target) {
  // A TypeScript import names the compiled file (`vocabulary.js`) of the source (`vocabulary.ts`).
  const bare = (/** @type {string} */ p) => p.replace(/\.(js|ts)$/, '');
  let best = '';
  for (const key of Object.keys(folders)) {
    const k = bare(key);
    if ((bare(target) === k || target.startsWith(`${k}/`)) && key.length > best.length) best = key;
  }
  return best ? folders[best] : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layeringRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer dependency directions of docs/architecture.md' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'object' },
          owners: { type: 'object' },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      folder: "'{{from}}/' may not import from '{{to}}/' ({{why}}).",
      typesOnly: "'{{from}}/' may import only types from '{{to}}/': use `import type`.",
      outside: "'{{from}}/' may not import files outside the repository layers ('{{spec}}').",
      builtin: "'{{from}}/' must not use Node built-ins ('{{spec}}'): it runs without Node.",
      pkg: "'{{from}}/' may not import the package '{{name}}'. Allowed here: {{allowed}}.",
      inside: "'{{from}}/{{a}}/' may not import '{{from}}/{{b}}/'. It may import: {{allowed}}.",
      insideUnknown: "'{{from}}/{{sub}}/' has no layering rule of its own: add it to the layer's `inside` table.",
      tier: "'{{folder}}/{{a}}' ({{aTier}}) may not import '{{folder}}/{{b}}' ({{bTier}}): a file imports only its own tier and the ones below ({{order}}).",
      tierUnknown: "'{{folder}}/{{file}}' has no tier: add it to the `tiers` table of '{{folder}}/' (eslint.config.js, docs/architecture.md).",
      owned: "'{{from}}/' may not import the package '{{name}}': only '{{owner}}/' may; use what '{{owner}}/' exports.",
    },
  },
  create(context) {
    const { root, layers, owners = {} } = /** @type {{root: string, layers: Record<string, Layer>, owners?: Record<string, string>}} */ (context.options[0]);
    const file = path.resolve(context.filename);
    const rel = path.relative(root, file);
    if (rel.startsWith('..')) return {};
    const from = rel.split(path.sep)[0] ?? '';
    const layer = layers[from];
    if (!layer) return {};

    /**
     * @param {import('estree').Node} node
     * @param {string} spec
     * @param {boolean} typeOnly
     */
    function check(node, spec, typeOnly) {
      // A subpath import (`#catalogue-files`) is the layer's own package.json `imports`: it maps to
      // files of the same folder, each linted as itself (a Node-only one must be a `nodeFiles`).
      if (spec.startsWith('#')) return;
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const target = path.relative(root, path.resolve(path.dirname(file), spec));
        if (target.startsWith('..')) {
          context.report({ node, messageId: 'outside', data: { from, spec } });
          return;
        }
        const to = target.split(path.sep)[0] ?? '';
        if (to === from) {
          checkInside(node, rel, target);
          checkTiers(node, rel, target);
          return;
        }
        const access = grant(layer.folders ?? {}, target.split(path.sep).join('/'));
        if (access === 'any') return;
        if (access === 'types') {
          if (!typeOnly) context.report({ node, messageId: 'typesOnly', data: { from, to } });
          return;
        }
        context.report({
          node,
          messageId: 'folder',
          data: { from, to, why: layer.why ?? 'see docs/architecture.md' },
        });
        return;
      }
      if (isBuiltin(spec)) {
        if (!layer.node && !(layer.nodeFiles ?? []).includes(rel.split(path.sep).join('/')))
          context.report({ node, messageId: 'builtin', data: { from, spec } });
        return;
      }
      const name = packageName(spec);
      const owner = Object.hasOwn(owners, name) ? owners[name] : undefined;
      if (owner !== undefined && owner !== from) {
        context.report({ node, messageId: 'owned', data: { from, name, owner } });
        return;
      }
      const allowed = layer.packages ?? [];
      if (allowed.includes('*') && name !== 'electron') return;
      if (allowed.some((p) => packageMatches(p, name))) return;
      context.report({
        node,
        messageId: 'pkg',
        data: { from, name, allowed: allowed.length ? allowed.join(', ') : 'none' },
      });
    }

    /**
     * Inside a layer with `inside` rules (the host): a file of one subfolder may import only the
     * subfolders its rule lists; files directly in the layer's folder are its composition root
     * and may import any. Test files are not dependencies of the product and are not held to it.
     * @param {import('estree').Node} node
     * @param {string} fromPath  the importing file, from the repository root
     * @param {string} target  the imported file, from the repository root
     */
    function checkInside(node, fromPath, target) {
      const inside = layer.inside;
      if (!inside || fromPath.endsWith('.test.ts')) return;
      const sub = (/** @type {string} */ p) => {
        const parts = p.split(path.sep);
        return parts.length > 2 ? (parts[1] ?? '') : '';
      };
      const a = sub(fromPath);
      const b = sub(target);
      if (a === '' || a === b) return;
      const allowed = inside[a];
      if (allowed === undefined) {
        context.report({ node, messageId: 'insideUnknown', data: { from, sub: a } });
        return;
      }
      if (b !== '' && allowed.includes(b)) return;
      context.report({
        node,
        messageId: 'inside',
        data: { from, a, b: b || '(the composition root)', allowed: allowed.length ? allowed.join(', ') : 'nothing' },
      });
    }

    /**
     * Inside a folder with `tiers` (engine/table): its files are ranked bottom to top, and a file
     * may import files of its own tier and of the tiers below it, never above. Test files are not
     * held to it; a file of the folder with no tier is refused until it is given one.
     * @param {import('estree').Node} node
     * @param {string} fromPath  the importing file, from the repository root
     * @param {string} target  the imported file, from the repository root
     */
    function checkTiers(node, fromPath, target) {
      const folder = path.dirname(fromPath).split(path.sep).join('/');
      const order = layer.tiers?.[folder];
      if (!order || fromPath.endsWith('.test.ts')) return;
      if (path.dirname(target).split(path.sep).join('/') !== folder) return;
      const rank = (/** @type {string} */ p) => {
        const name = path.basename(p).replace(/\.(js|ts)$/, '');
        return { name, at: order.findIndex(([, files]) => files.includes(name)) };
      };
      const a = rank(fromPath);
      const b = rank(target);
      for (const unknown of [a, b].filter((x) => x.at < 0)) {
        context.report({ node, messageId: 'tierUnknown', data: { folder, file: `${unknown.name}.ts` } });
        return;
      }
      if (b.at <= a.at) return;
      context.report({
        node,
        messageId: 'tier',
        data: {
          folder,
          a: `${a.name}.ts`,
          aTier: order[a.at]?.[0] ?? '',
          b: `${b.name}.ts`,
          bTier: order[b.at]?.[0] ?? '',
          order: order.map(([tier]) => tier).join(' < '),
        },
      });
    }

    /** @param {any} node */
    function fromSource(node) {
      if (node.source && node.source.type === 'Literal' && typeof node.source.value === 'string') {
        const typeOnly =
          node.importKind === 'type' ||
          node.exportKind === 'type' ||
          (node.specifiers?.length > 0 && node.specifiers.every((/** @type {any} */ s) => s.importKind === 'type'));
        check(node, node.source.value, typeOnly);
      }
    }

    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      /** @param {any} node */
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') {
          check(node, node.source.value, false);
        }
      },
      /** `require('x')` and `createRequire(…)('x')` count as imports too. @param {any} node */
      CallExpression(node) {
        const arg = node.arguments?.[0];
        if (node.arguments?.length !== 1 || arg?.type !== 'Literal' || typeof arg.value !== 'string') return;
        const callee = node.callee;
        const isRequire = callee.type === 'Identifier' && callee.name === 'require';
        const isCreated = callee.type === 'CallExpression' && callee.callee?.type === 'Identifier' && callee.callee.name === 'createRequire';
        if (isRequire || isCreated) check(node, arg.value, false);
      },
      /** @param {any} node */
      TSImportEqualsDeclaration(node) {
        const ref = node.moduleReference;
        if (ref?.type === 'TSExternalModuleReference' && typeof ref.expression.value === 'string') {
          check(node, ref.expression.value, node.importKind === 'type');
        }
      },
    };
  },
};

/**
 * @typedef {object} Layer
 * @property {Record<string, 'any' | 'types'>} [folders]  our folders this layer may import
 * @property {string[]} [packages]  npm packages it may import (`*` = any but electron)
 * @property {boolean} [node]  whether Node built-ins are allowed
 * @property {string[]} [nodeFiles]  files of a layer without Node that alone may use Node built-ins: each loaded only in Node, picked by the layer's package.json `imports` conditions
 * @property {string} [why]  the reason shown with a refused folder import
 * @property {Record<string, string[]>} [inside]  per subfolder, the subfolders of the same layer it may import
 * @property {Record<string, [string, string[]][]>} [tiers]  per folder (from the repository root), its files' tiers bottom to top: each tier's name and its files (without `.ts`)
 */

export default { rules: { layering: layeringRule } };
