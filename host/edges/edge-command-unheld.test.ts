// A station's command at an edge that the host answers `unauthorized` because it does not hold the
// station at that edge: the host started again (it holds no station) or the station attached at
// another edge, and the edge has not yet heard (its ask for the last values, or the `gone`, still
// on the way). The edge passed the answer on, and a station's screen takes `unauthorized` as fatal:
// it stayed on the error until an attendant came, where the edge's answer from the host a moment
// later closes the connection to be dialled again (Edge.dropNotHeld). Now the edge closes it at
// once, as not attached here (1008, dialled again), and the screen never sees `unauthorized`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { encode, protocolError } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { EdgeSession } from './edge-session.js';
import { HELLO_101, welcomingEdge } from './welcoming-edge.js';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('a command the host answers as not held at this edge', () => {
  it('closes the connection to be dialled again; the station is never told unauthorized', async () => {
    // The bridge's answer to a command for a station this edge does not hold (edge-bridge.ts `command`).
    const edge = welcomingEdge(async () => encode(protocolError('unauthorized', 'this edge does not hold that station')));
    const errors: string[] = [];
    let closed: { code: number; reason: string } | null = null;
    const session = new EdgeSession(
      edge,
      {
        send: (m: SharedMessage) => {
          const msg = JSON.parse(m.text) as { type?: string; code?: string };
          if (msg.type === 'error' && msg.code) errors.push(msg.code);
        },
        buffered: () => 0,
        close: (code, reason) => void (closed ??= { code, reason }),
      },
      pino({ level: 'silent' }),
    );
    await settle();
    session.receive(HELLO_101);
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view: 'station/101' }));
    await settle();
    assert.ok(session.welcomed());
    session.receive(JSON.stringify({ type: 'command', id: 'c1', view: 'station/101', version: 3, command: { name: 'clear-bets' } }));
    await settle();
    assert.deepEqual(errors, [], 'no unauthorized for the screen to stay on');
    assert.deepEqual(closed, { code: 1008, reason: 'not attached here at the table' });
  });
});
