// The drivers' transition tables (id003/transitions.ts, ssp/transitions.ts): what they promise by
// their shape alone, and that docs/protocols/id003.md and ssp.md show them as they are.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ID003_TRANSITIONS } from './id003/transitions.js';
import { PHASES, isFault, type TransitionTable } from './note-phase.js';
import { SSP_TRANSITIONS } from './ssp/transitions.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The table as the protocol page shows it: a row per report, a column per phase, a violation in bold. */
function markdown<R extends string, A extends string>(table: TransitionTable<R, A>): string {
  const reports = Object.keys(table.idle) as R[];
  const lines = [`| report | ${PHASES.join(' | ')} |`, `|---|${PHASES.map(() => '---').join('|')}|`];
  for (const r of reports)
    lines.push(
      `| ${r} | ${PHASES.map((p) => {
        const cell = table[p][r];
        return isFault(cell) ? `**${cell.fault}**` : cell;
      }).join(' | ')} |`,
    );
  return lines.join('\n');
}

const CREDITING = new Set(['credit', 'recover-credit']);

const TABLES: readonly (readonly [name: 'ID-003' | 'SSP', table: TransitionTable<string, string>, doc: string])[] = [
  ['ID-003', ID003_TRANSITIONS, 'docs/protocols/id003.md'],
  ['SSP', SSP_TRANSITIONS, 'docs/protocols/ssp.md'],
];

for (const [name, table, doc] of TABLES) {
  describe(`${name} transition table`, () => {
    it('credits only from stack-sent: a note the host told to stack', () => {
      for (const p of PHASES)
        for (const [report, cell] of Object.entries(table[p]))
          if (typeof cell === 'string' && CREDITING.has(cell)) assert.equal(p, 'stack-sent', `${p} × ${report} credits`);
    });

    it('a credit point is never a credit from a phase where the host did not tell the device to stack', () => {
      const creditPoint =
        name === 'ID-003' ? ['vend-valid', 'power-up-stacker'] : ['credit-same', 'credit-other', 'cleared-cashbox-same', 'cleared-cashbox-other'];
      for (const p of ['escrow', 'return-sent'] as const)
        for (const r of creditPoint) {
          const cell = table[p][r];
          assert.ok(cell !== undefined && isFault(cell), `${p} × ${r} is not a violation`);
        }
    });

    it(`is shown as it is in ${doc}`, () => {
      const expected = markdown(table);
      assert.ok(readFileSync(path.join(root, doc), 'utf8').includes(expected), `${doc} should hold the table:\n\n${expected}\n`);
    });
  });
}
