// A station proving itself at an edge while the host does not answer its attachment (the host
// stopped or restarting after it issued the edge's nonces, NATS cut, or a host too loaded to answer
// within the edge's 5 s). The edge took the missing answer for a refusal and closed the connection
// `unauthorized` 'unknown station credential': a station's screen takes that as fatal and stays on
// the error until an attendant comes, for a credential that was never refused. Now the edge tells
// the two apart: a refusal is still `unauthorized`, an attachment the host did not answer closes
// the connection to be tried again (1013), as a connection the table gave no nonce is. A real NATS
// server and a real edge; the host is a responder that issues nonces and then answers nothing, or
// refuses.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect, type Msg, type NatsConnection } from 'nats';
import pino from 'pino';
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { newNonce, proofKeyOf, proveStation } from '../stadium/station-proof.js';
import { Edge } from './edge.js';
import { EdgeSession } from './edge-session.js';
import { startNatsServer } from './nats-server.js';
import { edgeInbox, tableSubjects } from './subjects.js';

const TABLE = 'unanswered';
const SECRET = 'a-secret-of-station-101-for-this-test-only';
const utf8 = new TextEncoder();
const text = new TextDecoder();
const log = pino({ level: 'silent' });

/** A connection of station 101 at `edge`, proving itself: how it was closed, and the errors it was sent. */
async function connectStation(edge: Edge): Promise<{ closed: { code: number; reason: string }; errors: string[] }> {
  const errors: string[] = [];
  let nonce = '';
  let close: (c: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((r) => (close = r));
  const session = new EdgeSession(
    edge,
    {
      send: (m: SharedMessage) => {
        const msg = JSON.parse(m.text) as { type?: string; code?: string; nonce?: string };
        if (msg.type === 'challenge' && msg.nonce) nonce = msg.nonce;
        if (msg.type === 'error' && msg.code) errors.push(msg.code);
      },
      buffered: () => 0,
      close: (code, reason) => close({ code, reason }),
    },
    log,
  );
  for (let i = 0; i < 200 && nonce === ''; i++) await new Promise((r) => setTimeout(r, 10));
  assert.notEqual(nonce, '', 'greeted with a nonce');
  const proof = proveStation(SECRET, TABLE, 101, nonce);
  session.receive(JSON.stringify({ type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: 101, nonce, proof }));
  const c = await Promise.race([closed, new Promise<{ code: number; reason: string }>((r) => setTimeout(() => r({ code: 0, reason: 'open' }), 8000))]);
  return { closed: c, errors };
}

describe('an attachment the host does not answer', () => {
  const closing: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const c of closing.reverse()) await c();
  });

  it('closes the station to try again, not as unauthorized; a refusal is still unauthorized', async () => {
    const server = await startNatsServer();
    closing.push(() => server.close());
    const s = tableSubjects(TABLE);
    // The host: issues nonces and publishes the enrolment; answers attachments as `attach` says.
    const host: NatsConnection = await connect({ servers: server.url });
    closing.push(() => host.close());
    let attach: 'silent' | 'refuse' = 'silent';
    host.subscribe(s.challenge('edge-1'), {
      callback: (_e: Error | null, m: Msg) => {
        const { count } = JSON.parse(text.decode(m.data)) as { count: number };
        m.respond(utf8.encode(JSON.stringify({ nonces: Array.from({ length: count }, () => newNonce()) })));
      },
    });
    host.subscribe(s.attach('edge-1'), { callback: (_e: Error | null, m: Msg) => void (attach === 'refuse' && m.respond(utf8.encode('{"ok":false}'))) });
    await host.flush();
    const nc = await connect({ servers: server.url, inboxPrefix: edgeInbox('edge-1') });
    closing.push(() => nc.close());
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc, log, catchUpRetry: { firstMs: 60_000, maxMs: 60_000 } });
    closing.push(() => edge.close());
    host.publish(s.enrol, utf8.encode(JSON.stringify({ stations: [{ station: 101, proofKey: proofKeyOf(SECRET) }] })));
    await host.flush();
    // The edge has the station's published key (it checks the proof against it before asking the host).
    for (let i = 0; i < 100 && edge['enrolled'].size === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(edge['enrolled'].size, 1);

    const unanswered = await connectStation(edge);
    assert.deepEqual(unanswered.errors, [], 'no error the screen takes as fatal');
    assert.equal(unanswered.closed.code, 1013, `closed to be tried again (${JSON.stringify(unanswered.closed)})`);

    attach = 'refuse';
    const refused = await connectStation(edge);
    assert.deepEqual(refused.errors, ['unauthorized'], 'a refusal is said as one');
    assert.equal(refused.closed.code, 1008);
  });
});
