import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readSources } from '../../scripts/cycles/import-cycles.js';
import { checkWorkspaces, importsOf, type CheckInput, type Manifest } from '../../scripts/workspaces/dependencies.js';
import { readPackages, typesFor } from '../../scripts/workspaces/read.js';

// A small repository: a root and two workspaces, the sources given per case. `pg` has its types
// in @types/pg; every other package brings its own.
const root: Manifest = { name: 'kiosk', workspaces: ['engine', 'upstream'], devDependencies: { 'fast-check': '^4.0.0', tsx: '^4.0.0' } };
const engine: Manifest = { name: '@etg/engine', dependencies: { zod: '^4.0.0' }, devDependencies: { 'fast-check': '^4.0.0' } };
const upstream: Manifest = { name: '@etg/upstream', dependencies: { pg: '^8.0.0', zod: '^4.0.0' }, devDependencies: { '@types/pg': '^8.0.0' } };
// What every declared package above needs to count as used.
const uses = {
  'engine/deck.ts': "import { z } from 'zod';",
  'engine/deck.test.ts': "import fc from 'fast-check';",
  'upstream/db.ts': "import pg from 'pg';\nimport { z } from 'zod';",
};

function check(sources: Record<string, string>, change: Partial<{ root: Manifest; engine: Manifest; upstream: Manifest }> = {}): string[] {
  const input: CheckInput = {
    root: change.root ?? root,
    workspaces: [
      { dir: 'engine', manifest: change.engine ?? engine },
      { dir: 'upstream', manifest: change.upstream ?? upstream },
    ],
    sources: new Map(Object.entries({ ...uses, ...sources })),
    exists: (rel) => rel === 'package.json',
    typesFor: (name) => (name === 'pg' ? '@types/pg' : undefined),
  };
  return checkWorkspaces(input);
}

const refused: [string, Record<string, string>, Partial<{ root: Manifest; engine: Manifest; upstream: Manifest }>, RegExp][] = [
  [
    'a package the workspace does not declare',
    { 'engine/shoe.ts': "import pg from 'pg';" },
    {},
    /^engine\/shoe\.ts: imports "pg", which engine\/package\.json does not declare in dependencies$/,
  ],
  [
    'a devDependency imported by a file that runs',
    { 'engine/shuffle.ts': "import fc from 'fast-check';" },
    {},
    /^engine\/shuffle\.ts: imports "fast-check", which engine\/package\.json does not declare in dependencies$/,
  ],
  [
    'a dynamic import of an undeclared package',
    { 'engine/lazy.ts': "export const load = () => import('pixi.js');" },
    {},
    /^engine\/lazy\.ts: imports "pixi\.js", which engine\/package\.json does not declare in dependencies$/,
  ],
  [
    'a file of another workspace, undeclared',
    { 'upstream/ingest.ts': "import { z } from 'zod';\nimport { deck } from '../engine/deck.js';" },
    {},
    /^upstream\/ingest\.ts: imports engine\/deck\.ts of @etg\/engine, which upstream\/package\.json does not declare in dependencies$/,
  ],
  [
    'a file of the root from a workspace',
    { 'scripts/tool.ts': '', 'engine/uses-tool.ts': "import { x } from '../scripts/tool.js';" },
    {},
    /^engine\/uses-tool\.ts: imports scripts\/tool\.ts, a file of the root, which holds development tools only/,
  ],
  [
    'a declared package nothing imports',
    {},
    { engine: { ...engine, dependencies: { zod: '^4.0.0', pino: '^10.0.0' } } },
    /^engine\/package\.json: declares "pino" in dependencies, which none of its files imports$/,
  ],
  [
    'a package declared to run that only tests import',
    { 'engine/deck.test.ts': "import fc from 'fast-check';\nimport pino from 'pino';" },
    { engine: { ...engine, dependencies: { zod: '^4.0.0', pino: '^10.0.0' } } },
    /^engine\/package\.json: declares "pino" in dependencies, which only its tests or types import: devDependencies$/,
  ],
  [
    'an import whose @types package is not declared',
    {},
    { upstream: { ...upstream, devDependencies: {} } },
    /^upstream\/db\.ts: imports "pg", whose types are @types\/pg, which upstream\/package\.json does not declare in devDependencies$/,
  ],
  [
    'two ranges of one package',
    {},
    { upstream: { ...upstream, dependencies: { pg: '^8.0.0', zod: '^3.0.0' } } },
    /^"zod" is declared with different ranges: \^4\.0\.0 in engine\/package\.json, \^3\.0\.0 in upstream\/package\.json$/,
  ],
  [
    'a devOnlyImports entry no running file imports',
    { 'upstream/db.test.ts': "import pino from 'pino';" },
    { upstream: { ...upstream, devDependencies: { ...upstream.devDependencies, pino: '^10.0.0' }, devOnlyImports: { pino: 'etg upstream tail' } } },
    /^upstream\/package\.json: lists "pino" in devOnlyImports, which no running file of it imports$/,
  ],
  [
    'a workspace the root does not list',
    {},
    { root: { ...root, workspaces: ['engine'] } },
    /^upstream\/package\.json: not in the root package\.json's workspaces$/,
  ],
  [
    'a root file importing a package the root does not declare',
    { 'tests/a.test.ts': "import { z } from 'zod';" },
    {},
    /^tests\/a\.test\.ts: imports "zod", which package\.json does not declare in any of its fields$/,
  ],
];

