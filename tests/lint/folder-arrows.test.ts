import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { folderGraph, folderLoops } from '../../scripts/cycles/folder-arrows.js';
import { readSources } from '../../scripts/cycles/import-cycles.js';

// Each case is a set of files under one root: the check folds their imports to first-level folders.
const repo = path.resolve(import.meta.dirname, '../..');
const root = path.join(repo, 'renderer/src');
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([at, text]) => [path.join(root, at), text]));

describe('folder arrows (scripts/check-arrows.ts)', () => {
  it('names two folders that import each other, with the files that make each edge', () => {
    const loops = folderLoops(
      folderGraph(
        root,
        files({
          'ui/button.ts': "import { bake } from '../pixi/bake.js';",
          'pixi/bake.ts': 'export const bake = 1;',
          'pixi/stage.ts': "import { COLORS } from '../ui/theme.js';",
          'ui/theme.ts': 'export const COLORS = {};',
        }),
      ),
    );
    assert.equal(loops.length, 1);
    assert.deepEqual(loops[0]!.folders, ['pixi/', 'ui/']);
    assert.deepEqual(loops[0]!.imports.sort(), ['pixi/ → ui/: pixi/stage.ts → ui/theme.ts', 'ui/ → pixi/: ui/button.ts → pixi/bake.ts']);
  });

  it('names a ring of three folders, type-only imports included', () => {
    const loops = folderLoops(
      folderGraph(
        root,
        files({
          'a/x.ts': "import type { Y } from '../b/y.js';",
          'b/y.ts': "import { z } from '../c/z.js';",
          'c/z.ts': "import { x } from '../a/x.js';",
        }),
      ),
    );
    assert.deepEqual(
      loops.map((l) => l.folders),
      [['a/', 'b/', 'c/']],
    );
  });

  it('passes one-way arrows, imports inside a folder, and a file directly in the root as its own node', () => {
    const graph = folderGraph(
      root,
      files({
        'main.ts': "import { StationScreen } from './station/station-screen.js';",
        'station/station-screen.ts': "import { Button } from '../ui/button.js'; import { panel } from './panel.js';",
        'station/panel.ts': "import { Button } from '../ui/button.js';",
        'ui/button.ts': 'export class Button {}',
      }),
    );
    assert.deepEqual(folderLoops(graph), []);
    assert.deepEqual([...graph.get('main.ts')!.keys()], ['station/']);
    assert.deepEqual(graph.get('station/')!.get('ui/')!.length, 2);
  });

  it('leaves a test reaching up out unless asked for', () => {
    const sources = files({
      'ui/button.test.ts': "import { screen } from '../screens/screen.js';",
      'screens/screen.ts': "import { b } from '../ui/b.js';",
      'ui/b.ts': '',
    });
    assert.deepEqual(folderLoops(folderGraph(root, sources)), []);
    assert.equal(folderLoops(folderGraph(root, sources, true)).length, 1);
  });

  it('finds no folder loop in engine/ or renderer/src/ (test files left out)', () => {
    const sources = readSources(repo);
    for (const name of ['engine', 'renderer/src']) assert.deepEqual(folderLoops(folderGraph(path.join(repo, name), sources)), [], name);
  });
});
