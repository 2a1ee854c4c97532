import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadRoundScript } from './round-script.js';

describe('a round script', () => {
  const write = (body: unknown): { file: string; done: () => void } => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'round-script-'));
    const file = path.join(dir, 'script.json');
    writeFileSync(file, JSON.stringify(body));
    return { file, done: () => rmSync(dir, { recursive: true, force: true }) };
  };
  const stations = { '1': { bets: { main: 10_000 } } };

  it('takes the cards as the cards layer writes them', () => {
    const s = write({ cards: ['TS', 'AH', '9D', 'KC'], stations });
    try {
      const plan = loadRoundScript(s.file);
      assert.deepEqual(plan.cards, ['TS', 'AH', '9D', 'KC']);
      assert.deepEqual(plan.stations['1']?.bets, [{ spot: { bet: 'main' }, amount: 10_000 }]);
    } finally {
      s.done();
    }
  });

  it('refuses a card that is not one of the 52 codes, naming where it is', () => {
    for (const bad of ['10S', 'ts', 'XX', 'T', 'AS ', 7]) {
      const s = write({ cards: ['AS', bad], stations });
      try {
        assert.throws(() => loadRoundScript(s.file), /cards\.1: a card code such as "TS"/, String(bad));
      } finally {
        s.done();
      }
    }
  });
});