describe('workspace dependency check (docs/architecture.md, "Workspaces")', () => {
  it('passes the small repository as it is', () => assert.deepEqual(check({}), []));

  for (const [what, sources, change, expected] of refused) {
    it(`refuses ${what}`, () => {
      const found = check(sources, change);
      assert.equal(found.length, 1, `one problem expected, found: ${found.join('; ')}`);
      assert.match(found[0]!, expected);
    });
  }

  it('passes what only types or tests need as devDependencies, a declared workspace, and the root package.json', () => {
    const found = check(
      {
        'engine/types.ts':
          "import type fc from 'fast-check';\nexport type { Arbitrary } from 'fast-check';\nexport type A = import('fast-check').Arbitrary<number>;",
        'engine/named.ts': "import { type Arbitrary } from 'fast-check';\nimport { z } from 'zod';",
        'upstream/ingest.ts': "import { deck } from '../engine/deck.js';\nimport pkg from '../package.json' with { type: 'json' };",
        'tests/b.test.ts':
          "import fc from 'fast-check';\nimport { deck } from '../engine/deck.js';\nimport { readFileSync } from 'node:fs';\nimport path from 'path';",
      },
      { upstream: { ...upstream, dependencies: { ...upstream.dependencies, '@etg/engine': '0.1.0' } } },
    );
    assert.deepEqual(found, []);
  });

  it('refuses a devOnlyImports entry that is not a devDependency, and the import it was meant to allow', () => {
    const found = check(
      { 'upstream/lazy.ts': "export const load = () => import('pino');" },
      { upstream: { ...upstream, devOnlyImports: { pino: 'etg upstream tail' } } },
    );
    assert.deepEqual(found, [
      'upstream/lazy.ts: imports "pino", which upstream/package.json does not declare in dependencies',
      'upstream/package.json: lists "pino" in devOnlyImports, which it does not declare in devDependencies',
    ]);
  });

  it('refuses a workspace both in devOnlyImports and declared, which a production install would fetch', () => {
    const found = check(
      { 'upstream/tail.ts': "export const engine = () => import('../engine/deck.js');" },
      {
        upstream: {
          ...upstream,
          devDependencies: { ...upstream.devDependencies, '@etg/engine': '0.1.0' },
          devOnlyImports: { '@etg/engine': 'etg upstream tail' },
        },
      },
    );
    assert.deepEqual(found, [
      'upstream/package.json: lists the workspace "@etg/engine" in devOnlyImports and as a dependency, which npm installs with it even with --omit=dev',
    ]);
  });

  it('passes a running import of a devDependency, or of a workspace declared nowhere else, that devOnlyImports names', () => {
    const found = check(
      { 'upstream/tail.ts': "export const load = () => import('pino');\nexport const engine = () => import('../engine/deck.js');" },
      {
        upstream: {
          ...upstream,
          devDependencies: { ...upstream.devDependencies, pino: '^10.0.0' },
          devOnlyImports: { pino: 'etg upstream tail', '@etg/engine': 'etg upstream tail' },
        },
      },
    );
    assert.deepEqual(found, []);
  });

  it('reads type-only and value imports apart', () => {
    assert.deepEqual(
      importsOf(
        'a.ts',
        "import type { A } from 'a';\nimport { type B, c } from 'b';\nimport { type D } from 'd';\nimport 'e';\nexport * from 'f';\nexport type { G } from 'g';\nconst h = await import('h');",
      ),
      [
        { spec: 'a', typeOnly: true },
        { spec: 'b', typeOnly: false },
        { spec: 'd', typeOnly: true },
        { spec: 'e', typeOnly: false },
        { spec: 'f', typeOnly: false },
        { spec: 'g', typeOnly: true },
        { spec: 'h', typeOnly: false },
      ],
    );
  });

  it("passes the repository's own workspaces", () => {
    const at = path.resolve(import.meta.dirname, '../..');
    const { manifest, workspaces, exists } = readPackages(at);
    assert.ok(workspaces.some((w) => w.dir === 'upstream') && workspaces.some((w) => w.dir === 'host'));
    const sources = new Map([...readSources(at)].map(([file, text]) => [path.relative(at, file).split(path.sep).join('/'), text]));
    assert.deepEqual(checkWorkspaces({ root: manifest, workspaces, sources, exists, typesFor: (name) => typesFor(at, name) }), []);
  });
});
