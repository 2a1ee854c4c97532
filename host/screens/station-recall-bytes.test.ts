// A station's recall is sent whole in one host message (`recall`), which a screen refuses past
// MAX_HOST_MESSAGE_BYTES as oversized. Each recalled round is held to its schema's caps (96 cards,
// 32 bets, 64 lines with their rules, choices and references, 16 corrections), but ten rounds with
// every field at its largest encode to about 1.13 MB: the station's recall could never be shown
// while they were its last ten. The list is now held to the message's bytes, the oldest rounds
// left out first and said (`recalled.omitted`), as the recall says what it leaves out of a round.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ledger, RoundRecord } from '../../ledger/index.js';
import { decodeHostMessage, MAX_HOST_MESSAGE_BYTES, MAX_RECALL_ROUNDS, StationState, utf8ByteLength, type StationRecallRound } from '../../protocol/index.js';
import type { RecallSource } from './recall.js';
import { StationRecall } from './station-recall.js';

const long = (n: number, c = 'x') => c.repeat(n);

/** A round of station 1's whose recall holds every field at its cap, each string at its longest. */
function heavy(i: number): RoundRecord {
  const roundId = `${i}`.padStart(64, 'R');
  return {
    roundId,
    tableId: 'T',
    game: 'blackjack',
    profile: 'portugal-2001',
    status: 'settled',
    seq: 100 + i,
    ts: long(40, '9'),
    tzOffsetMin: 480,
    cards: Array.from({ length: 96 }, (_, k) => ({ card: 'QS', to: `seat:1:hand:${k % 99}`.padEnd(32, 'x') })),
    decisions: [],
    bets: Array.from({ length: 32 }, (_, k) => ({ station: 1, seat: 1 + (k % 7), bet: 'main', amount: 9_000_000_000_000 + k, seq: k })),
    lines: Array.from({ length: 64 }, (_, k) => ({
      station: 1,
      seat: 1,
      bet: 'main',
      hand: k,
      stake: 9_000_000_000_000,
      net: -9_000_000_000_000,
      rule: long(128, 'r'),
      choices: Array.from({ length: 12 }, () => long(96, 'c')),
      authorisation: long(128, 'a'),
    })),
    corrections: Array.from({ length: 16 }, (_, k) => ({
      correction: 'undue-card',
      card: '4C',
      article: long(128, 'p'),
      confirmedBy: ['a', 'b'],
      seq: 50 + k,
    })),
    credits: [{ station: 1, before: 9_000_000_000_000, after: 9_000_000_000_000 }],
    entrySeqs: [100 + i],
  } as RoundRecord;
}

/** A ledger's rounds holding `n` heavy rounds of station 1, newest first. */
function ledgerOf(n: number): Ledger {
  const records = new Map(Array.from({ length: n }, (_, i) => [heavy(i).roundId, heavy(i)] as const));
  const ids = [...records.keys()].reverse();
  const source: RecallSource = {
    recall: () => [],
    recallIds: (_s, limit = MAX_RECALL_ROUNDS) => ids.slice(0, limit),
    recallIdsOf: (stations, limit = MAX_RECALL_ROUNDS) => new Map(stations.map((s) => [s, ids.slice(0, limit)])),
    record: (id) => records.get(id),
    recordVersion: () => 1,
    recallVersion: () => 7,
    recallTick: () => 1,
    recallMovedSince: () => [],
  };
  return { rounds: source, onAppended: () => undefined } as unknown as Ledger;
}

/** The recall message as the hub writes it (host/screens/view-hub.ts recallPart), for the largest view name and version. */
const message = (rounds: StationRecallRound[]) =>
  `{"type":"recall","view":"station/2100","version":${Number.MAX_SAFE_INTEGER},"rounds":${JSON.stringify(rounds)}}`;

describe("a station's recall of ten rounds at their schema's largest", () => {
  it('fits one host message: the oldest rounds left out, and said', () => {
    const recall = new StationRecall(ledgerOf(MAX_RECALL_ROUNDS));
    const all = Array.from({ length: MAX_RECALL_ROUNDS }, (_, i) => heavy(i));
    const list = recall.of(1);
    const raw = message(list);
    const bytes = utf8ByteLength(raw);
    assert.ok(bytes <= MAX_HOST_MESSAGE_BYTES, `the recall message is ${bytes} bytes, over ${MAX_HOST_MESSAGE_BYTES}`);
    assert.equal(decodeHostMessage(raw, 'station/2100').ok, true, 'a screen reads it');
    assert.ok(list.length >= 1 && list.length < MAX_RECALL_ROUNDS, `${list.length} rounds`);
    // The newest first, in order: those left out are the oldest.
    assert.deepEqual(
      list.map((r) => r.roundId),
      all
        .reverse()
        .slice(0, list.length)
        .map((r) => r.roundId),
    );
    assert.equal(recall.omittedOf(1), MAX_RECALL_ROUNDS - list.length, 'how many were left out is said');
    // The own part says it, and a screen's schema takes it.
    const recalled = { rounds: list.length, version: 7, omitted: recall.omittedOf(1) };
    assert.equal(StationState.unwrap().shape.recalled.safeParse(recalled).success, true);
  });

  it('leaves nothing out when the rounds fit', () => {
    const recall = new StationRecall(ledgerOf(3));
    assert.equal(recall.of(1).length, 3);
    assert.equal(recall.omittedOf(1), 0);
  });
});
