// Game recall of a stadium round. After a tie on casino war's stadium box every remote station on
// it decides for its own bet (docs/stadium.md), each decision journalled: a table of 2,000 remote
// stations journals up to 2,000 decisions in one round. The recall page carries at most 512 (the
// service page's schema), so the page cuts them to its limits as it does the bets and lines, the
// seated stations' first; the evidence export has all of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger, type RoundRecord } from '../../../ledger/index.js';
import { REMOTE_STATION_BASE, ServicePage } from '../../../protocol/index.js';
import type { LiveBackendDeps } from './deps.js';
import { recall } from './recall.js';

const STATIONS = 600;

/** A war round at a stadium table: the seats' decisions, then each remote station's on the box. */
function stadiumTie(): RoundRecord {
  const remote = Array.from({ length: STATIONS }, (_, i) => ({ seat: 0, station: REMOTE_STATION_BASE + 1 + i, action: 'war' }));
  return {
    roundId: 'R-1',
    tableId: 'T-1',
    game: 'war',
    profile: 'macau-war',
    status: 'settled',
    seq: 9,
    ts: '2026-12-06T06:00:00.000Z',
    tzOffsetMin: 480,
    cards: [
      { card: '7H', to: 'seat:1' },
      { card: '7S', to: 'box' },
      { card: '7D', to: 'dealer' },
    ],
    decisions: [...remote, { seat: 1, station: 1, action: 'surrender' }],
    bets: [],
    lines: [],
    credits: [],
    entrySeqs: [1, 9],
  } as unknown as RoundRecord;
}

describe('game recall of a stadium round with more decisions than a page carries', () => {
  it('the page is within its schema, the seated station’s decision first', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RC' });
    try {
      const round = stadiumTie();
      ledger.rounds.recall = () => [round];
      const d = { ledger, table: { game: { kind: 'war', presentation: {} } }, config: { tableId: 'T-1' } } as unknown as LiveBackendDeps;
      const r = recall(d, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      const page = ServicePage.safeParse({ page: 'recall', station: null, offset: 0, more: r.more, rounds: r.rounds });
      assert.ok(page.success, `the recall page is out of its schema: ${page.error?.issues[0]?.path.join('.')} ${page.error?.issues[0]?.message}`);
      assert.deepEqual(r.rounds[0]?.decisions[0], { seat: 1, action: 'surrender' }, 'the seated station’s decision is kept');
    } finally {
      ledger.close();
    }
  });
});

// The page cut a round's decisions at 512, its bets at 224 and its lines at 512 and said nothing:
// an inspector read the round as whole. Now the round says how many of each it leaves out.
describe('game recall of a round cut to the page', () => {
  it('says how many decisions, bets and lines it leaves out, and nothing when it leaves none out', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RC' });
    try {
      const tie = stadiumTie();
      const station = (i: number) => REMOTE_STATION_BASE + 1 + i;
      const bets = Array.from({ length: 300 }, (_, i) => ({ station: station(i), seat: 0, bet: 'main', amount: 100, seq: 2 }));
      const lines = Array.from({ length: 700 }, (_, i) => ({ station: station(i), seat: 0, bet: 'main', stake: 100, net: -100, rule: 'r' }));
      const small = { ...tie, roundId: 'R-2', decisions: tie.decisions.slice(0, 3) };
      ledger.rounds.recall = () => [{ ...tie, bets, lines } as unknown as RoundRecord, small];
      const d = { ledger, table: { game: { kind: 'war', presentation: {} } }, config: { tableId: 'T-1' } } as unknown as LiveBackendDeps;
      const r = recall(d, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      assert.deepEqual(r.rounds[0]?.omitted, { decisions: 601 - 512, bets: 300 - 224, lines: 700 - 512 });
      assert.equal(r.rounds[1]?.omitted, undefined);
      const page = ServicePage.safeParse({ page: 'recall', station: null, offset: 0, more: r.more, rounds: r.rounds });
      assert.ok(page.success, `out of its schema: ${page.error?.issues[0]?.path.join('.')} ${page.error?.issues[0]?.message}`);
    } finally {
      ledger.close();
    }
  });
});

