// A service act the table refuses because it is stopped (host/table/runtime.ts: a switch whose next
// game failed to build leaves it taking nothing) gives no act's why, only its English and the
// refusal `table-halted`. A new shoe declared, a round voided and a jackpot level reset were then
// told 'Refused: the table is stopped: it takes nothing until it is started again' in English in
// every language. Each is said by key (serviceRefusal.tableStopped).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Outcome } from '../../../engine/table/game.js';
import { Ledger } from '../../../ledger/ledger.js';
import { createI18n } from '../../../locales/i18n.js';
import { saidWords } from '../../../locales/said.js';
import type { BackendResult } from '../service-backend.js';
import type { Changes } from './changes.js';
import { jackpot } from './jackpot.js';
import { roundActions } from './round-actions.js';
import { tableActions } from './table-actions.js';

const STOPPED: Outcome = { ok: false, reason: 'the table is stopped: it takes nothing until it is started again', refusal: 'table-halted' };
const changes = { changed: () => undefined } as unknown as Changes;

function saidEverywhere(r: BackendResult): void {
  assert.ok(!r.ok, 'refused');
  assert.equal(r.notice?.key, 'serviceRefusal.tableStopped', JSON.stringify(r));
  const notice = r.notice as never;
  const en = saidWords((k, o) => createI18n('en').t(k, o) as string, notice);
  for (const l of ['pt', 'zh-Hant', 'zh-Hans']) {
    const t = createI18n(l).t;
    const w = saidWords((k, o) => t(k, o) as string, notice);
    assert.doesNotMatch(w, /stopped|takes nothing|serviceRefusal|\{\{/, `${l}: ${w}`);
    assert.notEqual(w, en);
  }
}

describe('a service act refused by a stopped table is said by key', () => {
  it('a new shoe declared', () => {
    const table = {
      reads: { view: () => ({ phase: 'betting' }) },
      game: { rules: { limitRules: {} } },
      state: { chips: [] },
      shoe: { onNewShoe: () => STOPPED },
    };
    const part = tableActions(
      { table, floor: {}, config: { currency: 'MOP' }, shoe: { simulator: () => null }, log: { error: () => undefined } } as never,
      {} as never,
    );
    saidEverywhere(part.newShoe('Ana'));
  });

  it('a round voided', () => {
    const table = { reads: { view: () => ({ roundId: 'R-1' }) }, supervisor: { voidRound: () => STOPPED } };
    const part = roundActions({ table, config: { currency: 'MOP' } } as never);
    saidEverywhere(part.voidRound('R-1', 'torn card', ['Ana', 'Bo'], undefined));
  });

  it('a jackpot level reset', () => {
    const pools = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    try {
      const part = jackpot({ ledger: pools, table: { input: () => STOPPED }, config: { currency: 'MOP' } } as never, changes);
      saidEverywhere(part.reset('major', 100_000, 'DICJ-2026/7', ['Ana', 'Bo']));
    } finally {
      pools.close();
    }
  });
});
