import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

// Each case lints a snippet as if it were a file at `at`: the layering rule decides by path.
const root = path.resolve(import.meta.dirname, '../..');
// The snippets name the package through a constant so that no line of this file reads as a real
// import of it (the repository's checks grep for those).
const EL = ['elec', 'tron'].join('');
const SQLITE = ['better', 'sqlite3'].join('-');
const OWNED = /may not import the package 'better-sqlite3': only 'ledger\/' may/;
const eslint = new ESLint({ cwd: root });

async function layeringErrors(at: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, at) });
  assert.ok(result, 'no lint result');
  return result.messages.filter((m) => m.ruleId === 'local/layering').map((m) => m.message);
}

const refused: [string, string, RegExp][] = [
  ['engine/fixture.ts', "import { startHost } from '../host/start-host.js';\nvoid startHost;", /'engine\/' may not import from 'host\/'/],
  ['engine/fixture.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;", /must not use Node built-ins/],
  ['engine/blackjack/fixture.ts', "import { z } from 'pixi.js';\nvoid z;", /may not import the package 'pixi.js'/],
  ['hardware/fixture.ts', "import { ViewName } from '../protocol/index.js';\nvoid ViewName;", /'hardware\/' may not import from 'protocol\/'/],
  ['ledger/fixture.ts', "import { parseCard } from '../engine/cards/card.js';\nvoid parseCard;", /may import only types from 'engine\/'/],
  ['renderer/src/fixture.ts', "import { ViewHub } from '../../host/screens/view-hub.js';\nvoid ViewHub;", /'renderer\/' may not import from 'host\/'/],
  ['renderer/src/fixture.ts', "import path from 'node:path';\nvoid path;", /must not use Node built-ins/],
  ['host/fixture.ts', `import { app } from '${EL}';\nvoid app;`, /may not import the package 'electron'/],
  ['cli/fixture.ts', `import { app } from '${EL}';\nvoid app;`, /may not import the package 'electron'/],
  ['tests/fixture.ts', `import { app } from '${EL}';\nvoid app;`, /may not import the package 'electron'/],
  ['protocol/fixture.ts', "export * from '../host/start-host.js';", /'protocol\/' may not import from 'host\/'/],
  ['protocol/fixture.ts', "import { step } from '../engine/table/step.js';\nvoid step;", /'protocol\/' may not import from 'engine\/'/],
  ['engine/fixture.ts', "const m = await import('../ledger/x.js');\nvoid m;", /'engine\/' may not import from 'ledger\/'/],
  ['host/fixture.ts', "import leftpad from 'left-pad';\nvoid leftpad;", /may not import the package 'left-pad'/],
  ['host/fixture.ts', `const e = require('${EL}');\nvoid e;`, /may not import the package 'electron'/],
  [
    'cli/fixture.ts',
    `import { createRequire } from 'node:module';\nconst e = createRequire(import.meta.url)('${EL}');\nvoid e;`,
    /may not import the package 'electron'/,
  ],
  ['electron/fixture.test.ts', `import { app } from '${EL}';\nvoid app;`, /may not import the package 'electron'/],
  ['locales/fixture.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;", /must not use Node built-ins/],
  ['locales/fixture.ts', "import { startHost } from '../host/start-host.js';\nvoid startHost;", /'locales\/' may not import from 'host\/'/],
  // The ledger's driver is ledger/'s alone, even in the layers that may import any package.
  ['host/fixture.ts', `import Database from '${SQLITE}';\nvoid Database;`, OWNED],
  ['cli/fixture.ts', `import Database from '${SQLITE}';\nvoid Database;`, OWNED],
  ['bench/fixture.ts', `const D = await import('${SQLITE}');\nvoid D;`, OWNED],
  ['tests/host/fixture.ts', `import type Database from '${SQLITE}';\nexport type D = Database.Database;`, OWNED],
  ['cli/soak/fixture.test.ts', `import { createRequire } from 'node:module';\nconst D = createRequire(import.meta.url)('${SQLITE}');\nvoid D;`, OWNED],
  // Inside the host, each subfolder imports only the ones below it: no folder loops.
  [
    'host/table/fixture.ts',
    "import { ViewHub } from '../screens/view-hub.js';\nvoid ViewHub;",
    /'host\/table\/' may not import 'host\/screens\/'. It may import: config/,
  ],
  ['host/floor/fixture.ts', "import { ViewHub } from '../screens/view-hub.js';\nvoid ViewHub;", /'host\/floor\/' may not import 'host\/screens\/'/],
  ['host/table/fixture.ts', "import { startHost } from '../start-host.js';\nvoid startHost;", /may not import 'host\/\(the composition root\)\/'/],
  // Inside engine/table, each file imports its own tier and the ones below (issue 32 item 5).
  [
    'engine/table/state.ts',
    "import { step } from './step.js';\nvoid step;",
    /'engine\/table\/state.ts' \(shapes\) may not import 'engine\/table\/step.ts' \(step\): a file imports only its own tier and the ones below \(words < shapes < rules < phases < step < fold\)/,
  ],
  [
    'engine/table/vocabulary.ts',
    "import type { TableState } from './state.js';\nexport type S = TableState<unknown, unknown>;",
    /\(words\) may not import 'engine\/table\/state.ts' \(shapes\)/,
  ],
  ['engine/table/queries.ts', "import { onDealing } from './dealing.js';\nvoid onDealing;", /\(rules\) may not import 'engine\/table\/dealing.ts' \(phases\)/],
  ['engine/table/fixture.ts', "import { step } from './step.js';\nvoid step;", /'engine\/table\/fixture.ts' has no tier/],
  [
    'host/newfolder/fixture.ts',
    "import { tableParams } from '../config/table-params.js';\nvoid tableParams;",
    /'host\/newfolder\/' has no layering rule of its own/,
  ],
];

const allowed: [string, string][] = [
  ['host/fixture.ts', "import { parseCard } from '../engine/cards/card.js';\nimport { ViewName } from '../protocol/index.js';\nvoid parseCard; void ViewName;"],
  ['ledger/fixture.ts', "import type { Card } from '../engine/cards/card.js';\nexport type C = Card;"],
  ['renderer/src/fixture.ts', "import { ViewName } from '../../protocol/index.js';\nimport { Text } from 'pixi.js';\nvoid ViewName; void Text;"],
  ['electron/fixture.ts', `import { app } from '${EL}';\nimport { ViewName } from '../protocol/index.js';\nvoid app; void ViewName;`],
  ['engine/fixture.ts', "import { z } from 'zod';\nimport { parseCard } from './cards/card.js';\nvoid z; void parseCard;"],
  ['ledger/fixture.ts', `import Database from '${SQLITE}';\nvoid Database;`],
  ['ledger/fixture.test.ts', `import Database from '${SQLITE}';\nvoid Database;`],
  ['host/screens/fixture.ts', "import { openTable } from '../table/start-table.js';\nvoid openTable;"],
  ['host/fixture.ts', "import { ViewHub } from './screens/view-hub.js';\nvoid ViewHub;"],
  ['host/table/fixture.test.ts', "import { testTable } from '../testing/table-kit.js';\nvoid testTable;"],
  ['protocol/fixture.ts', "import { BET_IDS } from '../engine/table/vocabulary.js';\nvoid BET_IDS;"],
  ['engine/table/step.ts', "import { onHold } from './holds.js';\nimport { BET_IDS } from './vocabulary.js';\nvoid onHold; void BET_IDS;"],
  ['engine/table/shoe.ts', "import { onDealing } from './dealing.js';\nvoid onDealing;"],
  ['engine/table/fixture.test.ts', "import { fold } from './fold.js';\nvoid fold;"],
];

describe('layering lint rule (docs/architecture.md)', () => {
  for (const [at, code, expected] of refused) {
    it(`refuses in ${at}: ${code.split('\n')[0]}`, async () => {
      const errors = await layeringErrors(at, code);
      assert.equal(errors.length, 1, `expected one layering error, got ${JSON.stringify(errors)}`);
      assert.match(errors[0] ?? '', expected);
    });
  }
  for (const [at, code] of allowed) {
    it(`allows in ${at}: ${code.split('\n')[0]}`, async () => {
      assert.deepEqual(await layeringErrors(at, code), []);
    });
  }
});
