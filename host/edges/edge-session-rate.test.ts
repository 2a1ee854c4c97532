// A station at an edge that sends more at once than the message rate allows. The table's own
// listener answers the first message over the rate `rate-limited` (the screen says "too many
// touches"), drops the others unread, and closes the connection only after INCOMING_LIMITS.dropAfter
// over the rate in a row (host/screens/screen-session.ts, `overRate`). The edge closed the
// connection on its first message over the rate: a station agent's relay sends the proof and up to
// 32 of the screen's messages held meanwhile at once (host/station-agent/table-relay.ts,
// EARLY_MESSAGES), 33 of the 40 a burst allows, so a few quick taps after a reconnection had the
// station dropped and dialling again. Now the edge does as the table does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { encode, stationView } from '../../protocol/index.js';
import { INCOMING_LIMITS } from '../screens/screen-session.js';
import type { SharedMessage } from '../screens/outbox.js';
import { EdgeSession } from './edge-session.js';
import { HELLO_101, welcomingEdge } from './welcoming-edge.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a station at an edge over the message rate', () => {
  it('is told rate-limited once and kept after a burst, and closed only when it keeps on', async () => {
    const view = stationView(101);
    let forwarded = 0;
    const edge = welcomingEdge(async (_station: number, text: string) => {
      forwarded++;
      return encode({ type: 'ack', ref: String((JSON.parse(text) as { id: string }).id), view, version: 2 });
    });
    const errors: string[] = [];
    let acks = 0;
    let closed: { code: number; reason: string } | null = null;
    const session = new EdgeSession(
      edge,
      {
        send: (m: SharedMessage) => {
          const msg = JSON.parse(m.text) as { type?: string; code?: string };
          if (msg.type === 'error' && msg.code) errors.push(msg.code);
          if (msg.type === 'ack') acks++;
        },
        buffered: () => 0,
        close: (code, reason) => void (closed ??= { code, reason }),
      },
      pino({ level: 'silent' }),
    );
    await sleep(20);
    const command = (id: string) => JSON.stringify({ type: 'command', id, view, version: 1, command: { name: 'clear-bets' } });
    // The relay's burst (the proof and what the screen said meanwhile), then a few taps more at once.
    session.receive(HELLO_101);
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
    for (let i = 0; i < INCOMING_LIMITS.burst + 5; i++) session.receive(command(`b${i}`));
    await sleep(50);
    assert.equal(closed, null, 'a burst past the rate does not close the station');
    assert.deepEqual(errors, ['rate-limited'], 'told once');
    // The burst's 40 less the hello and the subscribe (one more if the loop took 50 ms: the rate refills).
    assert.ok(forwarded >= INCOMING_LIMITS.burst - 2 && forwarded <= INCOMING_LIMITS.burst, `${forwarded} forwarded: what was over the rate dropped unread`);
    const before = forwarded;
    // A second on: served again.
    await sleep(1100);
    session.receive(command('later'));
    await sleep(50);
    assert.equal(closed, null);
    assert.equal(acks, before + 1, 'the command after the pause answered');
    // A flood: more than dropAfter over the rate in a row closes it, as at the table.
    for (let i = 0; i < INCOMING_LIMITS.burst + INCOMING_LIMITS.dropAfter + 2; i++) session.receive(command(`f${i}`));
    await sleep(50);
    assert.deepEqual(closed, { code: 1008, reason: 'rate limit' });
  });
});