// A winning-streak stake decided in a later round is journalled as a carried line (`carried: true`):
// the page passed the record's lines as they are, and the service page's strict schema refused the
// field, so a page holding such a round could not be sent at all.
describe('game recall of a round that decided a carried winning-streak stake', () => {
  it('is within the page’s schema, and says the line was carried', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RC' });
    try {
      const round = {
        ...stadiumTie(),
        decisions: [],
        lines: [{ station: 1, seat: 1, bet: 'main', stake: 100, net: 300, rule: 'macau-2009 art.13 5)(2)', carried: true }],
      } as unknown as RoundRecord;
      ledger.rounds.recall = () => [round];
      const d = { ledger, table: { game: { kind: 'war', presentation: {} } }, config: { tableId: 'T-1' } } as unknown as LiveBackendDeps;
      const r = recall(d, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      const page = ServicePage.safeParse({ page: 'recall', station: null, offset: 0, more: r.more, rounds: r.rounds });
      assert.ok(page.success, `out of its schema: ${page.error?.issues[0]?.path.join('.')} ${page.error?.issues[0]?.message}`);
      assert.equal(r.rounds[0]?.lines[0]?.carried, true);
    } finally {
      ledger.close();
    }
  });
});

// The page read the round's first entry as Math.min(...entrySeqs): past ~125,000 entries under one
// round (a table may journal some 150,000: terms/round-evidence.ts) the spread overflowed the stack
// and the whole recall page failed.
describe('game recall of a round of very many journal entries', () => {
  it('is read', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RC' });
    try {
      const entrySeqs = Array.from({ length: 300_000 }, (_, i) => 10 + i);
      ledger.rounds.recall = () => [{ ...stadiumTie(), entrySeqs } as unknown as RoundRecord];
      const d = { ledger, table: { game: { kind: 'war', presentation: {} } }, config: { tableId: 'T-1' } } as unknown as LiveBackendDeps;
      const r = recall(d, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      assert.equal(r.rounds[0]?.roundId, 'R-1');
    } finally {
      ledger.close();
    }
  });
});

// The page cut a round's corrections to 16 and said nothing, as it once did its decisions, bets and
// lines: an inspector read a round of 20 dealing errors corrected as one of 16.
describe('game recall of a round with more corrections than the page carries', () => {
  it('says how many it leaves out, within the page’s schema', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RC' });
    try {
      const correction = (i: number) => ({ correction: 'undue-card', article: 'macau-war art.6', card: '4C', confirmedBy: ['sup-1', 'wit-2'], seq: 100 + i });
      const many = { ...stadiumTie(), decisions: [], corrections: Array.from({ length: 20 }, (_, i) => correction(i)) };
      const few = { ...stadiumTie(), roundId: 'R-2', decisions: [], corrections: [correction(0)] };
      ledger.rounds.recall = () => [many as unknown as RoundRecord, few as unknown as RoundRecord];
      const d = { ledger, table: { game: { kind: 'war', presentation: {} } }, config: { tableId: 'T-1' } } as unknown as LiveBackendDeps;
      const r = recall(d, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      assert.equal(r.rounds[0]?.corrections?.length, 16);
      assert.deepEqual(r.rounds[0]?.omitted, { decisions: 0, bets: 0, lines: 0, corrections: 4 });
      assert.equal(r.rounds[1]?.omitted, undefined, 'nothing said of a round shown whole');
      const page = ServicePage.safeParse({ page: 'recall', station: null, offset: 0, more: r.more, rounds: r.rounds });
      assert.ok(page.success, `out of its schema: ${page.error?.issues[0]?.path.join('.')} ${page.error?.issues[0]?.message}`);
    } finally {
      ledger.close();
    }
  });
});
