import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { describeCycles, readSources } from '../../scripts/cycles/import-cycles.js';

// Each case is a set of files as if under the repository root: the check decides from their imports alone.
const root = path.resolve(import.meta.dirname, '../..');
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([at, text]) => [path.join(root, at), text]));

const refused: [string, Record<string, string>, RegExp][] = [
  [
    'two files importing each other',
    { 'cli/tool.ts': "import type { Command } from './command.js';", 'cli/command.ts': "import { UsageError } from './tool.js';" },
    /import cycle \(2 files\): cli\/command\.ts → cli\/tool\.ts → cli\/command\.ts/,
  ],
  [
    'three files in a ring',
    {
      'engine/table/shoe.ts': "import { advance } from './dealing.js';",
      'engine/table/dealing.ts': "import { putOnHold } from './holds.js';",
      'engine/table/holds.ts': "import { takeCard } from './shoe.js';",
    },
    /import cycle \(3 files\): engine\/table\/dealing\.ts → engine\/table\/holds\.ts → engine\/table\/shoe\.ts → engine\/table\/dealing\.ts/,
  ],
  [
    'a type-only loop through a re-export',
    { 'protocol/index.ts': "export * from './compose.js';", 'protocol/compose.ts': "import type { ViewName } from './index.js';" },
    /import cycle \(2 files\): protocol\/compose\.ts → protocol\/index\.ts → protocol\/compose\.ts/,
  ],
  [
    'a dynamic import back',
    { 'host/a.ts': "import { b } from './b.js';", 'host/b.ts': "export const b = () => import('./a.js');" },
    /import cycle \(2 files\): host\/a\.ts → host\/b\.ts → host\/a\.ts/,
  ],
  [
    'a file importing itself',
    { 'host/self.ts': "import { x } from './self.js';\nexport const y = x;" },
    /import cycle \(1 file\): host\/self\.ts → host\/self\.ts/,
  ],
];

describe('import cycle check (docs/architecture.md, "No file loops")', () => {
  for (const [what, entries, expected] of refused) {
    it(`refuses ${what}`, () => {
      const found = describeCycles(root, files(entries));
      assert.equal(found.length, 1, `one loop expected, found: ${found.join('; ')}`);
      assert.match(found[0]!, expected);
    });
  }

  it('passes a chain without a loop, and ignores packages and files outside the set', () => {
    const found = describeCycles(
      root,
      files({
        'engine/table/holds.ts': "import { takeCard } from './shoe.js';\nimport { z } from 'zod';",
        'engine/table/shoe.ts': "import { advance } from './dealing.js';\nimport { x } from './elsewhere.js';",
        'engine/table/dealing.ts': "import { putOnHold } from './on-hold.js';",
        'engine/table/on-hold.ts': "import type { Turn } from './turn.js';",
      }),
    );
    assert.deepEqual(found, []);
  });

  it('names each loop once when two share no file', () => {
    const found = describeCycles(
      root,
      files({ 'a/x.ts': "import './y.js';", 'a/y.ts': "import './x.js';", 'b/x.ts': "import './y.js';", 'b/y.ts': "import './x.js';" }),
    );
    assert.equal(found.length, 2);
  });

  it('finds none in the repository', () => {
    assert.deepEqual(describeCycles(root, readSources(root)), []);
  });
});
