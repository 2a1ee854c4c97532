// A station's command the host does not answer within the edge's 5 s (a loaded host; NATS away
// while the edge's client holds the command to send on its reconnection; no responder). The edge
// told the station `internal` 'the table did not answer', which a station's screen says as "Table
// host error: call an attendant", and which drops a cash-out from the commands the screen sends
// again: yet the host may still take the command (NATS hands it on after the edge's reconnection, or
// the host answers late) and apply it, so the station was told something false. Nobody knows the
// outcome: the edge closes the connection to be dialled again (1013), as when the table gave no
// nonce or did not answer an attachment, and the station is whole again from its view as the host
// has it, which says whether the command was taken.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { encode, stationView } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { EdgeSession } from './edge-session.js';
import { HELLO_101, welcomingEdge } from './welcoming-edge.js';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('a command the host does not answer', () => {
  it('closes the connection to be dialled again, never telling the station it failed', async () => {
    const view = stationView(101);
    // The first command answered, the second timed out (nats.js's request rejects), the third answered late.
    const edge = welcomingEdge(async (_station: number, text: string) => {
      const id = String((JSON.parse(text) as { id: string }).id);
      if (id === 'c2') throw Object.assign(new Error('TIMEOUT'), { code: 'TIMEOUT' });
      return encode({ type: 'ack', ref: id, view, version: 3 });
    });
    const said: string[] = [];
    let closed: { code: number; reason: string } | null = null;
    const session = new EdgeSession(
      edge,
      {
        send: (m: SharedMessage) => {
          const msg = JSON.parse(m.text) as { type?: string; code?: string; ref?: string };
          said.push(msg.type === 'error' ? `error ${msg.code ?? ''}` : `${msg.type ?? ''} ${msg.ref ?? ''}`);
        },
        buffered: () => 0,
        close: (code, reason) => void (closed ??= { code, reason }),
      },
      pino({ level: 'silent' }),
    );
    await settle();
    session.receive(HELLO_101);
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
    await settle();
    assert.ok(session.welcomed());
    for (const id of ['c1', 'c2', 'c3']) session.receive(JSON.stringify({ type: 'command', id, view, version: 2, command: { name: 'clear-bets' } }));
    await settle();
    assert.ok(said.includes('ack c1'), 'the answered command acknowledged');
    assert.ok(!said.some((s) => s.startsWith('error')), `no error for a command whose outcome nobody knows: ${said.join(', ')}`);
    assert.deepEqual(closed, { code: 1013, reason: 'the table did not answer; try again' });
    assert.ok(!said.includes('ack c3'), 'nothing passed on after the close');
  });
});
