import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeClientMessage, encode } from './codec.js';
import { MAX_HOST_MESSAGE_BYTES, utf8ByteLength } from './limits.js';
import { SERVICE_PAGE_SIZE, ServicePage, type RecallRound } from './service-view.js';
import { ServiceState } from './views.js';

const command = (c: Record<string, unknown>) => JSON.stringify({ type: 'command', id: 'c1', view: 'service', version: 1, command: c });

describe('service protocol', () => {
  it('takes sign-in, page, action and confirmation commands; a malformed PIN is refused without echoing it', () => {
    for (const c of [
      { name: 'service-sign-in', staff: '1001', pin: '482915' },
      { name: 'service-page', page: 'events', offset: 40, filter: { types: ['service.enter'], severity: 'critical' } },
      { name: 'service-action', action: { kind: 'void-round', roundId: 'R-1', reason: 'unreadable card' } },
      { name: 'service-confirm', staff: '1002', pin: '739164' },
      { name: 'service-cancel' },
    ])
      assert.ok(decodeClientMessage(command(c)).ok, JSON.stringify(c));
    const bad = decodeClientMessage(command({ name: 'service-sign-in', staff: '1001', pin: '48291x-secret' }));
    assert.ok(!bad.ok);
    assert.ok(!bad.error.detail.includes('secret'), bad.error.detail);
    assert.ok(!decodeClientMessage(command({ name: 'service-action', action: { kind: 'void-round', reason: 'no round named' } })).ok);
    assert.ok(!decodeClientMessage(command({ name: 'service-page', page: 'secrets' })).ok);
  });

  // The scope's pattern took three digits: a remote station from 1000 to 2100 could not be named.
  it("asks a meter clear of the table's or any station's meters a table may have, and of no other", () => {
    const clear = (scope: string) =>
      decodeClientMessage(command({ name: 'service-action', action: { kind: 'meter-clear', scope, authorisation: 'DICJ-1', reason: 'board swap' } })).ok;
    for (const scope of ['table', 'station:1', 'station:101', 'station:1000', 'station:2100']) assert.ok(clear(scope), scope);
    for (const scope of ['station:0', 'station:05', 'station:8', 'station:2101', 'station:1e3']) assert.ok(!clear(scope), scope);
  });

  it('keeps the service state of before (no session fields) valid: the fields are additive', () => {
    assert.ok(ServiceState.safeParse({ kind: 'service', tableId: 'T', softwareVersion: '1', language: 'pt', signedIn: false }).success);
  });

  it('the largest recall page the schemas allow still fits in one host message', () => {
    const long = (n: number) => 'x'.repeat(n);
    const max = Number.MAX_SAFE_INTEGER;
    const round: RecallRound = {
      roundId: long(128),
      status: 'void',
      seq: max,
      ts: long(40),
      game: long(128),
      profile: long(128),
      cards: Array.from({ length: 416 }, () => ({ card: 'QS', to: long(32) })),
      decisions: Array.from({ length: 512 }, () => ({ seat: 7, hand: 7, action: long(128), auto: true })),
      bets: Array.from({ length: 224 }, () => ({ station: 7, seat: 7, bet: long(128), amount: max })),
      lines: Array.from({ length: 512 }, () => ({ station: 7, seat: 7, bet: long(32), hand: 7, stake: max, net: -max, rule: long(128) })),
      reason: long(400),
      authorisedBy: [long(128), long(128), long(128), long(128)],
    };
    const raw = { page: 'recall', station: 7, offset: max, more: true, rounds: Array.from({ length: SERVICE_PAGE_SIZE.recall }, () => round) } as const;
    const page = ServicePage.parse(raw);
    const bytes = utf8ByteLength(
      encode({
        type: 'snapshot',
        view: 'service',
        version: max,
        state: { kind: 'service', tableId: 'T', softwareVersion: '1', language: 'pt', signedIn: true, page },
      }),
    );
    assert.ok(bytes < MAX_HOST_MESSAGE_BYTES, `${bytes} bytes`);
    assert.ok(!ServicePage.safeParse({ ...raw, rounds: [...raw.rounds, round] }).success, 'one round more than a page is refused by the schema');
  });
});
