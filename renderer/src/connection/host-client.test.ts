import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encode, protocolError, type CommandBody } from '../../../protocol/index.js';
import { HostClient, RESENDS } from './host-client.js';
import { stationSnapshot as snapshot } from './test-snapshot.js';
import type { Transport } from './transport-contract.js';

/** A transport the test plays the host on: what the screen sent, and a way to answer it. */
function fakeHost(): { transport: Transport; sent: { id: string; version: number; command: CommandBody }[]; answer(text: string): void } {
  let handler: (data: unknown) => void = () => undefined;
  const sent: { id: string; version: number; command: CommandBody }[] = [];
  return {
    sent,
    answer: (text) => handler(text),
    transport: {
      send: (text) => {
        const m = JSON.parse(text) as { type: string; id: string; version: number; command: CommandBody };
        if (m.type === 'command') sent.push({ id: m.id, version: m.version, command: m.command });
      },
      onMessage: (h) => {
        handler = h;
      },
      onClose: () => undefined,
      close: () => undefined,
    },
  };
}

/** The host refuses a command made against an older version, naming the current one. */
function stale(ref: string, current: number): string {
  return encode({ ...protocolError('stale-version', `view is at ${current}`, { view: 'station/2', currentVersion: current }), ref });
}

describe('host client: commands that meet a newer view', () => {
  it('resends a cash-out against the current version (a press as the next betting window opens is not lost)', () => {
    const host = fakeHost();
    const errors: string[] = [];
    const client = new HostClient(host.transport, 'station/2', { snapshot: () => undefined, error: (e) => errors.push(e.code), closed: () => undefined });
    host.answer(snapshot(4));
    assert.ok(client.command({ name: 'cash-out' }));
    assert.deepEqual(host.sent.at(-1), { id: host.sent.at(-1)?.id, version: 4, command: { name: 'cash-out' } });
    // The betting window opened meanwhile: version 5.
    host.answer(stale(host.sent[0]?.id ?? '', 5));
    assert.equal(host.sent.length, 2);
    assert.deepEqual({ version: host.sent[1]?.version, command: host.sent[1]?.command }, { version: 5, command: { name: 'cash-out' } });
    assert.deepEqual(errors, [], 'nothing refused shown to the player');
  });

  it('resends again when the view moved again within the round trip, a few times, then says so', () => {
    // A view that changes several times a second (the Devices page counts each poll of a device
    // on its trace) moves again while the resend travels; a second stale answer was only said, the
    // likely way a device press on that page did nothing in the CI run of 25 November.
    const host = fakeHost();
    const errors: string[] = [];
    const client = new HostClient(host.transport, 'station/2', { snapshot: () => undefined, error: (e) => errors.push(e.code), closed: () => undefined });
    host.answer(snapshot(4));
    client.command({ name: 'cash-out' });
    for (let v = 5; v < 5 + RESENDS; v++) host.answer(stale(host.sent.at(-1)?.id ?? '', v));
    assert.equal(host.sent.length, 1 + RESENDS, 'sent, then resent at each newer version');
    assert.deepEqual(
      host.sent.map((m) => m.version),
      Array.from({ length: 1 + RESENDS }, (_, i) => 4 + i),
    );
    assert.equal(new Set(host.sent.map((m) => m.id)).size, host.sent.length, 'each resend its own message id');
    assert.deepEqual(errors, [], 'nothing refused shown while it is resent');
    // Bounded: a view that never holds still is said to have refused it, not chased for ever.
    host.answer(stale(host.sent.at(-1)?.id ?? '', 5 + RESENDS));
    assert.equal(host.sent.length, 1 + RESENDS);
    assert.deepEqual(errors, ['stale-version']);
  });

  it('resends a language choice; never a bet or a decision, which were made against what the player saw', () => {
    const host = fakeHost();
    const errors: string[] = [];
    const client = new HostClient(host.transport, 'station/2', { snapshot: () => undefined, error: (e) => errors.push(e.code), closed: () => undefined });
    host.answer(snapshot(1));
    client.command({ name: 'set-language', language: 'pt' });
    host.answer(stale(host.sent[0]?.id ?? '', 2));
    assert.equal(host.sent[1]?.version, 2);
    assert.deepEqual(host.sent[1]?.command, { name: 'set-language', language: 'pt' });
    host.answer(snapshot(2));
    client.command({ name: 'place-bet', spot: { bet: 'main' }, amount: 10000 });
    client.command({ name: 'decide', action: 'stand' });
    host.answer(stale(host.sent[2]?.id ?? '', 3));
    host.answer(stale(host.sent[3]?.id ?? '', 3));
    assert.equal(host.sent.length, 4, 'the bet and the decision are not resent');
    assert.deepEqual(errors, ['stale-version', 'stale-version']);
  });
});
