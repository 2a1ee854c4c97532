import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

// The ledger's schema is private (docs/ledger.md "The schema is private: what to call"): outside
// ledger/ no code opens the database, writes SQL against it or reaches its connection, and only
// tests and benchmarks use the test-only tools of ledger/testing/. The layering lint rule refuses
// an import of the driver in every layer but ledger/ (eslint.config.js); this scan also covers
// what an import rule cannot see: SQL in strings, the connection reached through the Ledger,
// files in folders no layer names.

const root = path.resolve(import.meta.dirname, '../..');
// This file's snippets show what it looks for, so the scan leaves it out.
const SELF = path
  .relative(root, import.meta.filename)
  .split(path.sep)
  .join('/');
const SKIP = new Set(['node_modules', 'dist', '.tsbuild', '.git', 'test-results', 'playwright-report', 'artifacts']);
// Built from parts, so that this file does not match what it looks for.
const DRIVER = ['better', 'sqlite3'].join('-');
const SQLITE_JSON = ['json', 'extract'].join('_');

/**
 * Files outside ledger/ that still do so, each with why it stays. Only a file another branch is
 * deleting belongs here; drop its entry when it is gone.
 */

const RULES: { what: string; pattern: RegExp; allowed?: (rel: string) => boolean }[] = [
  { what: `imports ${DRIVER}`, pattern: new RegExp(`(?:(?:from|import|require)\\s*\\(?|\\)\\s*\\()\\s*['"]${DRIVER}['"]`) },
  { what: `SQLite JSON (${SQLITE_JSON})`, pattern: new RegExp(SQLITE_JSON) },
  {
    what: 'prepares SQL or sets a pragma',
    pattern: /\.\s*(?:prepare|pragma)\s*\(/,
    // The service accounts are a database of their own (service-accounts.sqlite, opened through
    // ledger/sqlite-store.ts), not the ledger's schema: their store, its tests and the attack
    // tests' tampering with the file keep their SQL.
    allowed: (rel) => /^host\/service\/(account(s|-rows)(-[a-z]+)?(\.test)?|testing\/tamper-accounts)\.ts$/.test(rel),
  },
  { what: "reaches the ledger's connection", pattern: /\bconnectionOf\b|\[\s*['"]db['"]\s*\]/ },
  {
    what: 'uses ledger/testing/ outside the tests and benchmarks',
    pattern: /ledger\/testing\//,
    allowed: (rel) => rel.endsWith('.test.ts') || rel.startsWith('tests/') || rel.startsWith('bench/'),
  },
];

/** What `text` (the file at `rel`, relative to the root) does that only ledger/ may do. */
function leaks(rel: string, text: string): string[] {
  if (rel.startsWith('ledger/')) return [];
  return RULES.filter((r) => r.pattern.test(text) && !r.allowed?.(rel)).map((r) => r.what);
}

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(full, out);
    else if (/\.(?:ts|tsx|js|mjs|cjs)$/.test(entry.name)) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}

describe('the ledger schema is private to ledger/', () => {
  it('finds each kind of reach in a snippet outside ledger/, and none inside it', () => {
    const cases: [string, string][] = [
      [`import Database from '${DRIVER}';`, `imports ${DRIVER}`],
      [`const D = require('${DRIVER}');`, `imports ${DRIVER}`],
      [`const D = await import('${DRIVER}');`, `imports ${DRIVER}`],
      [`const D = createRequire(import.meta.url)('${DRIVER}');`, `imports ${DRIVER}`],
      [`const s = "SELECT ${SQLITE_JSON}(body, '$.payload.kind') FROM journal";`, `SQLite JSON (${SQLITE_JSON})`],
      ['ledger.db\n  .prepare("SELECT 1").get();', 'prepares SQL or sets a pragma'],
      ["ledger['db'].exec('DROP TRIGGER x');", "reaches the ledger's connection"],
      ["import { connectionOf } from '../ledger/ledger.js';", "reaches the ledger's connection"],
      ["import { tamperBalance } from '../ledger/testing/tamper.js';", 'uses ledger/testing/ outside the tests and benchmarks'],
    ];
    for (const [code, what] of cases) {
      assert.deepEqual(leaks('host/fixture.ts', code), [what], code);
      assert.deepEqual(leaks('ledger/fixture.ts', code), [], code);
    }
    assert.deepEqual(leaks('tests/host/fixture.test.ts', "import { tamperBalance } from '../../ledger/testing/tamper.js';"), []);
    assert.deepEqual(leaks('host/fixture.ts', "const note = 'the ledger uses " + DRIVER + "';"), [], 'naming the package is not importing it');
  });

  it('holds across the repository', () => {
    const files = sources(root);
    // Not vacuous: the scan sees the ledger's own driver import.
    assert.ok(files.includes('ledger/db.ts'), 'the scan reaches ledger/');
    const found = files.filter((rel) => rel !== SELF).flatMap((rel) => leaks(rel, readFileSync(path.join(root, rel), 'utf8')).map((what) => `${rel}: ${what}`));
    assert.deepEqual(found, [], 'call a named query of ledger/index.ts instead (docs/ledger.md)');
  });
});
