// A station's message the edge could not handle (its forward to the host threw: NATS closed under
// it) is answered `internal` naming that message. A screen says an `internal` with no ref for
// nothing (renderer/src/connection/error-kind.ts: the edge's own-chain sends one for no tap), so
// before (a review, 8 December) the station would not have been told its message failed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { stationView } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { EdgeSession } from './edge-session.js';
import { HELLO_101, welcomingEdge } from './welcoming-edge.js';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('a station message the edge could not handle', () => {
  it("is answered `internal` with the message's ref", async () => {
    const edge = welcomingEdge(() => Promise.reject(new Error('CONNECTION_CLOSED')));
    const sent: string[] = [];
    const session = new EdgeSession(
      edge,
      { send: (m: SharedMessage) => void sent.push(m.text), buffered: () => 0, close: () => undefined },
      pino({ level: 'silent' }),
    );
    await settle();
    const view = stationView(101);
    session.receive(HELLO_101);
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
    await settle();
    session.receive(JSON.stringify({ type: 'resync', id: 'r7', view, parts: ['recall'] }));
    await settle();
    const internal = sent.map((t) => JSON.parse(t) as { type: string; code?: string; ref?: string }).find((m) => m.code === 'internal');
    assert.ok(internal, `no internal among ${sent.length} messages`);
    assert.equal(internal.ref, 'r7');
  });
});
