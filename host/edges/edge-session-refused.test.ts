// A station at an edge that keeps sending commands the host refuses as stale (an old view version)
// or rejects (a bet after "no more bets", over its credit), just under the message rate limit. At
// the host's own listener such a screen is closed past its refused-command budget
// (INCOMING_LIMITS.refused, issue 28 item 6; tests/security/command-flood.test.ts); at an edge the
// host's refusals were passed on uncounted, so it was served for ever, each refusal a command the
// table judged and a NATS round trip. The edge holds it to the same budget: closed (1008, `too many
// refused commands`); a station whose every stale command is followed by an acknowledged one, as a
// person pressing again just as the view changes, is never closed. The host here is the edge's
// forward, answering as the bridge does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { encode, PROTOCOL_VERSION, protocolError } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { newNonce, proveStation } from '../stadium/station-proof.js';
import type { Edge } from './edge.js';
import { EdgeSession } from './edge-session.js';

const TABLE = 'bac-1';
const SECRET = 'x'.repeat(43);
const PER_SECOND = 15;

interface Station {
  session: EdgeSession;
  closed: { code: number; reason: string } | null;
  errors: Map<string, number>;
  send(id: string): void;
}

/** One station's connection at an edge whose host answers each command with `answer(id)`. */
async function station(n: number, answer: (id: string) => string): Promise<Station> {
  const nonce = newNonce();
  const edge = {
    nonce: () => Promise.resolve(nonce),
    giveBack: () => undefined,
    verify: () => true,
    attach: () => Promise.resolve(true),
    hold: () => undefined,
    release: () => undefined,
    resend: () => undefined,
    forward: (_station: number, text: string) => Promise.resolve(answer(String((JSON.parse(text) as { id: string }).id))),
  } as unknown as Edge;
  const s: Station = {
    session: null as unknown as EdgeSession,
    closed: null,
    errors: new Map(),
    send: (id) => s.session.receive(JSON.stringify({ type: 'command', id, view: `station/${n}`, version: 1, command: { name: 'clear-bets' } })),
  };
  s.session = new EdgeSession(
    edge,
    {
      send: (m: SharedMessage) => {
        const msg = JSON.parse(m.text) as { type?: string; code?: string };
        if (msg.type === 'error' && msg.code) s.errors.set(msg.code, (s.errors.get(msg.code) ?? 0) + 1);
      },
      buffered: () => 0,
      close: (code, reason) => void (s.closed ??= { code, reason }),
    },
    pino({ level: 'silent' }),
  );
  await new Promise((r) => setImmediate(r));
  s.session.receive(
    JSON.stringify({ type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: n, nonce, proof: proveStation(SECRET, TABLE, n, nonce) }),
  );
  s.session.receive(JSON.stringify({ type: 'subscribe', id: 's', view: `station/${n}` }));
  for (let i = 0; i < 50 && !s.session.welcomed(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(s.session.welcomed(), `station ${n} welcomed`);
  return s;
}

const stale = (id: string) =>
  encode(protocolError('stale-version', 'command made against version 1, view is at 9', { ref: id, view: 'station/101', currentVersion: 9 }));
const rejected = (id: string) =>
  encode(protocolError('rejected', 'no more bets', { ref: id, view: 'station/102', currentVersion: 9, refusal: 'betting-closed' }));

describe('an edge holds a station to the refused-command budget', () => {
  it('closes a station sending stale or rejected commands under the rate limit, not one a person drives', async () => {
    const staleOne = await station(101, stale);
    const rejectedOne = await station(102, rejected);
    // A person: each stale command answered, then pressed again and acknowledged.
    let n = 0;
    const person = await station(103, (id) => (++n % 2 === 1 ? stale(id) : encode({ type: 'ack', ref: id, view: 'station/103', version: 9 })));
    const started = performance.now();
    for (let i = 0; performance.now() - started < 6000 && (staleOne.closed === null || rejectedOne.closed === null); i++) {
      for (const s of [staleOne, rejectedOne, person]) s.send(`c${i}`);
      await new Promise((r) => setTimeout(r, 1000 / PER_SECOND));
    }
    assert.deepEqual(staleOne.closed, { code: 1008, reason: 'too many refused commands' }, 'the station sending stale commands is closed');
    assert.deepEqual(rejectedOne.closed, { code: 1008, reason: 'too many refused commands' }, 'the station sending rejected commands is closed');
    assert.equal(person.closed, null, 'the station a person drives is not');
    assert.ok((staleOne.errors.get('stale-version') ?? 0) >= 40, 'told each refusal first');
  });
});
