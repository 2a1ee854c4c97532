import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from './messages.js';
import { StationTransfers, TransferCommand } from './transfer-requests.js';

describe('a station asks for its credit to move (issue 34)', () => {
  const command = (body: unknown) => Command.safeParse({ type: 'command', id: 'c1', view: 'station/101', version: 3, command: body });

  it('move-credit and leave-table are station commands', () => {
    assert.ok(command({ name: 'move-credit', to: 'bj-2', amount: 5_000 }).success);
    assert.ok(command({ name: 'leave-table' }).success);
  });

  it('refuses a move of no money, of part of an avo, or naming a table no host could be', () => {
    for (const body of [
      { name: 'move-credit', to: 'bj-2', amount: 0 },
      { name: 'move-credit', to: 'bj-2', amount: -100 },
      { name: 'move-credit', to: 'bj-2', amount: 10.5 },
      { name: 'move-credit', to: 'bj-2', amount: '100' },
      { name: 'move-credit', to: 'table:bj-2:settlement', amount: 100 },
      { name: 'move-credit', to: '', amount: 100 },
      { name: 'move-credit', to: 'bj-2', amount: 100, station: 102 },
      { name: 'move-credit', amount: 100 },
      { name: 'leave-table', to: 'bj-2' },
    ]) {
      assert.equal(TransferCommand.safeParse(body).success, false, JSON.stringify(body));
      assert.equal(command(body).success, false, JSON.stringify(body));
    }
  });

  it('shows a station its transfers with typed ids', () => {
    const shown = {
      station: 101,
      home: 'bac-1',
      table: 'bac-1',
      transfers: [{ id: { origin: 'bac-1', serial: 7 }, from: 'bac-1', to: 'bj-2', amount: 5_000, phase: 'in-flight' }],
    };
    assert.ok(StationTransfers.safeParse(shown).success);
    assert.equal(StationTransfers.safeParse({ ...shown, transfers: [{ ...shown.transfers[0], id: 'bac-1:7' }] }).success, false);
    assert.equal(StationTransfers.safeParse({ ...shown, station: 8 }).success, false);
  });
});
