// A station's resync at an edge: the edge sends the parts it keeps (the public parts, the station's
// own part) from what it holds, and forwards to the host only the recall, which the host makes
// (a review, 8 December). Before, a resync naming the own part and the recall was forwarded as the
// screen sent it, and the host sent the own part whole over NATS again for it: a part the edge had
// just sent from its own copy (an edge asks on `resend` for one it lacks), and the host kept that
// path only for an edge before 7 December, which asked there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { stationView } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { EdgeSession } from './edge-session.js';
import { HELLO_101, welcomingEdge } from './welcoming-edge.js';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("a station's resync at an edge", () => {
  it('forwards the recall alone to the host; the own part is sent from the edge', async () => {
    const forwarded: unknown[] = [];
    let resent = 0;
    const edge = welcomingEdge(
      async (_station, text) => {
        forwarded.push(JSON.parse(text));
        return null;
      },
      () => void resent++,
    );
    const session = new EdgeSession(edge, { send: (_m: SharedMessage) => undefined, buffered: () => 0, close: () => undefined }, pino({ level: 'silent' }));
    await settle();
    const view = stationView(101);
    session.receive(HELLO_101);
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
    await settle();
    session.receive(JSON.stringify({ type: 'resync', id: 'r1', view, parts: ['own', 'round', 'recall'] }));
    await settle();
    assert.deepEqual(forwarded, [{ type: 'resync', id: 'r1', view, parts: ['recall'] }]);
    assert.equal(resent, 2, 'the own part and the round from the edge');
  });
});
