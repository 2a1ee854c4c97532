import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

// Issue 15, "Done when": docs/rules/*.md holds a table article → option and its class → behaviour
// → test. This keeps its test column honest: every file it names exists, and every title it quotes
// is the title of a test or suite in that file (a title ending in "…" is a prefix of one).

const root = path.resolve(import.meta.dirname, '../..');
const HEADER = '| article | option and its class | behaviour | test |';
const DOCS = ['blackjack', 'baccarat', 'war'] as const;

interface Row {
  readonly line: number;
  readonly cells: readonly string[];
}

/** The rows of every table of the page headed by HEADER. */
function rowsOf(markdown: string): Row[] {
  const lines = markdown.split('\n');
  const rows: Row[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== HEADER) continue;
    for (let j = i + 2; j < lines.length && lines[j]?.startsWith('|'); j++) {
      // A cell may hold `|` inside code spans only; none of these tables does.
      rows.push({
        line: j + 1,
        cells: (lines[j] ?? '')
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      });
    }
  }
  return rows;
}

/** Each `file` "title" "title" … of a test cell. */
function references(cell: string): { file: string; titles: string[] }[] {
  return [...cell.matchAll(/`([^`]+\.(?:test|spec)\.ts)`((?:\s*"[^"]+")+)/g)].map((m) => ({
    file: m[1] ?? '',
    titles: [...(m[2] ?? '').matchAll(/"([^"]+)"/g)].map((t) => t[1] ?? ''),
  }));
}

/** Whether the source declares a test or suite with this title (or, ending in "…", one that begins so). */
function declares(source: string, title: string): boolean {
  const plain = source.replace(/\\(['"`])/g, '$1');
  const prefix = title.endsWith('…') ? title.slice(0, -1) : null;
  for (const m of plain.matchAll(/\b(?:it|test|describe)\(\s*(['"`])([\s\S]*?)\1\s*,/g)) {
    const declared = m[2] ?? '';
    if (prefix !== null ? declared.startsWith(prefix) : declared === title) return true;
  }
  return false;
}

describe('docs/rules: the article → option → behaviour → test tables name tests that exist', () => {
  for (const doc of DOCS) {
    it(`${doc}.md: every row names a test file that exists and test titles it declares`, () => {
      const rows = rowsOf(readFileSync(path.join(root, 'docs/rules', `${doc}.md`), 'utf8'));
      assert.ok(rows.length > 0, `docs/rules/${doc}.md has no table headed ${HEADER}`);
      for (const row of rows) {
        assert.equal(row.cells.length, 4, `docs/rules/${doc}.md:${row.line}: four cells`);
        const refs = references(row.cells[3] ?? '');
        assert.ok(refs.length > 0, `docs/rules/${doc}.md:${row.line}: the test cell names no test`);
        for (const { file, titles } of refs) {
          const where = path.join(root, file);
          assert.ok(existsSync(where), `docs/rules/${doc}.md:${row.line}: no file ${file}`);
          const source = readFileSync(where, 'utf8');
          for (const title of titles) assert.ok(declares(source, title), `docs/rules/${doc}.md:${row.line}: ${file} declares no test "${title}"`);
        }
      }
    });
  }

  it('reads a title as declared only when a test or suite has it', () => {
    const source = "it('surrender loses half', () => {});\ndescribe(\"limits\", () => {});\nconst note = 'not a test';";
    assert.equal(declares(source, 'surrender loses half'), true);
    assert.equal(declares(source, 'surrender loses…'), true);
    assert.equal(declares(source, 'limits'), true);
    assert.equal(declares(source, 'not a test'), false);
    assert.equal(declares(source, 'surrender loses'), false, 'a title without "…" is matched whole');
    assert.deepEqual(references('`a/b.test.ts` "x" "y"; `c.spec.ts` "z"'), [
      { file: 'a/b.test.ts', titles: ['x', 'y'] },
      { file: 'c.spec.ts', titles: ['z'] },
    ]);
  });
});
