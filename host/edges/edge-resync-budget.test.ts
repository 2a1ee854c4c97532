// A station at an edge asks for parts of its view whole (`resync`) as at the table's own listener,
// and is held to the same budget of parts (RESYNC_LIMITS, host/screens/screen-session.ts). Before
// (a review), the edge held it to the message rate only: 38 resyncs of all four parts in one
// instant (40 messages with the hello and the subscribe) had the edge write 114 parts whole from
// its cache and ask the host for the recall 38 times, each made there and published over NATS.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { stationView } from '../../protocol/index.js';
import { RESYNC_LIMITS } from '../screens/screen-session.js';
import type { SharedMessage } from '../screens/outbox.js';
import { EdgeSession } from './edge-session.js';
import { HELLO_101, welcomingEdge } from './welcoming-edge.js';

const settle = () => new Promise((r) => setTimeout(r, 20));

/** An edge that holds station 101, says yes to its proof, and counts the parts asked of it. */
function fakeEdge() {
  const asked = { resent: 0, forwarded: 0 };
  const edge = welcomingEdge(
    async () => {
      asked.forwarded++;
      return null;
    },
    () => void asked.resent++,
  );
  return { edge, asked };
}

describe('the parts a station at an edge asks for whole', () => {
  it('are held to the resync budget: past it refused, and a station that keeps on is closed', async () => {
    const { edge, asked } = fakeEdge();
    const sent: string[] = [];
    let closed: number | null = null;
    const session = new EdgeSession(
      edge,
      { send: (m: SharedMessage) => void sent.push(m.text), buffered: () => 0, close: (code) => void (closed = code) },
      pino({ level: 'silent' }),
    );
    await settle();
    const view = stationView(101);
    session.receive(HELLO_101);
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
    await settle();
    assert.ok(session.welcomed());
    for (let i = 0; i < 40; i++) session.receive(JSON.stringify({ type: 'resync', id: `r${i}`, view, parts: ['own', 'round', 'panel', 'recall'] }));
    await settle();
    const parts = asked.resent + asked.forwarded;
    assert.ok(
      parts <= RESYNC_LIMITS.burst,
      `${asked.resent} parts resent and ${asked.forwarded} recalls asked of the host for 40 resyncs (budget ${RESYNC_LIMITS.burst})`,
    );
    assert.ok(
      sent.some((t) => t.includes('"rate-limited"')),
      'the station is told',
    );
    assert.equal(closed, 1008, 'a station that keeps asking past its budget is closed');
  });
});
